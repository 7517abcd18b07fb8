/// What the core's two-level diff of two flat forms returns, in Swift types: the batches'
/// section lists, their item lists as ranges of one packed path array, and the position
/// maps. The Diffing layer makes a ``SnapshotDifference`` of it; nothing here knows the
/// snapshots.
struct SectionsDiffResult {
    /// Where each item list of one batch lies in ``paths``.
    struct ItemRanges {
        var delete: Range<Int>, insert: Range<Int>, moveFrom: Range<Int>, moveTo: Range<Int>
        var reload: Range<Int>, reconfigure: Range<Int>
    }

    /// One batch: section operations as positions, item operations as ranges of ``paths``.
    struct Batch {
        var deleteSections: [Int]
        var insertSections: [Int]
        /// Section moves as parallel lists of sources and destinations.
        var moveSectionsFrom: [Int], moveSectionsTo: [Int]
        var reloadSections: [Int]
        var items: ItemRanges
    }

    /// The item paths of both batches: the context's own block when handed over, else a copy.
    var paths: ResultArray<PackedIndexPath>
    /// The batch of inserts, deletes and moves, if the diff has any.
    var structural: Batch?
    /// The batch of reloads and reconfigures, if the diff has any.
    var refresh: Batch?
    /// Whether no item changed place (no structural batch): the item maps are then empty,
    /// standing for the identity.
    var itemsInPlace: Bool
    /// Position maps (-1: none); all empty when the caller asked for the batches alone.
    var oldItemToNew: ResultArray<Int32>, newItemToOld: ResultArray<Int32>
    var oldSectionToNew: ResultArray<Int32>, newSectionToOld: ResultArray<Int32>
}
