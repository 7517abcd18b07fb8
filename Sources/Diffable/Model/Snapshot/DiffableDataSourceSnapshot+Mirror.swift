import Foundation

/// The sections of a snapshot as its storage holds them (by section slot), without its items:
/// what a snapshot of other identifiers laid out the same way (the snapshot of the `id`s of
/// values matched by `id`, which checks them for repeats) takes over. The arrays are shared
/// with the storage, not copied.
struct SectionLayout<S: Hashable> {
    /// Section slots in display order.
    let order: ContiguousArray<Int32>
    /// Identifier, key and item slots by section slot.
    let ids: ContiguousArray<S>
    let keys: ContiguousArray<UInt64>
    let items: ContiguousArray<ContiguousArray<Int32>>

    /// - Complexity: O(1).
    init<I>(of storage: SnapshotStorage<S, I>) {
        (order, ids, keys, items) = (storage.sectionOrder, storage.sectionIDs, storage.sectionKeys, storage.sectionItems)
    }
}

extension DiffableDataSourceSnapshot {
    /// A snapshot with `layout`'s sections, in its order and under the keys it stored them
    /// with (no section is keyed again or checked for repeats: a snapshot's sections are
    /// distinct), each holding as many of `items` as it holds items, in order; its item slots
    /// follow display order. Nil, reporting nothing, when two of `items` share a key (a
    /// repeated identifier, or a collision), when an identifier's hash value is not the one it
    /// was stored under, or when memory runs out: `init(validating:)` then says what is wrong.
    /// - Complexity: O(n + s) expected.
    // Pre-specialized as `init(validating:)` is: the data source checks the `id`s of values
    // matched by `id` through it, from code generic over the identifier types.
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == UUID)
    init?(sectionsOf layout: SectionLayout<SectionIdentifierType>, holding items: [ItemIdentifierType]) {
        self.init()
        var sections: [SectionIdentifierType] = [], keys: [UInt64] = [], itemCount = 0
        sections.reserveCapacity(layout.order.count)
        keys.reserveCapacity(layout.order.count)
        for slot in layout.order {
            sections.append(layout.ids[Int(slot)])
            keys.append(layout.keys[Int(slot)])
            itemCount += layout.items[Int(slot)].count
        }
        precondition(itemCount == items.count, "Diffable: \(items.count) items for sections holding \(itemCount)")
        do {
            try storage.reserveSections(sections.count)
            try storage.reserveItems(items.count)
        } catch { return nil }
        storage.insertSections(sections, keys: keys, at: 0)
        guard storage.appendItemsWithDistinctKeys(items, keys: storage.itemKeys(of: items)) else { return nil }
        storage.attachSlotsInOrder(counts: layout.order.lazy.map { layout.items[Int($0)].count })
        if storage.hashesNeedChecking {
            let (sectionMismatches, itemMismatches) = storage.hashMismatches()
            if !sectionMismatches.isEmpty || !itemMismatches.isEmpty { return nil }
        }
        checkInvariants()
    }
}
