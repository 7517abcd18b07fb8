import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// Cells whose content changes behind a kept identity, through the content-checking view:
/// a reconfigured row shows the new content, and an apply that moves rows and changes a
/// value in one go ends with every cell up to date.
@Suite struct SimulatedListViewContentTests {
    struct Reminder: Identifiable, Hashable, Sendable {
        var id: Int
        var title: String
        var isFavourite = false
    }

    static func snapshot(_ reminders: [Reminder]) -> DiffableDataSourceSnapshot<String, Reminder> {
        var snapshot = DiffableDataSourceSnapshot<String, Reminder>()
        snapshot.appendSections(["Today"])
        snapshot.appendItems(reminders, toSection: "Today")
        return snapshot
    }

    static func cell(_ reminder: Reminder) -> String { (reminder.isFavourite ? "★ " : "") + reminder.title }

    static let reminders = [Reminder(id: 1, title: "milk"), Reminder(id: 2, title: "call"), Reminder(id: 3, title: "rent")]

    /// A view showing `reminders` through a data source that matches them by id.
    static func loaded(_ reminders: [Reminder]) async -> (SimulatedListView<String>, DiffableDataSource<String, Reminder, String>) {
        let view = SimulatedListView<String>(policy: .record)
        let dataSource = DiffableDataSource<String, Reminder, String>(
            view: view, executor: .queue(DispatchQueue(label: "view")), matchingItemsByID: .reconfigure
        ) { _, reminder in Self.cell(reminder) }
        await dataSource.apply(Self.snapshot(reminders))
        return (view, dataSource)
    }

    @Test func aChangedValueIsReconfiguredInPlace() async {
        let (view, dataSource) = await Self.loaded(Self.reminders)
        var reminders = Self.reminders
        reminders[1].isFavourite = true
        await dataSource.apply(Self.snapshot(reminders))
        #expect(view.violations.isEmpty, "\(view.violations)")
        #expect(view.rows == [["milk", "★ call", "rent"]])
        #expect(view.performedBatches.last?.reconfigureItems == [IndexPath(item: 1, section: 0)])
    }

    @Test func movesAndAChangedValueInOneApplyEndUpToDate() async {
        let (view, dataSource) = await Self.loaded(Self.reminders)
        var reminders = Self.reminders
        reminders[1].isFavourite = true
        reminders.swapAt(0, 2)
        reminders.append(Reminder(id: 4, title: "gym"))
        await dataSource.apply(Self.snapshot(reminders))
        #expect(view.violations.isEmpty, "\(view.violations)")
        #expect(view.rows == [["rent", "★ call", "milk", "gym"]])
    }

    /// Answers from `rows`, which a test changes inside the `updates` closure.
    final class Rows: ListViewDataSource {
        var rows: [[String]]
        init(_ rows: [[String]]) { self.rows = rows }
        func numberOfSections() -> Int { rows.count }
        func numberOfItems(inSection section: Int) -> Int { rows[section].count }
        func cell(at indexPath: IndexPath) -> String { rows[indexPath.section][indexPath.item] }
        func supplementaryView(ofKind kind: String, at indexPath: IndexPath) -> String? { nil }
    }

    /// A changed value moved by the structural batch, in a section the same apply reloads: the
    /// refresh batch reloads the section, not the item, and that refreshes the stale row.
    @Test func aSectionReloadRefreshesItsStaleRows() async {
        let (view, dataSource) = await Self.loaded(Self.reminders)
        var reminders = Self.reminders
        reminders[0].isFavourite = true
        reminders.swapAt(0, 2)
        var snapshot = Self.snapshot(reminders)
        snapshot.reloadSections(["Today"])
        await dataSource.apply(snapshot)
        #expect(view.violations.isEmpty, "\(view.violations)")
        #expect(view.rows == [["rent", "call", "★ milk"]])
        #expect(view.performedBatches.last?.reloadSections == [0])
        #expect(view.performedBatches.last?.reconfigureItems.isEmpty == true)
    }

    @Test func staleRowsMustBeRefreshedByTheNextBatch() {
        let view = SimulatedListView<String>(policy: .record)
        let rows = Rows([["a", "b", "c"]])
        view.dataSource = rows
        view.reloadData()
        // A move whose moved value also changed: the view keeps showing "a" at its new place.
        let move = BatchUpdate(moveItems: [.init(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 0))])
        view.performBatchUpdates(move, animation: .automatic, updates: { rows.rows = [["b", "c", "A"]] }, completion: { _ in })
        #expect(view.violations.isEmpty && view.staleRows == [IndexPath(item: 2, section: 0)])
        #expect(view.rows == [["b", "c", "a"]])
        // The next batch is structural and leaves the row stale: cells that do not update.
        view.performBatchUpdates(BatchUpdate(), animation: .automatic, updates: {}, completion: { _ in })
        #expect(view.violations.map(\.rule) == ["V9"])
        #expect(view.violations.first?.message.contains("(0, 2)") == true)
    }

    @Test func aRefreshBatchMustLeaveNoStaleRow() {
        let view = SimulatedListView<String>(policy: .record)
        let rows = Rows([["a", "b"]])
        view.dataSource = rows
        view.reloadData()
        // Only reconfigured rows take new content in a refresh batch; "b" changed unannounced.
        let refresh = BatchUpdate(reconfigureItems: [IndexPath(item: 0, section: 0)])
        view.performBatchUpdates(refresh, animation: .none, updates: { rows.rows = [["A", "B"]] }, completion: { _ in })
        #expect(view.violations.map(\.rule) == ["V9"])
    }
}
