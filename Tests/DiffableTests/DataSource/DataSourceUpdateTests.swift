import Foundation
import Testing

@testable import Diffable

/// `update(animatingDifferences:_:)` (docs/DATA_SOURCE.md): a read-modify-write of the
/// newest snapshot that no other apply can split.
// A time limit: a queue that never drains would otherwise hang the whole run without naming a test.
@Suite(.timeLimit(.minutes(5))) struct DataSourceUpdateTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>
    typealias Harness = DataSourceHarness<String, String>

    /// 50 tasks each append one item through `update`, under both queue policies: every item
    /// is there at the end, and the view shows the data source's snapshot.
    @Test(arguments: [QueuedApplyPolicy.performEach, .coalesce])
    func concurrentUpdatesLoseNothing(policy: QueuedApplyPolicy) async {
        let harness = Harness()
        let dataSource = harness.dataSource
        dataSource.queuedApplyPolicy = policy
        await dataSource.apply(.build(["S"], [[]]))
        let count = 50
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask { await dataSource.update { $0.appendItems(["i\(index)"], toSection: "S") } }
            }
        }
        let items = dataSource.snapshot().itemIdentifiers
        #expect(items.count == count)
        #expect(Set(items) == Set((0..<count).map { "i\($0)" }))
        #expect(harness.problem() == nil)
    }

    /// The contrast, made deterministic with a busy view: two clients each read
    /// `snapshot()`, append their item and `apply`. Both read the committed snapshot (their
    /// applies are still queued), so the second apply erases the first client's item. The
    /// same two changes through `update` both arrive.
    @Test func readModifyWriteLosesAnUpdateThatUpdateKeeps() async {
        let harness = Harness()
        let dataSource = harness.dataSource
        await dataSource.apply(.build(["S"], [["x"]]))
        let gate = DispatchSemaphore(value: 0)
        harness.queue.async { gate.wait() }
        let group = DispatchGroup()
        for item in ["a", "b"] {
            var snapshot = dataSource.snapshot()
            snapshot.appendItems([item])
            group.enter()
            dataSource.apply(snapshot) { group.leave() }
        }
        gate.signal()
        await group.finished()
        #expect(dataSource.snapshot().itemIdentifiers == ["x", "b"])  // "a" was lost

        harness.queue.async { gate.wait() }
        async let first: Void = dataSource.update { $0.appendItems(["c"]) }
        async let second: Void = dataSource.update { $0.appendItems(["d"]) }
        gate.signal()
        _ = await (first, second)
        let items = dataSource.snapshot().itemIdentifiers
        #expect(items.count == 4 && Set(items) == ["x", "b", "c", "d"])
        #expect(harness.problem() == nil)
    }

    /// The closure receives the snapshot of an apply still queued behind a busy view, and
    /// its result is applied after it.
    @Test func anUpdateSeesAppliesStillQueued() async {
        let harness = Harness()
        let dataSource = harness.dataSource
        await dataSource.apply(.build(["S"], [["x"]]))
        let gate = DispatchSemaphore(value: 0)
        harness.queue.async { gate.wait() }
        let queued = Snapshot.build(["S", "T"], [["x", "y"], ["z"]])
        dataSource.apply(queued, completion: nil)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { gate.signal() }
        let seen = LockedValue<Snapshot?>(nil)
        await dataSource.update { snapshot in
            seen.value = snapshot
            snapshot.deleteItems(["y"])
        }
        #expect(seen.value == queued)
        #expect(dataSource.snapshot() == .build(["S", "T"], [["x"], ["z"]]))
        #expect(harness.problem() == nil)
    }

    struct Refused: Error, Equatable {}

    /// A closure that throws shows nothing and its error reaches the caller; a closure that
    /// cannot throw needs no `try`.
    @Test func aThrowingUpdateShowsNothing() async {
        let harness = Harness()
        let dataSource = harness.dataSource
        let start = Snapshot.build(["S"], [["x"]])
        await dataSource.apply(start)
        await #expect(throws: Refused.self) {
            try await dataSource.update { (snapshot: inout Snapshot) throws(Refused) in
                snapshot.appendItems(["y"])
                throw Refused()
            }
        }
        #expect(dataSource.snapshot() == start)
        await dataSource.update(animatingDifferences: false) { $0.appendItems(["z"]) }
        #expect(dataSource.snapshot() == .build(["S"], [["x", "z"]]))
        #expect(harness.problem() == nil)
    }
}

/// A value set by one closure and read after it ran (the data source orders the two).
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
