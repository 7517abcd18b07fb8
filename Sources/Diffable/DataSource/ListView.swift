import Foundation

/// How a view animates inserted, deleted and reloaded rows (UIKit's `UITableView.RowAnimation`).
///
/// Views that do not animate rows (a collection view, a headless view) ignore it.
public enum RowAnimation: Sendable, Hashable, CaseIterable {
    case fade, right, left, top, bottom, none, middle, automatic
}

/// The questions a list view asks its data source: UIKit's "three big questions"
/// (how many sections, how many items in a section, the cell at an index path)
/// plus the optional supplementary view (a section header or footer).
///
/// A ``ListView`` asks these and nothing else; ``DiffableDataSource`` answers them
/// from the state the view last committed (inside a batch's `updates` closure, the new state).
/// What the user does to the rows (a drag, a disclosure tap) the view reports to the same
/// object through the ``ListViewInteractionDelegate`` calls, which every data source has.
public protocol ListViewDataSource<Cell>: ListViewInteractionDelegate {
    /// What the view displays for one item.
    associatedtype Cell

    /// The number of sections. - Complexity: O(1) in ``DiffableDataSource``.
    func numberOfSections() -> Int
    /// The number of items in section `section`. - Complexity: O(1) in ``DiffableDataSource``.
    func numberOfItems(inSection section: Int) -> Int
    /// The cell for the item at `indexPath`. - Complexity: O(1) expected plus the cell provider.
    func cell(at indexPath: IndexPath) -> Cell
    /// A supplementary view (`kind` is e.g. `"header"`) for `indexPath`, or nil for none.
    /// - Complexity: O(1) plus the supplementary view provider.
    func supplementaryView(ofKind kind: String, at indexPath: IndexPath) -> Cell?
}

/// A list view that a ``DiffableDataSource`` can drive: UIKit's table and collection
/// views, reduced to the two calls a diffable data source makes.
///
/// The data source calls these only on its view executor (the main actor unless
/// configured otherwise), never concurrently.
///
/// **A view that applies changes one at a time** (a GTK list store, Android's
/// `ListUpdateCallback`, a DOM list, an array of rows) implements
/// ``performBatchUpdates(_:animation:updates:completion:)`` in four moves: capture its section
/// counts, call `updates()` (the data source switches to the new state), ask the new counts,
/// then turn the batch into ordered steps with
/// ``BatchValidator/steps(for:oldCounts:newCounts:)`` and apply each ``ListStep``: every
/// index is valid at the moment it is applied, and inserts and refreshes name positions of the
/// new state, so the view asks ``ListViewDataSource/cell(at:)`` for their content.
///
/// **What the user does** the view reports to its ``dataSource`` (every data source is a
/// ``ListViewInteractionDelegate``): before a drag starts, ask
/// ``ListViewInteractionDelegate/canMoveItem(at:)``; after the drop, show the row in its new
/// place and call ``ListViewInteractionDelegate/moveItem(at:to:)`` (no batch follows); on a
/// tap of an outline row's disclosure control call
/// ``ListViewInteractionDelegate/toggleDisclosure(at:)`` (the data source applies the expanded
/// or collapsed outline as an ordinary batch).
///
/// A complete example, a view that keeps its rows in an array, is in docs/DATA_SOURCE.md
/// ("Writing your own ListView"); it is compiled and run by the tests.
public protocol ListView<Cell>: AnyObject {
    /// What the view displays for one item; the data source's cell provider makes them.
    associatedtype Cell

    /// Who the view asks its questions. Set by the data source when it is created;
    /// implementations hold it weakly (the data source owns the view's contents, not the view).
    var dataSource: (any ListViewDataSource<Cell>)? { get set }

    /// Forgets everything shown and asks the data source afresh, without animation.
    /// - Complexity: whatever the view needs for the rows it shows.
    func reloadData()

    /// Applies one batch: the view captures its current counts, calls `updates` exactly once
    /// (inside it the data source switches to the new state; UIKit's rule B3), checks the batch
    /// against old and new counts, shows the change, then calls `completion` exactly once with
    /// `true` when the change finished (or `false` when it was cut short).
    ///
    /// A view that cannot accept the batch raises its own error (UIKit raises
    /// `NSInternalInconsistencyException`); ``DiffableDataSource`` only ever hands it batches
    /// that are valid against what it last committed.
    /// - Complexity: whatever the view needs for the changed rows.
    func performBatchUpdates(
        _ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void)
}
