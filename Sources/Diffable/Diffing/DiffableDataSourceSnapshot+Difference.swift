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
    @inlinable
    public func difference(from other: Self) -> SnapshotDifference<SectionIdentifierType, ItemIdentifierType> {
        // The items' `==` made here, in the caller's module, where the identifier type is known.
        difference(from: other, itemEquality: ItemEquality.forIdentifiers(ItemIdentifierType.self))
    }

    /// ``difference(from:)`` with the caller's `==` of the items, when it confirms their matches.
    /// Called from the inlined wrapper, so its specializations check the types themselves (as
    /// the inner `appendItems(_:keys:toSection:)` does).
    @usableFromInline
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == UUID)
    func difference(from other: Self, itemEquality: ItemEquality?) -> SnapshotDifference<SectionIdentifierType, ItemIdentifierType> {
        let pool = DiffContextPool.shared, context = pool.borrow()
        defer { pool.giveBack(context) }
        return context.diffSnapshots(old: other, new: self, itemEquality: itemEquality)
    }
}

extension DiffableDataSourceSnapshot {
    /// The batches of ``difference(from:)`` alone: the engine's position maps are neither
    /// copied nor wrapped (what a data source performing the batches needs).
    /// - Complexity: as ``difference(from:)``, less the O(n) copy of the maps.
    // Pre-specialized: the data source calls it from code generic over its identifier types.
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == UUID)
    func batches(from other: Self) -> [BatchUpdate] {
        DiffContextPool.shared.withContext { context in
            BatchUpdate.batches(of: context.diffSnapshots(old: other, new: self, maps: false).result)
        }
    }
}

extension DiffContext {
    /// The batches from `old` to `new`, snapshots of values matched by `id`: the items'
    /// keys are their `id`s' (`oldFlat`, `newFlat`: their flat forms with those keys), a value
    /// and its old partner are the same item when their `id`s are equal, and `decider`
    /// checks that as it marks the values to refresh (see ``RefreshDecider``). `new`'s own
    /// refresh requests are kept. Matching by the values' own keys would take a changed value
    /// for a new item.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items; twice
    ///   that when two different `id`s share a key.
    func batches<S, I>(
        matchingByID old: DiffableDataSourceSnapshot<S, I>, flat oldFlat: FlatSnapshot, to new: DiffableDataSourceSnapshot<S, I>,
        flat newFlat: FlatSnapshot, decider: RefreshDecider
    ) -> [BatchUpdate] {
        BatchUpdate.batches(
            of: diffStorages(old.storage, new.storage, flat: (oldFlat, newFlat), itemsInjective: false, decider: decider, maps: false))
    }

    /// The two-level diff of two snapshots (unique by construction, so the core
    /// skips duplicate validation).
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items.
    package func diffSnapshots<S, I>(
        old: DiffableDataSourceSnapshot<S, I>, new: DiffableDataSourceSnapshot<S, I>, itemEquality: ItemEquality? = nil
    ) -> SnapshotDifference<S, I> {
        let (result, oldFlat, newFlat) = diffSnapshots(old: old, new: new, maps: true, itemEquality: itemEquality)
        return SnapshotDifference(old: .snapshot(old), new: .snapshot(new), result: result, oldFlat: oldFlat, newFlat: newFlat)
    }

    /// The engine's result for two snapshots and the flat forms it was computed on; the
    /// position maps only when `maps` is set.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items.
    fileprivate func diffSnapshots<S, I>(
        old: DiffableDataSourceSnapshot<S, I>, new: DiffableDataSourceSnapshot<S, I>, maps: Bool, itemEquality: ItemEquality? = nil
    ) -> (result: SectionsDiffResult, oldFlat: FlatSnapshot, newFlat: FlatSnapshot) {
        let oldStorage = old.storage, newStorage = new.storage
        let hashedKeys = !oldStorage.sectionStrategy.isInjective || !oldStorage.items.strategy.isInjective
        let oldFlat = FlatSnapshot(oldStorage, slots: hashedKeys)
        let newFlat = FlatSnapshot(newStorage, slots: hashedKeys, sharingWith: oldFlat)
        let result = diffStorages(
            oldStorage, newStorage, flat: (oldFlat, newFlat), itemsInjective: oldStorage.items.strategy.isInjective,
            itemEquality: itemEquality, maps: maps)
        return (result, oldFlat, newFlat)
    }

    /// The engine's result for two snapshots' storages, diffed on their flat forms `flat`
    /// (new's refresh requests kept), the identifiers borrowed in place.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items.
    private func diffStorages<S, I>(
        _ oldStorage: SnapshotStorage<S, I>, _ newStorage: SnapshotStorage<S, I>, flat: (old: FlatSnapshot, new: FlatSnapshot),
        itemsInjective: Bool, itemEquality: ItemEquality? = nil, decider: RefreshDecider? = nil, maps: Bool
    ) -> SectionsDiffResult {
        oldStorage.items.ids.withUnsafeBufferPointer { oldItemIDs in
            newStorage.items.ids.withUnsafeBufferPointer { newItemIDs in
                oldStorage.sectionIDs.withUnsafeBufferPointer { oldSectionIDs in
                    newStorage.sectionIDs.withUnsafeBufferPointer { newSectionIDs in
                        diffSections(
                            old: flat.old, new: flat.new, refresh: FlatRefresh(newStorage, flat: flat.new),
                            sections: (oldSectionIDs, newSectionIDs, oldStorage.sectionStrategy.isInjective),
                            items: (oldItemIDs, newItemIDs, itemsInjective), itemEquality: itemEquality, decider: decider, maps: maps)
                    }
                }
            }
        }
    }
}
