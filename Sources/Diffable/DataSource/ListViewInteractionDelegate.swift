import Foundation

/// What the user did to a list's rows, as the view reports it: UIKit's `canMoveRowAt` and
/// `moveRowAt:to:` data-source calls, and a tap on an outline row's disclosure control.
///
/// The one place these calls are declared. Every ``ListViewDataSource`` is one (so a
/// ``ListView`` reports to its `dataSource`); ``DiffableDataSource`` implements all three
/// through its `reorderingHandlers` and `sectionSnapshotHandlers`. The defaults describe a list
/// the user cannot change: no row can be moved, and a disclosure tap does nothing.
///
/// A view makes these calls on the executor that drives it (``DiffableDataSource/executor``),
/// where its rows and the data source's state agree; ``DiffableDataSource`` traps, after a
/// ``DiffableDiagnostics`` event, in debug and release builds alike, when one comes from
/// elsewhere. Code that plays the user from another thread hops first, with
/// ``ViewExecutor/run(_:)`` or ``ViewExecutor/runAndWait(_:)``, and
/// ``DiffableDataSource/waitForApplies()`` waits for the apply a tap starts.
/// `DiffableTesting`'s `SimulatedListView` plays the user with `simulateReorder(from:to:)` and
/// `simulateTapDisclosure(at:)`.
public protocol ListViewInteractionDelegate: AnyObject {
    /// Whether the user may drag the row at `indexPath` (UIKit's `canMoveRowAt`). A view asks
    /// before it lets a drag start. Defaults to `false`.
    /// - Complexity: O(1) plus the handler's own work (``DiffableDataSource``: its `canReorderItem`).
    func canMoveItem(at indexPath: IndexPath) -> Bool

    /// The user dropped the row from `source` at `destination` (an index path in the list without
    /// the row, as UIKit reports). The view already shows the row there and performs no batch;
    /// when this returns, the data source answers the view's questions with the moved row in
    /// place. Only called for rows ``canMoveItem(at:)`` allows; the default traps, since it
    /// allows none.
    /// - Complexity: whatever the data source needs to record the move (``DiffableDataSource``:
    ///   O(size of the sections involved)).
    func moveItem(at source: IndexPath, to destination: IndexPath)

    /// The user tapped the disclosure control of the row at `indexPath` (expand or collapse it).
    /// ``DiffableDataSource`` then applies the changed outline, so the view gets an ordinary
    /// batch. Defaults to doing nothing (a list without outlines shows no disclosure controls).
    /// - Complexity: whatever the data source needs to expand or collapse the row.
    func toggleDisclosure(at indexPath: IndexPath)
}

extension ListViewInteractionDelegate {
    /// No row can be moved. - Complexity: O(1).
    public func canMoveItem(at indexPath: IndexPath) -> Bool { false }

    /// Traps: a delegate that allows no move cannot follow one. - Complexity: O(1).
    public func moveItem(at source: IndexPath, to destination: IndexPath) {
        preconditionFailure(
            "Diffable: \(type(of: self)) does not support moving items (canMoveItem(at:) is false), "
                + "but the view reported a move from \(Array(source)) to \(Array(destination))")
    }

    /// Nothing to expand or collapse. - Complexity: O(1).
    public func toggleDisclosure(at indexPath: IndexPath) {}
}
