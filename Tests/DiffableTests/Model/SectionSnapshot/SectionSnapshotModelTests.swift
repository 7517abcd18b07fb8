import Testing

@testable import Diffable

/// One step of a random sequence, replayable on a fresh snapshot and model and
/// printable as the line of code that reproduces it.
enum OutlineOperation<Item: Hashable>: CustomStringConvertible {
    typealias Node = OutlineModel<Item>.Node

    case append([Item], to: Item?)
    case insert([Item], next: Item, after: Bool)
    case delete([Item])
    case deleteAll
    case expand([Item])
    case collapse([Item])
    case appendSubtrees([Node], to: Item?)
    case insertSubtrees([Node], next: Item, after: Bool)
    case replaceChildren(of: Item, with: [Node])
    /// `snapshot(of: item, includingParent: true)`, `delete([item])`, then `append(_:to:)` of that snapshot.
    case moveSubtree(Item, to: Item?)
    /// As `moveSubtree`, then `insert(_:before:)` / `insert(_:after:)`.
    case moveSubtreeNext(Item, anchor: Item, after: Bool)
    /// Replaces the snapshot by `init(validating:)` of its entries, children first.
    case rebuild

    var description: String {
        func show(_ item: Item?) -> String { item.map { String(reflecting: $0) } ?? "nil" }
        func list(_ items: [Item]) -> String { "[" + items.map { String(reflecting: $0) }.joined(separator: ", ") + "]" }
        func forest(_ nodes: [Node]) -> String { "OutlineModel(roots: [\(nodes.map(\.sourceText).joined(separator: ", "))])" }
        switch self {
        case .append(let items, let parent): return "try snapshot.tryAppend(\(list(items)), to: \(show(parent)))"
        case .insert(let items, let anchor, let after):
            return "try snapshot.tryInsert(\(list(items)), \(after ? "after" : "before"): \(show(anchor)))"
        case .delete(let items): return "snapshot.delete(\(list(items)))"
        case .deleteAll: return "snapshot.deleteAll()"
        case .expand(let items): return "snapshot.expand(\(list(items)))"
        case .collapse(let items): return "snapshot.collapse(\(list(items)))"
        case .appendSubtrees(let nodes, let parent): return "try snapshot.tryAppend(\(forest(nodes)).makeSnapshot(), to: \(show(parent)))"
        case .insertSubtrees(let nodes, let anchor, let after):
            return "try snapshot.tryInsert(\(forest(nodes)).makeSnapshot(), \(after ? "after" : "before"): \(show(anchor)))"
        case .replaceChildren(let parent, let nodes):
            return "try snapshot.tryReplace(childrenOf: \(show(parent)), using: \(forest(nodes)).makeSnapshot())"
        case .moveSubtree(let item, let parent):
            return "move: sub = snapshot.snapshot(of: \(show(item)), includingParent: true); delete; tryAppend(sub, to: \(show(parent)))"
        case .moveSubtreeNext(let item, let anchor, let after):
            return "move: sub = snapshot.snapshot(of: \(show(item)), includingParent: true); delete; "
                + "tryInsert(sub, \(after ? "after" : "before"): \(show(anchor)))"
        case .rebuild: return "snapshot = try .init(validating: model.entriesChildrenFirst)"
        }
    }
}

extension OutlineModel.Node {
    /// The node as Swift source.
    var sourceText: String {
        "Node(item: \(String(reflecting: item)), isExpanded: \(isExpanded), children: [\(children.map(\.sourceText).joined(separator: ", "))])"
    }
}

/// A snapshot and the model, driven by the same operations and compared after each.
struct OutlineRun<Item: Hashable> {
    typealias Snapshot = DiffableDataSourceSectionSnapshot<Item>
    typealias Problem = SectionSnapshotError.Problem
    var snapshot = Snapshot()
    var model = OutlineModel<Item>()

