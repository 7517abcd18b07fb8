extension DiffableDataSourceSectionSnapshot {
    /// The difference that turns the rows `other` shows into the rows this outline shows:
    /// the ``visibleItems`` of both, as one section (section `0`), diffed by the flat
    /// snapshot's engine into one batch a list view accepts.
    ///
    /// Expanding an item inserts its newly visible descendants after it; collapsing
    /// deletes them; a moved subtree moves its visible rows (the fewest moves: the rows
    /// off a longest increasing subsequence). Items that change only level or parent
    /// but keep their row order are not touched. Never traps.
    ///
    /// When the two outlines hold the same items in the same places and differ only in
    /// expansion (an expand or collapse of a copy), the rows are compared in one walk of
    /// both, without hashing. The difference's ``SnapshotDifference/old`` and
    /// ``SnapshotDifference/new`` snapshots of the visible rows are made on their first read.
    /// - Complexity: O(v) expected plus O(m log m) for the LIS, v being the visible rows
    ///   of both outlines and m the rows they share; O(n) with no hashing when only
    ///   expansion differs (n items).
    @_specialize(exported:true,where ItemIdentifierType == Int)
    @_specialize(exported:true,where ItemIdentifierType == String)
    public func difference(from other: Self) -> SnapshotDifference<Int, ItemIdentifierType> {
        difference(from: other, inSection: 0)
    }

    /// ``difference(from:)`` with the one section named `section` (as a data source that
    /// shows the outline in that section needs it).
    /// - Complexity: as ``difference(from:)``.
    public func difference<SectionIdentifierType: Hashable>(from other: Self, inSection section: SectionIdentifierType)
        -> SnapshotDifference<SectionIdentifierType, ItemIdentifierType>
    {
        let oldRows = other.storage.rows, newRows = storage.rows
        let oldSide = SnapshotDifference<SectionIdentifierType, ItemIdentifierType>.Side.onRequest(
            MadeOnRequest { oldRows.snapshot(inSection: section) })
        let newSide = SnapshotDifference<SectionIdentifierType, ItemIdentifierType>.Side.onRequest(
            MadeOnRequest { newRows.snapshot(inSection: section) })
        if newRows.hasSameItemsInSamePlaces(as: oldRows, injective: storage.items.strategy.isInjective) {
            return OutlineRows.expansionDifference(from: oldRows, to: newRows, old: oldSide, new: newSide)
        }
        return OutlineRows.difference(
            from: oldRows, to: newRows, inSection: section, injective: storage.items.strategy.isInjective, old: oldSide, new: newSide)
    }
}

extension DiffableDataSourceSectionSnapshot {
    /// The batches of ``difference(from:)`` for an outline shown in the section at `position`
    /// of a list: its item paths in that section. Other sections are not looked at, so a data
    /// source applying one outline diffs that section's rows only.
    /// - Complexity: as ``difference(from:)``, plus O(operations) to move the paths to `position`.
    func batches(from other: Self, inSectionAt position: Int) -> [BatchUpdate] {
        let batches = difference(from: other, inSection: 0).batches
        return position == 0 ? batches : batches.map { $0.movingItems(toSection: position) }
    }
}
