import Foundation
import Testing

@testable import Diffable

/// Apply semantics (docs/DATA_SOURCE.md), each through the strict simulated view.
@Suite struct DataSourceApplyTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>

    let old = Snapshot.build(["A", "B"], [["a1", "a2", "a3"], ["b1"]])
    let new = Snapshot.build(["B", "A", "C"], [["b1", "a3"], ["a1"], ["c1"]])

    @Test func firstApplyReloadsThenLaterAppliesPerformTheDiff() async {
        let harness = DataSourceHarness<String, String>()
        await harness.dataSource.apply(old)
        #expect(harness.onView(\.calls) == [.reloadData])
        await harness.dataSource.apply(new)
        #expect(harness.onView(\.calls) == [.reloadData] + new.difference(from: old).batches.map { .batch($0, .automatic) })
        #expect(harness.problem() == nil)
        #expect(harness.dataSource.snapshot() == new)
    }

    @Test func anEqualSnapshotPerformsNoBatchButCompletes() async {
        let harness = DataSourceHarness<String, String>()
        await harness.dataSource.apply(old)
        let copy = Snapshot.build(["A", "B"], [["a1", "a2", "a3"], ["b1"]])
        await harness.dataSource.apply(copy)
        await harness.dataSource.apply(harness.dataSource.snapshot())
        #expect(harness.onView(\.calls) == [.reloadData])
        // The same snapshot with a pending reconfigure is not "equal": it refreshes.
        var refreshed = copy
        refreshed.reconfigureItems(["a2"])
        await harness.dataSource.apply(refreshed)
        #expect(harness.onView(\.performedBatches) == [BatchUpdate(reconfigureItems: [IndexPath(item: 1, section: 0)])])
    }

    @Test func notAnimatingStillDiffsWithoutAnimation() async {
        let harness = DataSourceHarness<String, String>()
        await harness.dataSource.apply(old)
        await harness.dataSource.apply(new, animatingDifferences: false)
        harness.dataSource.defaultRowAnimation = .fade
        await harness.dataSource.apply(old)
        let animations = harness.onView(\.calls).compactMap { call -> RowAnimation? in
            if case .batch(_, let animation) = call { return animation }
            return nil
        }
        #expect(animations == [.none, .fade])
        #expect(harness.problem() == nil)
    }

    @Test func reloadsGoInTheRefreshBatchAndNeverIntoSnapshot() async {
        let harness = DataSourceHarness<String, String>()
        await harness.dataSource.apply(old)
        let plain = Snapshot.build(["A", "B"], [["a1", "a3"], ["b1", "b2"]])
        var next = plain
        next.reloadItems(["a1"])
        next.reconfigureItems(["b1"])
        await harness.dataSource.apply(next)
        let batches = harness.onView(\.performedBatches)
        #expect(batches.count == 2)
        #expect(
            batches.last == BatchUpdate(reloadItems: [IndexPath(item: 0, section: 0)], reconfigureItems: [IndexPath(item: 0, section: 1)]))
        let current = harness.dataSource.snapshot()
        #expect(current.reloadedItemIdentifiers.isEmpty && current.reconfiguredItemIdentifiers.isEmpty)
        #expect(current == plain)
        #expect(harness.problem() == nil)
    }

    @Test func reloadDataAppliesWithoutDiffing() async {
        let harness = DataSourceHarness<String, String>()
        await harness.dataSource.apply(old)
        await harness.dataSource.applySnapshotUsingReloadData(new)
        #expect(harness.onView(\.calls) == [.reloadData, .reloadData])
        #expect(harness.problem() == nil)
        // The next diff starts from the reloaded state.
        await harness.dataSource.apply(old)
        #expect(harness.onView(\.performedBatches) == old.difference(from: new).batches)
    }

    @Test func completionsRunOnceAfterTheViewFinished() async {
        let harness = DataSourceHarness<String, String>()
        harness.onView { $0.completionTiming = .deferred }
        await harness.dataSource.apply(old)  // reloadData finishes at once
        let ran = Counter()
        var next = new
        next.reconfigureItems(["a1"])  // two batches: structural, then refresh
        harness.onView { _ in harness.dataSource.apply(next) { ran.increment() } }
        #expect(harness.onView(\.performedBatches).count == 2)
        #expect(ran.value == 0)
        harness.onView { $0.finishAnimations() }
        #expect(ran.value == 1)
        harness.onView { $0.finishAnimations() }
        #expect(ran.value == 1)
    }

    @Test func applyOnTheExecutorIsSynchronous() {
        let harness = DataSourceHarness<String, String>()
        harness.onView { _ in
            harness.dataSource.apply(old, completion: nil)
            #expect(harness.dataSource.snapshot() == old)
            harness.dataSource.apply(new, completion: nil)
            #expect(harness.dataSource.snapshot() == new)
        }
        #expect(harness.problem() == nil)
    }

    @Test func queriesAnswerFromTheCommittedState() async {
        let harness = DataSourceHarness<String, String>()
        let dataSource = harness.dataSource
        #expect(dataSource.itemIdentifier(for: IndexPath(item: 0, section: 0)) == nil)
        await dataSource.apply(new)
        #expect(dataSource.itemIdentifier(for: IndexPath(item: 1, section: 0)) == "a3")
        #expect(dataSource.itemIdentifier(for: IndexPath(item: 2, section: 0)) == nil)
        #expect(dataSource.itemIdentifier(for: IndexPath(item: 0, section: 3)) == nil)
        #expect(dataSource.itemIdentifier(for: IndexPath(item: -1, section: 0)) == nil)
        #expect(dataSource.indexPath(for: "c1") == IndexPath(item: 0, section: 2))
        #expect(dataSource.indexPath(for: "a2") == nil)
        #expect(dataSource.sectionIdentifier(for: 1) == "A")
        #expect(dataSource.sectionIdentifier(for: 3) == nil)
        #expect(dataSource.index(for: "C") == 2)
        #expect(dataSource.index(for: "Z") == nil)
    }

    /// The default executor is the main queue (the main actor's): created and applied on the
    /// main actor the view is driven at once; an async apply from elsewhere hops there.
    @Test func theMainActorIsTheDefaultExecutor() async {
        let (view, dataSource) = await MainActor.run {
            let view = DataSourceHarness<String, String>.makeView(executor: .main)
            let dataSource = DiffableDataSource<String, String, TestCell<String, String>>(view: view) { _, item in .row(item) }
            DataSourceHarness.provideHeaders(dataSource)
            dataSource.apply(old, completion: nil)
            return (UncheckedBox(view), dataSource)
        }
        await dataSource.apply(new)
        let (calls, violations, rows) = await MainActor.run {
            (view.value.calls.count, view.value.violations, DataSourceHarness<String, String>.items(view.value))
        }
        #expect(calls == 1 + new.difference(from: old).batches.count)
        #expect(violations.isEmpty)
        #expect(rows == [["b1", "a3"], ["a1"], ["c1"]])
    }
}

/// A thread-safe counter for completion handlers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
    func decrement() { lock.withLock { count -= 1 } }
}

/// Carries a non-Sendable value across an isolation boundary the test controls.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
