import Foundation

/// Who a view tells about what the user did to its rows: UIKit's `tableView(_:moveRowAt:to:)`
/// and `canMoveRowAt` data-source calls, and a tap on an outline row's disclosure control.
///
/// `DiffableTesting`'s `SimulatedListView` calls these from `simulateReorder(from:to:)` and
/// `simulateTapDisclosure(at:)`; a data source adopts it to support reordering handlers and
/// expandable sections.
public protocol ListViewInteractionDelegate: AnyObject {
    /// Whether the user may drag the row at `indexPath`. Defaults to `true`.
    /// - Complexity: O(1) plus the handler's own work.
    func canMoveItem(at indexPath: IndexPath) -> Bool

    /// The user dropped the row from `source` at `destination` (an index path in the list without
    /// it, as UIKit reports). The view already shows the row there; when this returns, the data
    /// source must answer the view's questions with the moved row in place.
    /// - Complexity: whatever the data source needs to record the move.
    func moveItem(at source: IndexPath, to destination: IndexPath)

    /// The user tapped the disclosure control of the row at `indexPath` (expand or collapse it).
    /// - Complexity: whatever the data source needs to expand or collapse the row.
    func toggleDisclosure(at indexPath: IndexPath)
}

extension ListViewInteractionDelegate {
    /// Every row can be moved. - Complexity: O(1).
    public func canMoveItem(at indexPath: IndexPath) -> Bool { true }
}
