import Diffable
import Foundation

extension SimulatedListView {
    /// Plays the user dragging the row at `source` to `destination` (an index path in the list
    /// without the row, as UIKit reports it): asks the interaction delegate (see
    /// ``interactionDelegate``) whether the row can
    /// move, shows it at `destination`, tells the delegate, and then requires the data source to
    /// answer exactly what the view shows.
    /// - Returns: false when there is neither an interaction delegate nor a data source, or it
    ///   refuses the move (the default ``ListViewInteractionDelegate/canMoveItem(at:)`` does).
    /// - Throws: U1 when `source` or `destination` is not a place in the list; V9 when the data
    ///   source does not answer the moved state afterwards (the view then shows the data source's state).
    /// - Complexity: O(n + s) questions to the data source.
    @discardableResult
    public func simulateReorder(from source: IndexPath, to destination: IndexPath) throws(Violation) -> Bool {
        requireExecutor("simulateReorder(from:to:)")
        try requireRow(source, in: "simulateReorder source")
        let sameSection = destination.count == 2 && destination.section == source.section
        try requireRow(destination, in: "simulateReorder destination", extra: sameSection ? 0 : 1)
        guard let delegate = interaction, delegate.canMoveItem(at: source) else { return false }
        var moved = rows
        moved[destination.section].insert(moved[source.section].remove(at: source.item), at: destination.item)
        rows = moved
        delegate.moveItem(at: source, to: destination)
        let answered = try answers()
        guard answered == moved else {
            rows = answered
            throw Violation(
                rule: "V9",
                message:
                    "after moving \(BatchValidator.show(source)) to \(BatchValidator.show(destination)) the view shows \(String(reflecting: moved)) but the data source answers \(String(reflecting: answered))"
            )
        }
        return true
    }

    /// Plays the user tapping the disclosure control of the row at `indexPath`: tells the
    /// interaction delegate (see ``interactionDelegate``), which expands or collapses it (typically by applying a snapshot).
    /// - Returns: false when there is neither an interaction delegate nor a data source.
    /// - Throws: U1 when `indexPath` is not a row of the list.
    /// - Complexity: O(1) plus the delegate's work.
    @discardableResult
    public func simulateTapDisclosure(at indexPath: IndexPath) throws(Violation) -> Bool {
        requireExecutor("simulateTapDisclosure(at:)")
        try requireRow(indexPath, in: "simulateTapDisclosure")
        guard let delegate = interaction else { return false }
        delegate.toggleDisclosure(at: indexPath)
        return true
    }

    /// Who hears about the user's drags and taps: ``interactionDelegate``, else the data source.
    var interaction: (any ListViewInteractionDelegate)? {
        interactionDelegate ?? dataSource
    }

    /// U1: `path` names a shown row (or, with `extra` 1, the slot just past a section's last row).
    private func requireRow(_ path: IndexPath, in operation: String, extra: Int = 0) throws(Violation) {
        guard path.count == 2 else {
            throw Violation(rule: "U1", message: "\(operation): malformed index path \(BatchValidator.show(path)), it needs 2 indices")
        }
        guard path.section >= 0, path.section < rows.count else {
            throw Violation(
                rule: "U1", message: "\(operation): index path \(BatchValidator.show(path)) is in no section, the view shows \(rows.count)")
        }
        guard path.item >= 0, path.item < rows[path.section].count + extra else {
            throw Violation(
                rule: "U1",
                message:
                    "\(operation): index path \(BatchValidator.show(path)) is past the end, section \(path.section) shows \(rows[path.section].count) rows"
            )
        }
    }
}