    /// Applies `operation` to both; returns what went wrong, if anything. `rebuild`: also
    /// compare with the same outline built by `init(validating:)`.
    mutating func apply(_ operation: OutlineOperation<Item>, probes: [Item], rebuild: Bool = true) -> String? {
        let before = snapshot, modelBefore = model
        var expected: [Problem] = []
        var thrown: SectionSnapshotError?
        func attempt(_ body: (inout Snapshot) throws -> Void) {
            do { try body(&snapshot) } catch { thrown = error as? SectionSnapshotError }
        }
        switch operation {
        case .append(let items, let parent):
            expected = model.append(items.map { .init(item: $0) }, to: parent)
            if expected.isEmpty && items.count % 2 == 0 {
                snapshot.append(items, to: parent)  // the trapping spelling, where it must not trap
            } else {
                attempt { try $0.tryAppend(items, to: parent) }
            }
        case .insert(let items, let anchor, let after):
            expected = model.insert(items.map { .init(item: $0) }, next: anchor, after: after)
            attempt { after ? try $0.tryInsert(items, after: anchor) : try $0.tryInsert(items, before: anchor) }
        case .delete(let items):
            model.delete(items)
            snapshot.delete(items)
        case .deleteAll:
            model.roots = []
            snapshot.deleteAll()
        case .expand(let items):
            model.setExpanded(items, true)
            snapshot.expand(items)
        case .collapse(let items):
            model.setExpanded(items, false)
            snapshot.collapse(items)
        case .appendSubtrees(let nodes, let parent):
            let addition = Self.snapshot(of: nodes)
            expected = model.append(nodes, to: parent)
            attempt { try $0.tryAppend(addition, to: parent) }
        case .insertSubtrees(let nodes, let anchor, let after):
            let addition = Self.snapshot(of: nodes)
            expected = model.insert(nodes, next: anchor, after: after)
            attempt { after ? try $0.tryInsert(addition, after: anchor) : try $0.tryInsert(addition, before: anchor) }
        case .replaceChildren(let parent, let nodes):
            let replacement = Self.snapshot(of: nodes)
            expected = model.replaceChildren(of: parent, with: nodes)
            attempt { try $0.tryReplace(childrenOf: parent, using: replacement) }
        case .moveSubtree(let item, let parent):
            guard let moved = model.subtree(of: item, includingParent: true) else { break }
            let sub = snapshot.snapshot(of: item, includingParent: true)
            if let problem = Self.disagreement(sub, OutlineModel(roots: moved), probes: []) { return "snapshot(of:) \(problem)" }
            model.delete([item])
            snapshot.delete([item])
            expected = model.append(moved, to: parent)
            attempt { try $0.tryAppend(sub, to: parent) }
        case .moveSubtreeNext(let item, let anchor, let after):
            guard let moved = model.subtree(of: item, includingParent: true) else { break }
            let sub = snapshot.snapshot(of: item, includingParent: true)
            model.delete([item])
            snapshot.delete([item])
            expected = model.insert(moved, next: anchor, after: after)
            attempt { after ? try $0.tryInsert(sub, after: anchor) : try $0.tryInsert(sub, before: anchor) }
        case .rebuild:
            do {
                snapshot = try Snapshot(validating: model.entriesChildrenFirst)
            } catch {
                return "init(validating:) rejected a valid outline: \(error)"
            }
        }
        if let thrown {
            if thrown.problems != expected { return "expected problems \(expected), got \(thrown.problems)" }
            let unchanged = Self.disagreement(snapshot, model, probes: probes)
            if unchanged != nil { return "a rejected operation changed the snapshot: \(unchanged!)" }
        } else if !expected.isEmpty {
            return "expected problems \(expected), nothing thrown"
        }
        if before.items != modelBefore.items || before.expandedItems != modelBefore.expandedItems {
            return "a copy taken before the operation changed (copy-on-write)"
        }
        return Self.disagreement(snapshot, model, probes: probes, rebuild: rebuild)
    }

    /// Alternates the two ways of building a snapshot from a forest.
    static func snapshot(of nodes: [OutlineModel<Item>.Node]) -> Snapshot {
        let model = OutlineModel(roots: nodes)
        if nodes.count % 2 == 0 { return model.makeSnapshot() }
        return try! Snapshot(validating: model.entriesChildrenFirst)
    }

