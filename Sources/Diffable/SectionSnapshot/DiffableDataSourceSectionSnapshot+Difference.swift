extension DiffableDataSourceSectionSnapshot {
    /// The difference that turns the rows `other` shows into the rows this outline shows:
    /// the ``visibleItems`` of both, as one-section snapshots (section `0`), diffed by the
    /// flat snapshot's engine into one batch a list view accepts.
    ///
    /// Expanding an item inserts its newly visible descendants after it; collapsing
    /// deletes them; a moved subtree moves its visible rows (the fewest moves: the rows
    /// off a longest increasing subsequence). Items that change only level or parent
    /// but keep their row order are not touched. Never traps.
    /// - Complexity: O(v) expected plus O(m log m) for the LIS, v being the visible rows
    ///   of both outlines and m the rows they share.
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
        visibleRows(inSection: section).difference(from: other.visibleRows(inSection: section))
    }

    /// A flat snapshot of one section holding the visible items, built from the stored
    /// keys (no identifier is hashed again).
    /// - Complexity: O(visible items) expected.
    func visibleRows<SectionIdentifierType: Hashable>(inSection section: SectionIdentifierType)
        -> DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    {
        let rows = DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>()
        let flat = rows.storage
        flat.insertSections([section], keys: [flat.sectionKey(section)], at: 0)
        var ids: [ItemIdentifierType] = [], keys: [UInt64] = []
        ids.reserveCapacity(storage.visibleCount)
        keys.reserveCapacity(ids.capacity)
        storage.appendVisible(ids: &ids, keys: &keys)
        do { try flat.reserveItems(ids.count) } catch { fatalError("section snapshot: \(error) (\(ids.count) visible items)") }
        var conflicts = [UInt8](repeating: 0, count: keys.count)
        if flat.itemTable.insertBatch(keys, firstSlot: 0, conflicts: &conflicts) == keys.count {
            flat.appendUnattachedItems(ids, keys: keys)
        } else {
            // Equal keys of different identifiers (hash collisions): one by one.
            flat.itemTable.removeAll()
            for (id, key) in zip(ids, keys) { _ = flat.addUnattachedItem(id, key: key) }
        }
        flat.attachItems(Array(0..<Int32(ids.count)), toSection: flat.sectionOrder[0], at: 0)
        return rows
    }
}
