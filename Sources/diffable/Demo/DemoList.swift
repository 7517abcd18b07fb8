import Diffable
import DiffableTesting
import Foundation

/// A data source driving a strict headless list view, for the demo: each ``apply(_:_:)``
/// waits for the view, then prints the rows before and after and the batches between.
final class DemoList<Item: Hashable & Sendable> {
    typealias Snapshot = DiffableDataSourceSnapshot<String, Item>
    let view = SimulatedListView<String>(flavor: .table)
    let dataSource: DiffableDataSource<String, Item, String>
    let printer: DemoPrinter

    /// A list whose cells are `cell(item)`; `matchingByID` uses the data source's `id`
    /// matching (an unchanged `id` with a changed value is reconfigured in place).
    init(printer: DemoPrinter, cell: @escaping @Sendable (Item) -> String) {
        self.printer = printer
        dataSource = DiffableDataSource(view: view, executor: .queue(DispatchQueue(label: "demo.view"))) { _, item in cell(item) }
    }

    init(printer: DemoPrinter, matchingByID: Void, cell: @escaping @Sendable (Item) -> String)
    where Item: Identifiable, Item.ID: Sendable {
        self.printer = printer
        dataSource = DiffableDataSource(
            view: view, executor: .queue(DispatchQueue(label: "demo.view")), matchingItemsByID: .reconfigure
        ) { _, item in cell(item) }
    }

    /// Applies `snapshot`, waits until the view finished, and prints what changed on screen.
    func apply(_ step: String, _ snapshot: Snapshot) {
        let titlesBefore = dataSource.snapshot().sectionIdentifiers
        let before = view.rows, batchesBefore = view.performedBatches.count, reloadsBefore = view.reloadCount
        let done = DispatchSemaphore(value: 0)
        dataSource.apply(snapshot) { done.signal() }
        done.wait()
        print("  " + printer.bold("▸ " + step))
        if view.reloadCount > reloadsBefore {
            printer.rows("shown  ", titles: snapshot.sectionIdentifiers, rows: view.rows) { _ in .plain }
            print("  (first apply: reloadData(), no animation)\n")
            return
        }
        printer.update(
            titlesBefore: titlesBefore, before: before, titlesAfter: snapshot.sectionIdentifiers, after: view.rows,
            batches: Array(view.performedBatches[batchesBefore...]))
    }
}