    /// Every query of `snapshot` against the model; nil when all agree.
    static func disagreement(_ snapshot: Snapshot, _ model: OutlineModel<Item>, probes: [Item], rebuild: Bool = false) -> String? {
        let rows = model.rows
        let visible = rows.filter(\.isVisible).map(\.item), expanded = rows.filter(\.isExpanded).map(\.item)
        if snapshot.items != rows.map(\.item) { return "items \(snapshot.items) != model \(rows.map(\.item))" }
        if snapshot.rootItems != model.rootItems { return "rootItems \(snapshot.rootItems) != model \(model.rootItems)" }
        if snapshot.visibleItems != visible { return "visibleItems \(snapshot.visibleItems) != model \(visible)" }
        if snapshot.expandedItems != expanded { return "expandedItems \(snapshot.expandedItems) != model \(expanded)" }
        for (index, row) in rows.enumerated() {
            let item = row.item
            guard snapshot.contains(item), snapshot.index(of: item) == index else {
                return "index(of: \(item)) = \(String(describing: snapshot.index(of: item))), model \(index)"
            }
            if snapshot.level(of: item) != row.level { return "level(of: \(item)) = \(snapshot.level(of: item)), model \(row.level)" }
            if snapshot.parent(of: item) != row.parent { return "parent(of: \(item)) differs from model \(String(describing: row.parent))" }
            if snapshot.isExpanded(item) != row.isExpanded { return "isExpanded(\(item)) differs from model \(row.isExpanded)" }
            if snapshot.isVisible(item) != row.isVisible { return "isVisible(\(item)) differs from model \(row.isVisible)" }
        }
        for probe in probes
        where snapshot.contains(probe) || snapshot.index(of: probe) != nil || snapshot.parent(of: probe) != nil
            || snapshot.isExpanded(probe) || snapshot.isVisible(probe)
        {
            return "an absent item \(probe) is reported present"
        }
        // The same outline built another way (one validated pass) must be equal.
        if rebuild && snapshot != (try? Snapshot(validating: model.entriesChildrenFirst)) {
            return "== differs from the same outline rebuilt"
        }
        return nil
    }
}

/// Thousands of random operation sequences (subtree operations and expansion
/// included) against the naive tree model. A failure prints a minimal reproduction:
/// the failing sequence with every operation dropped that the failure does not need.
@Suite struct SectionSnapshotModelTests {
    typealias Node = OutlineModel<Int>.Node

    static func run<Item: Hashable>(seed: UInt64, rounds: Int, steps: Int, item: @escaping (Int) -> Item) {
        var generator = SeededGenerator(seed: seed)
        for round in 0..<rounds {
            var operations: [OutlineOperation<Item>] = []
            var run = OutlineRun<Item>()
            var next = 0
            func fresh(_ count: Int) -> [Item] {
                defer { next += count }
                return (next..<(next + count)).map(item)
            }
            for _ in 0..<steps {
                let operation = randomOperation(run.model, &generator, fresh: fresh)
                operations.append(operation)
                if let problem = run.apply(operation, probes: fresh(2), rebuild: operations.count % 4 == 0) {
                    let minimal = shrink(operations) { replay($0, item: item) != nil }
                    Issue.record(
                        """
                        seed \(seed) round \(round) step \(operations.count - 1): \(problem)
                        minimal reproduction (\(minimal.count) operations, from an empty snapshot):
                        \(minimal.map(\.description).joined(separator: "\n"))
                        failure there: \(replay(minimal, item: item) ?? "none")
                        """)
                    return
                }
            }
        }
    }

    /// Replays `operations` from an empty snapshot; the first failure, if any.
    static func replay<Item: Hashable>(_ operations: [OutlineOperation<Item>], item: (Int) -> Item) -> String? {
        var run = OutlineRun<Item>()
        for operation in operations {
            if let problem = run.apply(operation, probes: [item(-1)]) { return problem }
        }
        return nil
    }

    /// Drops operations one at a time while the sequence still fails, until none can go.
    static func shrink<Operation>(_ operations: [Operation], failing: ([Operation]) -> Bool) -> [Operation] {
        var current = operations
        var changed = true
        while changed {
            changed = false
            for index in current.indices.reversed() {
                var candidate = current
                candidate.remove(at: index)
                if failing(candidate) {
                    current = candidate
                    changed = true
                }
            }
        }
        return current
    }

