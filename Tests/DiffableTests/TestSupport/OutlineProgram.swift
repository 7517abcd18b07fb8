@testable import Diffable

// Plain values (declared elsewhere, so unchecked): a generated program crosses into the property's body.
extension OutlineOperation: @unchecked Sendable where Item: Sendable {}
extension OutlineModel.Node: @unchecked Sendable where Item: Sendable {}

/// Outline operations decoded from generated numbers against the outline as it evolves (see
/// ``SnapshotProgram``), replayed by ``OutlineRun`` against the naive tree model.
struct OutlineProgram: CustomStringConvertible, Sendable {
    typealias Node = OutlineModel<Int>.Node
    var operations: [OutlineOperation<Int>] = []

    init(_ codes: [SnapshotProgram.Code]) {
        var run = OutlineRun<Int>()
        var nextItem = 0
        func fresh(_ count: Int) -> [Int] {
            defer { nextItem += count }
            return Array(nextItem..<(nextItem + count))
        }
        for code in codes {
            let items = run.model.items, (a, b, c) = (code.a, code.b, code.c)
            func some(_ choice: Int) -> Int { items[choice % items.count] }
            let operation: OutlineOperation<Int>?
            switch code.operation {
            case 0...1: operation = .append(fresh(a % 4), to: b % 2 == 0 || items.isEmpty ? nil : some(b))
            case 2 where !items.isEmpty: operation = .insert(fresh(1 + a % 2), next: some(b), after: c % 2 == 1)
            case 3 where !items.isEmpty: operation = .delete([some(a)])
            case 4 where !items.isEmpty: operation = .expand([some(a), some(b)])
            case 5 where !items.isEmpty: operation = .collapse([some(a)])
            case 6 where !items.isEmpty: operation = .moveSubtree(some(a), to: c % 2 == 0 ? nil : some(b))
            case 7 where !items.isEmpty: operation = .replaceChildren(of: some(a), with: fresh(b % 3).map { Node(item: $0) })
            case 8:
                let root = Node(item: fresh(1)[0], isExpanded: c % 2 == 1, children: fresh(a % 3).map { Node(item: $0) })
                operation = .appendSubtrees([root], to: b % 2 == 0 || items.isEmpty ? nil : some(b))
            case 9 where !items.isEmpty:
                // Rejected: an item already there, or an anchor that is not.
                operation = a % 2 == 0 ? .append([some(b)], to: nil) : .insert(fresh(1), next: -1, after: false)
            case 10: operation = a % 4 == 3 ? .deleteAll : .rebuild
            case 11 where items.count >= 2: operation = .moveSubtreeNext(some(a), anchor: some(b), after: c % 2 == 1)
            default: operation = nil
            }
            guard let operation else { continue }
            _ = run.apply(operation, probes: [], rebuild: false)
            operations.append(operation)
        }
    }

    /// Replays every operation on a fresh outline and model; the first failure, named by its step.
    func run() -> String? {
        var run = OutlineRun<Int>()
        for (index, operation) in operations.enumerated() {
            if let failure = run.apply(operation, probes: [-5], rebuild: index == operations.count - 1) {
                return "step \(index + 1) (\(operation)): \(failure)"
            }
        }
        return nil
    }

    var description: String {
        operations.isEmpty
            ? "(no operations)" : "\n" + operations.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }
}

/// Snapshots applied in turn to a data source on the strict simulated view, each with how it
/// is applied; decoded from generated sections (repeated identifiers dropped).
struct ApplyProgram: CustomStringConvertible, Sendable {
    enum Mode: Int, CaseIterable, Sendable {
        case animated, withoutAnimation, reloadData, reconfigureFirst
    }

    struct Step: Sendable {
        var sections: [Int]
        var items: [[Int]]
        var mode: Mode
    }

    var steps: [Step]

    init(_ generated: [(sections: [(id: Int, items: [Int])], mode: Int)]) {
        steps = generated.map { sections, mode in
            var seenSections = Set<Int>(), seenItems = Set<Int>()
            let kept = sections.filter { seenSections.insert($0.id).inserted }
            return Step(
                sections: kept.map(\.id), items: kept.map { $0.items.filter { seenItems.insert($0).inserted } },
                mode: Mode(rawValue: mode % Mode.allCases.count)!)
        }
    }

    /// Applies every step; the first problem the strict view or the data source shows.
    func run() -> String? {
        let harness = DataSourceHarness<Int, Int>()
        for (index, step) in steps.enumerated() {
            var snapshot = DiffableDataSourceSnapshot<Int, Int>.build(step.sections, step.items)
            switch step.mode {
            case .animated: harness.dataSource.apply(snapshot, completion: nil)
            case .withoutAnimation: harness.dataSource.apply(snapshot, animatingDifferences: false, completion: nil)
            case .reloadData: harness.dataSource.applySnapshotUsingReloadData(snapshot, completion: nil)
            case .reconfigureFirst:
                if let first = snapshot.itemIdentifiers.first { snapshot.reconfigureItems([first]) }
                harness.dataSource.apply(snapshot, completion: nil)
            }
            if let problem = harness.problem() { return "step \(index + 1): \(problem)" }
            if harness.dataSource.snapshot() != snapshot.withoutPendingUpdates() { return "step \(index + 1): snapshot() differs" }
        }
        return nil
    }

    var description: String {
        "\n"
            + steps.enumerated().map { index, step in
                let content = zip(step.sections, step.items).map { "\($0): \($1)" }.joined(separator: ", ")
                return "  \(index + 1). \(step.mode) [\(content)]"
            }.joined(separator: "\n")
    }
}
