import DiffableTesting

@testable import Diffable

/// A `DiffableDataSourceSectionSnapshot` and the naive tree `OutlineModel` driven by the
/// same decoded operations. The model lists the problems the API must report (in order);
/// a rejected operation must leave the outline unchanged. After each operation every row
/// (item, level, parent, expansion, visibility, index) must agree with the model.
struct OutlineSnapshotRun<Item: Hashable> {
    typealias Snapshot = DiffableDataSourceSectionSnapshot<Item>
    typealias Node = OutlineModel<Item>.Node

    let makeItem: (Int) -> Item
    var snapshot = Snapshot()
    var model = OutlineModel<Item>()
    /// The state the next `difference(from:)` starts from.
    var checkpoint = Snapshot()

    init(makeItem: @escaping (Int) -> Item) { self.makeItem = makeItem }

    func item(_ bytes: inout FuzzBytes) -> Item { makeItem(bytes.below(FlatSnapshotRun<Item>.itemRange)) }
    func items(_ bytes: inout FuzzBytes) -> [Item] { bytes.list(most: 4) { item(&$0) } }
    func parent(_ bytes: inout FuzzBytes) -> Item? { bytes.below(4) == 0 ? nil : item(&bytes) }

    /// A forest of distinct items with random expansion, for the subtree operations.
    func forest(_ bytes: inout FuzzBytes) -> [Node] {
        var forest = OutlineModel<Item>()
        for _ in 0..<bytes.below(6) {
            let node = Node(item: item(&bytes), isExpanded: bytes.bool())
            let parent = bytes.bool() ? nil : forest.items.last
            _ = forest.append([node], to: forest.contains(node.item) ? nil : parent)
        }
        return forest.roots
    }

    /// What every row of an outline answers.
    struct RowFacts: Equatable {
        var item: Item, level: Int, parent: Item?, isExpanded: Bool, isVisible: Bool
    }

    static func facts(_ snapshot: Snapshot) -> [RowFacts] {
        snapshot.items.map {
            RowFacts(
                item: $0, level: snapshot.level(of: $0), parent: snapshot.parent(of: $0), isExpanded: snapshot.isExpanded($0),
                isVisible: snapshot.isVisible($0))
        }
    }

    static func facts(_ model: OutlineModel<Item>) -> [RowFacts] {
        model.rows.map { RowFacts(item: $0.item, level: $0.level, parent: $0.parent, isExpanded: $0.isExpanded, isVisible: $0.isVisible) }
    }

    /// Where `snapshot` and `model` disagree, if they do.
    func mismatch(_ snapshot: Snapshot, _ model: OutlineModel<Item>) -> String? {
        if Self.facts(snapshot) != Self.facts(model) { return "rows" }
        if snapshot.items.enumerated().contains(where: { snapshot.index(of: $1) != $0 }) { return "index(of:)" }
        if snapshot.rootItems != model.rootItems { return "rootItems" }
        if snapshot.visibleItems != model.visibleItems { return "visibleItems" }
        if snapshot.expandedItems != model.expandedItems { return "expandedItems" }
        let absent = (0..<FlatSnapshotRun<Item>.itemRange).map(makeItem).filter { !model.contains($0) }
        if absent.contains(where: { snapshot.contains($0) || snapshot.index(of: $0) != nil || snapshot.isVisible($0) }) {
            return "absent items"
        }
        return nil
    }