    static func randomOperation<Item: Hashable>(
        _ model: OutlineModel<Item>, _ g: inout SeededGenerator, fresh: (Int) -> [Item]
    ) -> OutlineOperation<Item> {
        let items = model.items
        func existing() -> Item? { items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &g)] }
        func some(_ most: Int) -> [Item] { (0..<Int.random(in: 0...most, using: &g)).compactMap { _ in existing() } }
        /// A random forest over `ids`, with random expansion.
        func forest(_ ids: [Item]) -> [OutlineModel<Item>.Node] {
            var model = OutlineModel<Item>()
            for id in ids {
                let parent = Bool.random(using: &g) ? nil : model.items.randomElement(using: &g)
                _ = model.append([.init(item: id, isExpanded: Int.random(in: 0..<3, using: &g) == 0)], to: parent)
            }
            return model.roots
        }
        switch Int.random(in: 0..<20, using: &g) {
        case 0, 1, 2:
            // Often on the last branch, where appends are O(k).
            let parent = Bool.random(using: &g) ? model.rows.last?.item : existing()
            return .append(fresh(Int.random(in: 0...4, using: &g)), to: Bool.random(using: &g) ? parent : nil)
        case 3, 4:
            guard let anchor = existing() else { return .append(fresh(2), to: nil) }
            return .insert(fresh(Int.random(in: 1...3, using: &g)), next: anchor, after: Bool.random(using: &g))
        case 5:
            return .delete(some(3) + fresh(Int.random(in: 0...1, using: &g)))
        case 6, 7:
            return .expand(some(5) + fresh(Int.random(in: 0...1, using: &g)))
        case 8:
            return .collapse(some(3) + fresh(Int.random(in: 0...1, using: &g)))
        case 9:
            return .appendSubtrees(forest(fresh(Int.random(in: 0...6, using: &g))), to: Bool.random(using: &g) ? existing() : nil)
        case 10:
            guard let anchor = existing() else { break }
            return .insertSubtrees(forest(fresh(Int.random(in: 1...6, using: &g))), next: anchor, after: Bool.random(using: &g))
        case 11, 12:
            guard let parent = existing() else { break }
            // Some current descendants stay (their expansion must survive), some go, new ones come.
            let descendants = model.subtree(of: parent, includingParent: false)!.flatMap(\.allItems)
            let kept = descendants.filter { _ in Bool.random(using: &g) }.shuffled(using: &g)
            return .replaceChildren(of: parent, with: forest(kept + fresh(Int.random(in: 0...3, using: &g))))
        case 13, 14:
            guard let item = existing() else { break }
            return .moveSubtree(item, to: Bool.random(using: &g) ? existing() : nil)
        case 15:
            guard let item = existing(), let anchor = existing() else { break }
            return .moveSubtreeNext(item, anchor: anchor, after: Bool.random(using: &g))
        case 16:
            // Rejected: a repeat within the call, an item already present, a missing anchor.
            let twice = fresh(1)
            switch Int.random(in: 0..<4, using: &g) {
            case 0: return .append(twice + fresh(1) + twice, to: existing())
            case 1: return .append(fresh(1) + some(2), to: nil)
            case 2: return .insert(fresh(2), next: fresh(1)[0], after: Bool.random(using: &g))
            default:
                guard let anchor = existing() else { break }
                return .insert(fresh(1) + [anchor], next: anchor, after: Bool.random(using: &g))
            }
        case 17:
            // Rejected subtree operations: the anchor inside, items elsewhere in the outline.
            guard let anchor = existing() else { break }
            if Bool.random(using: &g) {
                return .insertSubtrees(forest([anchor] + fresh(2)), next: anchor, after: Bool.random(using: &g))
            }
            return .replaceChildren(of: anchor, with: forest(some(2) + fresh(1)))
        case 18:
            return .rebuild
        default:
            if Int.random(in: 0..<6, using: &g) == 0 { return .deleteAll }
        }
        return .expand(some(2))
    }

    @Test func intItemsAgreeWithModel() { Self.run(seed: 11, rounds: 1_200, steps: 40) { $0 } }

    @Test func stringItemsAgreeWithModel() { Self.run(seed: 12, rounds: 400, steps: 40) { "n\($0)-é" } }

    @Test func collidingHashesAgreeWithModel() { Self.run(seed: 13, rounds: 400, steps: 40) { CollidingID(value: $0) } }

    @Test func shrinkingDropsWhatTheFailureDoesNotNeed() {
        // A deliberately failing replay: "fails" once 7 and then 9 have been appended as roots.
        let operations: [OutlineOperation<Int>] = [
            .append([1, 2], to: nil), .append([7], to: nil), .expand([1]), .append([3], to: 1), .append([9], to: nil), .delete([2]),
        ]
        func fails(_ operations: [OutlineOperation<Int>]) -> Bool {
            var run = OutlineRun<Int>()
            for operation in operations { _ = run.apply(operation, probes: []) }
            return run.snapshot.rootItems.contains(7) && run.snapshot.rootItems.contains(9)
        }
        let current = Self.shrink(operations, failing: fails)
        #expect(current.map(\.description) == ["try snapshot.tryAppend([7], to: nil)", "try snapshot.tryAppend([9], to: nil)"])
    }
}
