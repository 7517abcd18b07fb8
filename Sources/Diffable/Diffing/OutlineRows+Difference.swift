extension OutlineRows {
    /// Whether `other` holds the same items at the same positions with the same subtree
    /// sizes (so the same tree: only expansion may differ), and every identifier is equal
    /// to its counterpart (an identifier unequal to itself, `Double.nan`, is a delete and
    /// an insert to the flat engine, so such outlines take its path).
    /// - Complexity: O(1) when the arrays are shared (one is a copy of the other whose
    ///   structure was not changed); otherwise O(n), one sequential pass.
    func hasSameItemsInSamePlaces(as other: Self, injective: Bool) -> Bool {
        guard count == other.count, sizes == other.sizes, keys == other.keys else { return false }
        if injective { return true }
        return ids.withUnsafeBufferPointer { ids in
            other.ids.withUnsafeBufferPointer { otherIDs in
                for position in ids.indices where ids[position] != otherIDs[position] { return false }
                return true
            }
        }
    }

    /// The difference between the rows of two outlines with the same items in the same
    /// places (see ``hasSameItemsInSamePlaces(as:injective:)``): rows visible only in `old`
    /// are deleted, rows visible only in `new` inserted, the rest kept in order (no moves),
    /// the batch the flat engine makes for them, found by walking the two lists of visible
    /// runs side by side.
    /// - Complexity: O(v) for v visible rows of both (a collapsed subtree is skipped in one step).
    static func expansionDifference<SectionIdentifierType: Hashable>(
        from old: Self, to new: Self,
        old oldSide: SnapshotDifference<SectionIdentifierType, Item>.Side,
        new newSide: SnapshotDifference<SectionIdentifierType, Item>.Side
    ) -> SnapshotDifference<SectionIdentifierType, Item> {
        let oldRuns = old.visibleRuns, newRuns = new.visibleRuns
        let oldCount = oldRuns.reduce(0) { $0 + $1.count }, newCount = newRuns.reduce(0) { $0 + $1.count }
        // The lists get their exact sizes first (one pass over the runs, not the rows): grown
        // by appends, how many allocations they took depended on the block sizes malloc
        // handed out, which vary with what the process freed before.
        var shared = 0
        forEachSegment(old: oldRuns, new: newRuns) { inOld, inNew, _, _, length in
            if inOld && inNew { shared += length }
        }
        var deletes: [PackedIndexPath] = [], inserts: [PackedIndexPath] = []
        deletes.reserveCapacity(oldCount - shared)
        inserts.reserveCapacity(newCount - shared)
        var newItemToOld: [Int32] = []
        let oldItemToNew = [Int32](filling: oldCount) { oldToNew, oldFilled in
            newItemToOld = [Int32](filling: newCount) { newToOld, newFilled in
                forEachSegment(old: oldRuns, new: newRuns) { inOld, inNew, oldRow, newRow, length in
                    if inOld && inNew {
                        for offset in 0..<length {
                            oldToNew[oldRow + offset] = Int32(newRow + offset)
                            newToOld[newRow + offset] = Int32(oldRow + offset)
                        }
                    } else if inOld {
                        for offset in 0..<length {
                            oldToNew[oldRow + offset] = -1
                            deletes.append(PackedIndexPath(section: 0, item: UInt32(oldRow + offset)))
                        }
                    } else {
                        for offset in 0..<length {
                            newToOld[newRow + offset] = -1
                            inserts.append(PackedIndexPath(section: 0, item: UInt32(newRow + offset)))
                        }
                    }
                }
                oldFilled = oldCount
                newFilled = newCount
            }
        }
        var batches: [BatchUpdate] = []
        if !deletes.isEmpty || !inserts.isEmpty {
            let paths = PackedIndexPaths(deletes + inserts)
            func list(_ range: Range<Int>) -> ItemPathList { range.isEmpty ? .indexPaths([]) : .packed(paths, range) }
            batches.append(
                BatchUpdate(
                    deleteSections: [], insertSections: [], moveSections: [], reloadSections: [],
                    deleteItems: list(0..<deletes.count), insertItems: list(deletes.count..<(deletes.count + inserts.count)),
                    moveItems: .moves([]), reloadItems: .indexPaths([]), reconfigureItems: .indexPaths([])))
        }
        return SnapshotDifference(
            old: oldSide, new: newSide, batches: batches, oldItemToNew: oldItemToNew, newItemToOld: newItemToOld,
            oldSectionToNew: [0], newSectionToOld: [0], oldStarts: [0, UInt32(oldCount)], newStarts: [0, UInt32(newCount)])
    }

    /// Walks the segments between consecutive run boundaries of either side, in order: each is
    /// visible in old only, in new only, or in both. `body` gets whether the segment is visible
    /// on each side, the row it starts at on each side (the rows of a side it is not visible
    /// on: where the next visible one would be) and its length.
    /// - Complexity: O(old runs + new runs) plus `body`.
    private static func forEachSegment(
        old oldRuns: [Range<Int>], new newRuns: [Range<Int>],
        _ body: (_ inOld: Bool, _ inNew: Bool, _ oldRow: Int, _ newRow: Int, _ length: Int) -> Void
    ) {
        var oldRun = 0, newRun = 0, position = 0, oldRow = 0, newRow = 0
        while oldRun < oldRuns.count || newRun < newRuns.count {
            let oldRange = oldRun < oldRuns.count ? oldRuns[oldRun] : Int.max..<Int.max
            let newRange = newRun < newRuns.count ? newRuns[newRun] : Int.max..<Int.max
            position = max(position, min(oldRange.lowerBound, newRange.lowerBound))
            let inOld = oldRange.lowerBound <= position, inNew = newRange.lowerBound <= position
            let end = min(inOld ? oldRange.upperBound : oldRange.lowerBound, inNew ? newRange.upperBound : newRange.lowerBound)
            let length = end - position
            body(inOld, inNew, oldRow, newRow, length)
            if inOld { oldRow += length }
            if inNew { newRow += length }
            position = end
            if inOld && end == oldRange.upperBound { oldRun += 1 }
            if inNew && end == newRange.upperBound { newRun += 1 }
        }
    }

    /// The difference between the rows of any two outlines: their visible keys as one
    /// section each, diffed by the flat snapshot's engine (a warm pooled context), with
    /// no snapshot built.
    /// - Complexity: O(v) expected plus O(m log m) for the LIS over the m shared rows.
    static func difference<SectionIdentifierType: Hashable>(
        from old: Self, to new: Self, inSection section: SectionIdentifierType, injective: Bool,
        old oldSide: SnapshotDifference<SectionIdentifierType, Item>.Side,
        new newSide: SnapshotDifference<SectionIdentifierType, Item>.Side
    ) -> SnapshotDifference<SectionIdentifierType, Item> {
        let sectionStrategy = KeyStrategy.of(SectionIdentifierType.self)
        let sectionKeys = [sectionStrategy.key(section)], sections = [section], sectionSlots: [Int32] = [0]
        func flatForm(_ rows: Self) -> FlatSnapshot {
            let runs = rows.visibleRuns
            let keys = rows.visible(rows.keys, runs: runs)
            // Hashed keys are confirmed by `==` on the identifiers: reach them by outline position.
            return FlatSnapshot(
                sectionKeys: sectionKeys, sectionSlots: sectionSlots, itemKeys: keys,
                itemSlots: injective ? [] : rows.visiblePositions(runs: runs), starts: [0, UInt32(keys.count)])
        }
        let oldFlat = flatForm(old), newFlat = flatForm(new)
        let result = DiffContextPool.shared.withContext { context in
            old.ids.withUnsafeBufferPointer { oldIDs in
                new.ids.withUnsafeBufferPointer { newIDs in
                    sections.withUnsafeBufferPointer { sections in
                        context.diffSections(
                            old: oldFlat, new: newFlat, refresh: DiffContext.FlatRefresh(),
                            sections: (sections, sections, sectionStrategy.isInjective), items: (oldIDs, newIDs, injective))
                    }
                }
            }
        }
        return SnapshotDifference(old: oldSide, new: newSide, result: result, oldFlat: oldFlat, newFlat: newFlat)
    }
}
