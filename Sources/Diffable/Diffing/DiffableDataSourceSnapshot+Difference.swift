import Foundation

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
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == UUID)
    public func difference(from other: Self) -> SnapshotDifference<SectionIdentifierType, ItemIdentifierType> {
        DiffContextPool.shared.withContext { $0.diffSnapshots(old: other, new: self) }
    }
}

extension DiffableDataSourceSnapshot {
    /// The batches of ``difference(from:)`` alone: the engine's position maps are neither
    /// copied nor wrapped (what a data source performing the batches needs).
    /// - Complexity: as ``difference(from:)``, less the O(n) copy of the maps.
    func batches(from other: Self) -> [BatchUpdate] {
        DiffContextPool.shared.withContext { context in
            BatchUpdate.batches(of: context.diffSnapshots(old: other, new: self, maps: false).result)
        }
    }
}

extension DiffContext {
    /// The two-level diff of two snapshots (unique by construction, so the core
    /// skips duplicate validation).
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items.
    package func diffSnapshots<S, I>(old: DiffableDataSourceSnapshot<S, I>, new: DiffableDataSourceSnapshot<S, I>)
        -> SnapshotDifference<S, I>
    {
        let (result, oldFlat, newFlat) = diffSnapshots(old: old, new: new, maps: true)
        return SnapshotDifference(old: .snapshot(old), new: .snapshot(new), result: result, oldFlat: oldFlat, newFlat: newFlat)
    }

    /// The engine's result for two snapshots and the flat forms it was computed on; the
    /// position maps only when `maps` is set.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items.
    fileprivate func diffSnapshots<S, I>(old: DiffableDataSourceSnapshot<S, I>, new: DiffableDataSourceSnapshot<S, I>, maps: Bool)
        -> (result: SectionsDiffResult, oldFlat: FlatSnapshot, newFlat: FlatSnapshot)
    {
        let oldStorage = old.storage, newStorage = new.storage
        let hashedKeys = !oldStorage.sectionStrategy.isInjective || !oldStorage.items.strategy.isInjective
        let oldFlat = FlatSnapshot(oldStorage, slots: hashedKeys)
        let newFlat = FlatSnapshot(newStorage, slots: hashedKeys, sharingWith: oldFlat)
        let result = oldStorage.items.ids.withUnsafeBufferPointer { oldItemIDs in
            newStorage.items.ids.withUnsafeBufferPointer { newItemIDs in
                oldStorage.sectionIDs.withUnsafeBufferPointer { oldSectionIDs in
                    newStorage.sectionIDs.withUnsafeBufferPointer { newSectionIDs in
                        diffSections(
                            old: oldFlat, new: newFlat, refresh: FlatRefresh(newStorage, flat: newFlat),
                            sections: (oldSectionIDs, newSectionIDs, oldStorage.sectionStrategy.isInjective),
                            items: (oldItemIDs, newItemIDs, oldStorage.items.strategy.isInjective), maps: maps)
                    }
                }
            }
        }
        return (result, oldFlat, newFlat)
    }
}
