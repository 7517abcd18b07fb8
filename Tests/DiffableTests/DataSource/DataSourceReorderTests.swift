import Foundation
import Testing

@testable import Diffable

/// Reorder by drag: the view reports the move, the data source takes it into its snapshot
/// with the handlers around it, and later applies diff from the reordered state. The drags are
/// the strict simulated view's, which requires the data source to answer the moved rows.
@Suite struct DataSourceReorderTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>
    typealias Transaction = DiffableDataSourceTransaction<String, String>

    /// Transactions seen by the handlers, with the data source's snapshot at each call.
    final class Recorder: @unchecked Sendable {
        var will: [(Transaction, Snapshot)] = []
        var did: [(Transaction, Snapshot)] = []
    }

    private func harness() async -> (DataSourceHarness<String, String>, Recorder) {
        let harness = DataSourceHarness<String, String>(flavor: .table)
        let recorder = Recorder()
        let dataSource = harness.dataSource
        dataSource.reorderingHandlers = .init(
            canReorderItem: { $0 != "pinned" },
            willReorder: { [weak dataSource] in recorder.will.append(($0, dataSource!.snapshot())) },
            didReorder: { [weak dataSource] in recorder.did.append(($0, dataSource!.snapshot())) })
        await dataSource.apply(.build(["Todo", "Done"], [["pinned", "b", "c", "d"], ["e", "f"]]))
        return (harness, recorder)
    }

    @Test func dragWithinASection() async throws {
        let (harness, recorder) = await harness()
        let initial = harness.dataSource.snapshot()
        let moved = try harness.onView { try $0.simulateReorder(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 3, section: 0)) }
        #expect(moved)
        let final = Snapshot.build(["Todo", "Done"], [["pinned", "c", "d", "b"], ["e", "f"]])
        #expect(harness.dataSource.snapshot() == final)
        #expect(harness.onView(\.performedBatches).isEmpty)
        #expect(harness.problem() == nil)
        #expect(recorder.will.count == 1 && recorder.did.count == 1)
        let (transaction, before) = recorder.will[0]
        #expect(before == initial && recorder.did[0].1 == final)
        #expect(transaction.initialSnapshot == initial && transaction.finalSnapshot == final)
        #expect(
            Array(transaction.difference) == [
                .remove(offset: 1, element: "b", associatedWith: 3), .insert(offset: 3, element: "b", associatedWith: 1),
            ])
        #expect(initial.itemIdentifiers.applying(transaction.difference) == final.itemIdentifiers)
        #expect(transaction.sectionTransactions.map(\.sectionIdentifier) == ["Todo"])
        #expect(transaction.sectionTransactions[0].difference == transaction.difference)
    }

    @Test func dragAcrossSectionsThenApply() async throws {
        let (harness, recorder) = await harness()
        let initial = harness.dataSource.snapshot()
        try harness.onView { _ = try $0.simulateReorder(from: IndexPath(item: 2, section: 0), to: IndexPath(item: 1, section: 1)) }
        let final = Snapshot.build(["Todo", "Done"], [["pinned", "b", "d"], ["e", "c", "f"]])
        #expect(harness.dataSource.snapshot() == final)
        let transaction = recorder.did[0].0
        #expect(initial.itemIdentifiers.applying(transaction.difference) == final.itemIdentifiers)
        #expect(transaction.sectionTransactions.map(\.sectionIdentifier) == ["Todo", "Done"])
        #expect(Array(transaction.sectionTransactions[0].difference) == [.remove(offset: 2, element: "c", associatedWith: nil)])
        #expect(Array(transaction.sectionTransactions[1].difference) == [.insert(offset: 1, element: "c", associatedWith: nil)])
        #expect(harness.dataSource.itemIdentifier(for: IndexPath(item: 1, section: 1)) == "c")
        // The next apply diffs from what the view shows now.
        await harness.dataSource.apply(initial)
        #expect(harness.onView(\.performedBatches) == initial.difference(from: final).batches)
        #expect(harness.problem() == nil)
    }

    @Test func aPinnedItemCannotBeDragged() async throws {
        let (harness, recorder) = await harness()
        let initial = harness.dataSource.snapshot()
        #expect(try !harness.onView { try $0.simulateReorder(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 0)) })
        #expect(harness.dataSource.snapshot() == initial)
        #expect(recorder.will.isEmpty)
        harness.dataSource.reorderingHandlers = .init()
        #expect(try !harness.onView { try $0.simulateReorder(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 2, section: 0)) })
    }

    /// Matched by `id`, a reorder moves the `id` too: a later value change reconfigures the
    /// item where it now is.
    @Test func reorderThenChangeAValueMatchedByID() async throws {
        let harness = DataSourceHarness<String, Reminder>(matchingByID: .reconfigure)
        harness.dataSource.reorderingHandlers.canReorderItem = { _ in true }
        var reminders = DataSourceContentTests.reminders
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        try harness.onView { _ = try $0.simulateReorder(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 3, section: 0)) }
        reminders.append(reminders.removeFirst())
        #expect(harness.dataSource.snapshot().itemIdentifiers == reminders)
        reminders[3].isFavourite = true
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        #expect(harness.onView(\.performedBatches) == [BatchUpdate(reconfigureItems: [IndexPath(item: 3, section: 0)])])
        #expect(harness.problem() == nil)
    }
}
