extension DiffableDataSourceSnapshot {
    /// The difference that turns `other` into this snapshot: one structural batch
    /// that a `UITableView`/`UICollectionView` accepts (minimal moves per section,
    /// cross-section moves kept where UIKit allows), then a refresh batch for this
    /// snapshot's reload/reconfigure requests. Never traps on any pair of snapshots; like
    /// Swift's own collections, it stops the process only when memory is exhausted
    /// (``ListDiffer`` throws instead, for callers that must survive that).
    ///
    /// The result is exactly the one ALGORITHM.md specifies, identical in every
    /// language that passes the cross-language fixtures (docs/FIXTURES.md).
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS over the k matched items.
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == String)
    public func difference(from other: Self) -> SnapshotDifference<SectionIdentifierType, ItemIdentifierType> {
        DiffContextPool.shared.withContext { $0.diffSnapshots(old: other, new: self) }
    }
}
