import Foundation

extension SnapshotDifference {
    /// The difference as ordered steps for a view that applies changes one at a time (GTK's
    /// list-store splice, Android's `ListUpdateCallback`, a DOM list): the same changes as
    /// ``batches``, each index valid in the state left by the steps before it.
    ///
    /// Order (docs/ALGORITHM.md, "Steps"; the C core lists them, so every language gets the same
    /// steps): item deletes, last first; section deletes, last first; section moves; section
    /// inserts at final indices; item moves; item inserts at final index paths; then the refresh
    /// batch's section reloads, item reloads and reconfigures at final positions. Every inserted or
    /// refreshed position is final, so a view asks the new snapshot (its data source) what to show
    /// there. Every move of the batch is one move step; an item leaving a deleted section or
    /// entering an inserted one is deleted and inserted, as in the batch.
    ///
    /// ```swift
    /// for step in new.difference(from: old).steps {
    ///     switch step {
    ///     case .deleteItem(let path): store.remove(at: offset(path))
    ///     case .insertItem(let path): store.insert(cell(new, path), at: offset(path))
    ///     …
    ///     }
    /// }
    /// ```
    /// - Complexity: O(s + k log k + r log r): s sections, k operations in the batches, r rows in
    ///   the sections that items move into or out of.
    public var steps: [ListStep] {
        let oldCounts = old.sectionIdentifiers.map { old.numberOfItems(inSection: $0) }
        let newCounts = new.sectionIdentifiers.map { new.numberOfItems(inSection: $0) }
        var steps: [ListStep] = []
        for batch in batches {
            do {
                // The diff's batches are valid by construction (DiffPropertyTests prove it); the
                // core checks only that they fit the counts.
                steps += try batch.steps(oldCounts: batch.isRefreshOnly ? newCounts : oldCounts, newCounts: newCounts)
            } catch {
                preconditionFailure("Diffable bug: the difference's batch \(batch) does not fit its snapshots: \(error)")
            }
        }
        return steps
    }
}
