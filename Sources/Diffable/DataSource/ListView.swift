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
public protocol ListViewDataSource<Cell>: AnyObject {
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

    /// Whether the user may drag the item at `indexPath` to another place (UIKit's
    /// `canMoveItemAt`). The default is `false`.
    /// - Complexity: O(1) in ``DiffableDataSource`` plus its `canReorderItem` handler.
    func canMoveItem(at indexPath: IndexPath) -> Bool

    /// The user dragged the item at `source` to `destination` (its index path after the move;
    /// UIKit's `moveItemAt:to:`). The view already shows the row there: the data source only
    /// updates its state, and no batch follows. Only for items ``canMoveItem(at:)`` allows.
    /// - Complexity: O(size of the sections involved) in ``DiffableDataSource``.
    func moveItem(at source: IndexPath, to destination: IndexPath)
}

extension ListViewDataSource {
    /// No item can be moved. - Complexity: O(1).
    public func canMoveItem(at indexPath: IndexPath) -> Bool { false }

    /// Traps: a data source that allows no move cannot follow one.
    /// - Complexity: O(1).
    public func moveItem(at source: IndexPath, to destination: IndexPath) {
        preconditionFailure("Diffable: \(type(of: self)) does not support moving items (canMoveItem(at:) is false)")
    }
}

/// A list view that a ``DiffableDataSource`` can drive: UIKit's table and collection
/// views, reduced to the two calls a diffable data source makes.
///
/// The data source calls these only on its view executor (the main actor unless
/// configured otherwise), never concurrently.
///
/// A view that applies changes one at a time (a GTK list store, Android's
/// `ListUpdateCallback`, a DOM list) can implement ``performBatchUpdates(_:animation:updates:completion:)``
/// by calling `updates()` and then replaying ``SnapshotDifference`` steps, each index
/// valid at the moment it is applied.
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