    /// Decodes one operation from `bytes`, runs it on both and checks the outcome.
    mutating func step(_ bytes: inout FuzzBytes) {
        let before = snapshot, modelBefore = model
        let operation = bytes.below(11)
        var expected: [SectionSnapshotError.Problem] = []
        var thrown: SectionSnapshotError?
        func attempt(_ body: (inout Snapshot) throws -> Void) {
            do { try body(&snapshot) } catch { thrown = error as? SectionSnapshotError }
        }
        switch operation {
        case 0:
            let items = items(&bytes), parent = parent(&bytes)
            expected = model.append(items.map { Node(item: $0) }, to: parent)
            attempt { try $0.tryAppend(items, to: parent) }
        case 1:
            let items = items(&bytes), anchor = item(&bytes), after = bytes.bool()
            expected = model.insert(items.map { Node(item: $0) }, next: anchor, after: after)
            attempt { after ? try $0.tryInsert(items, after: anchor) : try $0.tryInsert(items, before: anchor) }
        case 2:
            let items = items(&bytes)
            model.delete(items)
            snapshot.delete(items)
        case 3:
            let items = items(&bytes), expand = bytes.bool()
            model.setExpanded(items, expand)
            if expand { snapshot.expand(items) } else { snapshot.collapse(items) }
        case 4:
            let parent = item(&bytes), includingParent = bytes.bool()
            let subtree = model.subtree(of: parent, includingParent: includingParent)
            do throws(SectionSnapshotError) {
                let part = try snapshot.trySnapshot(of: parent, includingParent: includingParent)
                fuzzCheck(subtree != nil, "snapshot(of: \(parent)) of an absent item did not throw")
                let problem = mismatch(part, OutlineModel(roots: subtree ?? []))
                fuzzCheck(problem == nil, "snapshot(of: \(parent), includingParent: \(includingParent)): \(problem ?? "")")
            } catch {
                fuzzCheck(subtree == nil && error.problems == [.notInSnapshot(String(reflecting: parent))], "snapshot(of:) threw \(error)")
            }
        case 5:
            let nodes = forest(&bytes), parent = parent(&bytes)
            let addition = OutlineModel(roots: nodes).makeSnapshot()
            expected = model.append(nodes, to: parent)
            attempt { try $0.tryAppend(addition, to: parent) }
        case 6:
            let nodes = forest(&bytes), anchor = item(&bytes), after = bytes.bool()
            let addition = OutlineModel(roots: nodes).makeSnapshot()
            expected = model.insert(nodes, next: anchor, after: after)
            attempt { after ? try $0.tryInsert(addition, after: anchor) : try $0.tryInsert(addition, before: anchor) }
        case 7:
            let nodes = forest(&bytes), parent = item(&bytes)
            let replacement = OutlineModel(roots: nodes).makeSnapshot()
            expected = model.replaceChildren(of: parent, with: nodes)
            attempt { try $0.tryReplace(childrenOf: parent, using: replacement) }
        case 8:
            model.roots = []
            snapshot.deleteAll()
        case 9:
            checkDifference()
        default:
            let rebuilt = try? Snapshot(validating: model.entriesChildrenFirst)
            fuzzCheck(rebuilt == snapshot, "init(validating:) of the model's entries differs from the outline")
        }
        func context() -> String { "outline operation \(operation) on\n\(before.visualDescription())" }
        fuzzCheck((thrown?.problems ?? []) == expected, "\(context())\nexpected problems \(expected), thrown \(String(describing: thrown))")
        if thrown != nil { fuzzCheck(snapshot == before, "\(context())\na rejected operation changed the outline") }
        fuzzCheck(mismatch(before, modelBefore) == nil, "\(context())\na copy taken before changed (copy-on-write)")
        if let problem = mismatch(snapshot, model) {
            fuzzCheck(false, "\(context())\n\(problem) differ from the model; now\n\(snapshot.visualDescription())")
        }
    }

    /// The difference of the visible rows from the checkpoint must pass the strict
    /// simulator and show exactly the visible items; this outline becomes the checkpoint.
    mutating func checkDifference() {
        let difference = snapshot.difference(from: checkpoint)
        var view = ListViewSimulator<Int, Item>()
        view.reloadData(difference.old)
        do {
            try view.apply(difference)
        } catch {
            fuzzCheck(false, "outline difference rejected by the simulator: \(error)\n\(difference)")
        }
        fuzzCheck(difference.old.itemIdentifiers == checkpoint.visibleItems, "the difference starts from other rows")
        fuzzCheck(view.visibleSnapshot?.itemIdentifiers == snapshot.visibleItems, "the outline difference replays wrong")
        fuzzCheck(snapshot.difference(from: snapshot).isEmpty, "an outline's difference from itself is not empty")
        checkpoint = snapshot
    }
}
