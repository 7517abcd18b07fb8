import Foundation

/// One change for a view that applies changes one at a time (a GTK list store's splice,
/// Android's `ListUpdateCallback`, a DOM list), as listed by ``SnapshotDifference/steps``
/// and ``BatchValidator/steps(for:oldCounts:newCounts:)``.
///
/// Steps are applied in order; every index is valid in the state left by the steps before it.
/// Inserts and refreshes name **final** positions (index paths of the new snapshot), so a view
/// asks its data source, already switched to the new state, what to show there.
public enum ListStep: Hashable, Sendable {
    /// Remove section `index` with every row it still holds.
    case deleteSection(Int)
    /// Insert section `index` of the new state with all of its rows, as the new state has them.
    case insertSection(Int)
    /// Remove the section at `from`, then insert it at `to` (an index in the list without it).
    case moveSection(from: Int, to: Int)
    /// Remove the row at the index path.
    case deleteItem(IndexPath)
    /// Insert the new state's row at the index path.
    case insertItem(IndexPath)
    /// Remove the row at `from`, then insert it at `to` (an index path in the state without it).
    case moveItem(from: IndexPath, to: IndexPath)
    /// Replace section `index` and all its rows with what the new state has there.
    case reloadSection(Int)
    /// Replace the row at the index path with a freshly made one.
    case reloadItem(IndexPath)
    /// Update the existing row at the index path in place.
    case reconfigureItem(IndexPath)
}

extension ListStep: CustomStringConvertible {
    /// e.g. `moveItem((0, 3)→(1, 0))`. - Complexity: O(1).
    public var description: String {
        switch self {
        case .deleteSection(let index): "deleteSection(\(index))"
        case .insertSection(let index): "insertSection(\(index))"
        case .moveSection(let from, let to): "moveSection(\(from)→\(to))"
        case .deleteItem(let path): "deleteItem\(BatchUpdate.show(path))"
        case .insertItem(let path): "insertItem\(BatchUpdate.show(path))"
        case .moveItem(let from, let to): "moveItem(\(BatchUpdate.show(from))→\(BatchUpdate.show(to)))"
        case .reloadSection(let index): "reloadSection(\(index))"
        case .reloadItem(let path): "reloadItem\(BatchUpdate.show(path))"
        case .reconfigureItem(let path): "reconfigureItem\(BatchUpdate.show(path))"
        }
    }
}
