extension SnapshotDifference {
    /// The difference the engine's result describes between the snapshots `old` and `new`
    /// (which may be made on request), whose flat forms were diffed.
    /// - Complexity: O(section operations); the item paths and maps are shared, not copied.
    init(old: Side, new: Side, result: SectionsDiffResult, oldFlat: FlatSnapshot, newFlat: FlatSnapshot) {
        self.init(
            old: old, new: new, batches: BatchUpdate.batches(of: result), oldItemToNew: result.oldItemToNew,
            newItemToOld: result.newItemToOld,
            itemsInPlace: result.itemsInPlace, oldSectionToNew: result.oldSectionToNew, newSectionToOld: result.newSectionToOld,
            oldStarts: oldFlat.starts, newStarts: newFlat.starts)
    }
}

extension BatchUpdate {
    /// The engine result's batches: the structural one, then the refresh one (each if any).
    /// - Complexity: O(section operations); the item paths are shared, not copied.
    static func batches(of result: SectionsDiffResult) -> [BatchUpdate] {
        let paths = PackedIndexPaths(result.paths)
        var batches: [BatchUpdate] = []
        if let structural = result.structural { batches.append(BatchUpdate(structural, paths: paths)) }
        if let refresh = result.refresh { batches.append(BatchUpdate(refresh, paths: paths)) }
        return batches
    }

    /// One batch of the engine's result, its item lists left packed in `paths`.
    /// - Complexity: O(section operations).
    init(_ batch: SectionsDiffResult.Batch, paths: PackedIndexPaths) {
        func list(_ range: Range<Int>) -> ItemPathList { range.isEmpty ? .indexPaths([]) : .packed(paths, range) }
        let items = batch.items
        self.init(
            deleteSections: batch.deleteSections, insertSections: batch.insertSections,
            // No zip for the usual batch without section moves (its map alone was about 120 instructions).
            moveSections: batch.moveSectionsFrom.isEmpty
                ? [] : zip(batch.moveSectionsFrom, batch.moveSectionsTo).map { SectionMove(from: $0, to: $1) },
            reloadSections: batch.reloadSections,
            deleteItems: list(items.delete), insertItems: list(items.insert),
            moveItems: items.moveFrom.isEmpty ? .moves([]) : .packed(paths, from: items.moveFrom, to: items.moveTo),
            reloadItems: list(items.reload), reconfigureItems: list(items.reconfigure))
    }
}
