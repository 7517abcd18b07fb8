internal import CDiffCore
import Foundation

extension DiffContext {
    /// A snapshot's refresh requests as flat new positions (item) and section positions.
    struct FlatRefresh {
        var reloadItems: [UInt32] = []
        var reconfigureItems: [UInt32] = []
        var reloadSections: [UInt32] = []

        /// None (a side with no refresh requests).
        init() {}
    }

    /// The two-level diff of two flat forms (unique by construction, so the core skips
    /// duplicate validation, except for the new keys of a diff with a `decider` whose new
    /// side may repeat a key): the one call into the core's diff for flat snapshots, outlines
    /// and values matched by `id`. The identifiers are borrowed buffers, reached through the
    /// flat forms' slots, or by position where both sides' slots run in display order, valid
    /// for the whole call.
    ///
    /// Hashed keys first decide alone (``EqualityOracle/deferredMatch(injective:)``): every
    /// pair the core matched is then checked with `==` in one pass here (items by
    /// `itemEquality` when given: the caller's `==`, compiled where the type is known). Only
    /// when a pair differs, or one side's identifiers share a key, is the diff run again with
    /// each key match confirmed by a call as the core meets it (a hash collision: rare, and
    /// the answer the same). A call per match cost 45–65 instructions; a check in the pass, the
    /// comparison itself.
    /// With `maps` false the position maps are left in the context (the result's are empty):
    /// a caller that only performs the batches (the data source) copies nothing it drops.
    ///
    /// With a `decider` (values matched by `id`: the item keys are the `id`s' keys, the items
    /// values) the first diff checks the new side's keys for repeats (a repeat stops it) unless
    /// that side's table never shared a key (`FlatSnapshot.itemKeysDistinct`), and the
    /// decider, not `itemEquality`, checks the item matches while it marks what to refresh;
    /// the confirmed diff, after the decider's `beforeConfirming`, confirms each key match
    /// with its `sameID`.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items; twice
    ///   that when two different identifiers share a key.
    func diffSections<S: Equatable, I: Equatable>(
        old oldFlat: FlatSnapshot, new newFlat: FlatSnapshot, refresh: FlatRefresh,
        sections: (old: UnsafeBufferPointer<S>, new: UnsafeBufferPointer<S>, injective: Bool),
        items: (old: UnsafeBufferPointer<I>, new: UnsafeBufferPointer<I>, injective: Bool), itemEquality: ItemEquality? = nil,
        decider: RefreshDecider? = nil, maps: Bool = true
    ) -> SectionsDiffResult {
        // Where both sides' item slots run in display order (snapshots built by appends), a
        // position is its identifier's index: the checks of the pairs read no slot, and no
        // slot list is made. Otherwise each side's list, made for a side in order.
        let byPosition = oldFlat.itemSlotsRunInOrder && newFlat.itemSlotsRunInOrder
        let (oldSlotList, newSlotList) = byPosition ? ([], []) : (oldFlat.materializedItemSlots, newFlat.materializedItemSlots)
        if !sections.injective || !items.injective,
            let result = oldSlotList.withUnsafeBufferPointer({ oldItemSlots in
                newSlotList.withUnsafeBufferPointer { newItemSlots in
                    diffOnKeys(
                        old: oldFlat, new: newFlat, refresh: refresh, sections: sections, items: items, itemEquality: itemEquality,
                        decider: decider, slots: (oldItemSlots, newItemSlots, byPosition), maps: maps)
                }
            })
        {
            return result
        }
        decider?.beforeConfirming()
        // The confirming diff's callbacks reach identifiers through slot lists, made here for
        // sides in order (a hash collision or a repeated `id`: rare).
        let (oldSlots, newSlots) = byPosition ? (oldFlat.materializedItemSlots, newFlat.materializedItemSlots) : (oldSlotList, newSlotList)
        return oldSlots.withUnsafeBufferPointer { oldItemSlots in
            newSlots.withUnsafeBufferPointer { newItemSlots in
                oldFlat.sectionSlots.withUnsafeBufferPointer { oldSectionSlots in
                    newFlat.sectionSlots.withUnsafeBufferPointer { newSectionSlots in
                        let deciding = decider.map {
                            RefreshDecider.Context(
                                $0, old: items.old, oldSlots: oldItemSlots, new: items.new, newSlots: newItemSlots, slotsArePositions: false
                            )
                        }
                        return EqualityOracle.withMatch(
                            injective: sections.injective, old: sections.old, at: oldSectionSlots, new: sections.new, at: newSectionSlots
                        ) { sectionMatch in
                            EqualityOracle.withMatch(
                                injective: items.injective, old: items.old, at: oldItemSlots, new: items.new, at: newItemSlots,
                                equality: decider?.sameID ?? itemEquality
                            ) { itemMatch in
                                var result = dfc_sections_result()
                                let status = runDiff(
                                    old: oldFlat, new: newFlat, refresh, &sectionMatch, &itemMatch, flags: UInt32(DFC_DIFF_ASSUME_UNIQUE),
                                    deciding: deciding, &result)
                                // Snapshots are valid by construction: a failure here is a bug in Diffable or exhausted memory.
                                CoreError.require(status, "snapshot diff")
                                return resultOfDiff(result, old: oldFlat, new: newFlat, maps: maps)
                            }
                        }
                    }
                }
            }
        }
    }

    /// ``diffSections(old:new:refresh:sections:items:itemEquality:decider:maps:)``'s first
    /// diff, on keys alone, its matches then checked in one pass: the result, or nil when a
    /// pair differs or one side's identifiers share a key (the caller then confirms each key
    /// match). `slots` are the item slot lists, empty when `byPosition`.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items.
    private func diffOnKeys<S: Equatable, I: Equatable>(
        old oldFlat: FlatSnapshot, new newFlat: FlatSnapshot, refresh: FlatRefresh,
        sections: (old: UnsafeBufferPointer<S>, new: UnsafeBufferPointer<S>, injective: Bool),
        items: (old: UnsafeBufferPointer<I>, new: UnsafeBufferPointer<I>, injective: Bool), itemEquality: ItemEquality?,
        decider: RefreshDecider?, slots: (old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>, byPosition: Bool), maps: Bool
    ) -> SectionsDiffResult? {
        oldFlat.sectionSlots.withUnsafeBufferPointer { oldSectionSlots in
            newFlat.sectionSlots.withUnsafeBufferPointer { newSectionSlots in
                let deciding = decider.map {
                    RefreshDecider.Context(
                        $0, old: items.old, oldSlots: slots.old, new: items.new, newSlots: slots.new, slotsArePositions: slots.byPosition)
                }
                var sectionMatch = EqualityOracle.deferredMatch(injective: sections.injective)
                var itemMatch = EqualityOracle.deferredMatch(injective: items.injective)
                var result = dfc_sections_result()
                // The new keys validated when a decider checks the matches: `id`s
                // repeated in the new values share a key, which stops the diff (unless the
                // new side's keys are known distinct: then no `id` repeats). The
                // old `id`s are distinct (checked when they were new), though two may
                // share a key; the decider compares the `id`s of every pair keys
                // made, so such a pair stops the diff too (see `IdentifiableValues`).
                let flags = UInt32(decider == nil || newFlat.itemKeysDistinct ? DFC_DIFF_ASSUME_UNIQUE : DFC_DIFF_ASSUME_OLD_UNIQUE)
                let status = runDiff(
                    old: oldFlat, new: newFlat, refresh, &sectionMatch, &itemMatch, flags: flags, deciding: deciding, &result)
                if status == Int32(DFC_OK),
                    sections.injective
                        || EqualityOracle.matchesAreEqual(
                            old: sections.old, at: oldSectionSlots, new: sections.new, at: newSectionSlots,
                            newCount: newSectionSlots.count, newToOld: result.new_section_to_old),
                    items.injective || decider != nil
                        || EqualityOracle.matchesAreEqual(
                            old: items.old, at: slots.old, new: items.new, at: slots.new, newCount: newFlat.itemKeys.count,
                            slotsArePositions: slots.byPosition, newToOld: result.new_item_to_old, equality: itemEquality)
                {
                    return resultOfDiff(result, old: oldFlat, new: newFlat, maps: maps)
                }
                if let error = CoreError(status: status), error != .sharedKey {
                    CoreError.require(status, "snapshot diff")
                }
                return nil
            }
        }
    }

    /// The core call itself, with the match rules made; its status, and on success `result`
    /// filled (arrays owned by the context until its next diff). `deciding`, when given, is
    /// asked for refresh marks once the items are matched.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items.
    private func runDiff(
        old oldFlat: FlatSnapshot, new newFlat: FlatSnapshot, _ refresh: FlatRefresh, _ sectionMatch: inout dfc_match,
        _ itemMatch: inout dfc_match, flags: UInt32, deciding: RefreshDecider.Context?, _ result: inout dfc_sections_result
    ) -> Int32 {
        releaseHandedOverBuffers()
        return oldFlat.withCSnapshot { oldSnapshot in
            newFlat.withCSnapshot { newSnapshot in
                refresh.reloadItems.withUnsafeBufferPointer { reload in
                    refresh.reconfigureItems.withUnsafeBufferPointer { reconfigure in
                        refresh.reloadSections.withUnsafeBufferPointer { reloadSectionList in
                            var refresh = dfc_refresh(
                                reload_items: reload.baseAddress, reload_item_count: reload.count,
                                reconfigure_items: reconfigure.baseAddress, reconfigure_item_count: reconfigure.count,
                                reload_sections: reloadSectionList.baseAddress, reload_section_count: reloadSectionList.count)
                            guard var deciding else {
                                return dfc_diff_sections(
                                    raw, &oldSnapshot, &newSnapshot, &refresh, &sectionMatch, &itemMatch, flags, &result)
                            }
                            return withUnsafeMutablePointer(to: &deciding) { deciding in
                                dfc_diff_sections_deciding(
                                    raw, &oldSnapshot, &newSnapshot, &refresh, RefreshDecider.callback, UnsafeMutableRawPointer(deciding),
                                    &sectionMatch, &itemMatch, flags, &result)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The Swift result of a successful core diff.
    /// - Complexity: O(item operations + s), plus O(n) for the maps when `maps` is set.
    private func resultOfDiff(_ result: dfc_sections_result, old oldFlat: FlatSnapshot, new newFlat: FlatSnapshot, maps: Bool)
        -> SectionsDiffResult
    {
        // A context too large to be kept hands its item maps and paths over (no copy made
        // while its scratch is allocated); otherwise they are copied and it stays warm.
        let handOver = handsOverResults ? allocations : nil
        let lists = PathLists(structural: result.structural, refresh: result.refresh)
        // A valid batch without structural operations leaves every item where it was: the
        // item maps are the identity, not worth copying (2 × 4 MB at 10^6 items).
        let itemsInPlace = result.has_structural == 0
        let itemMaps = maps && !itemsInPlace
        let oldItems = itemMaps ? oldFlat.itemKeys.count : 0, newItems = itemMaps ? newFlat.itemKeys.count : 0
        let handedPaths = handOver.flatMap { Self.handedOver(lists, $0) }
        let handedOld = Self.handedOverMap(result.old_item_to_new, count: oldItems, from: handOver)
        let handedNew = Self.handedOverMap(result.new_item_to_old, count: newItems, from: handOver)
        // The rest is copied, the paths list after list (read in place: ``PathLists``), the
        // core's paths into `PackedIndexPath`s of the same layout.
        precondition(MemoryLayout<PackedIndexPath>.stride == MemoryLayout<dfc_index_path>.stride)
        var pathCount = 0
        let copiedRanges = lists.ranges { list in
            defer { pathCount += list.count }
            return pathCount..<(pathCount + list.count)
        }
        var copies = ResultCopies()
        let paths = copies.add(PackedIndexPath.self, count: handedPaths == nil ? pathCount : 0)
        let oldMap = copies.add(Int32.self, count: handedOld == nil ? oldItems : 0)
        let newMap = copies.add(Int32.self, count: handedNew == nil ? newItems : 0)
        let oldSectionMap = copies.add(Int32.self, count: maps ? oldFlat.sectionKeys.count : 0)
        let newSectionMap = copies.add(Int32.self, count: maps ? newFlat.sectionKeys.count : 0)
        copies.allocate()
        for index in 0..<PathLists.count where paths.count > 0 {
            let list = lists[index]
            copies.copy(list.pointer, count: list.count, into: paths, at: copiedRanges[index].lowerBound)
        }
        copies.copy(result.old_item_to_new, count: oldMap.count, into: oldMap)
        copies.copy(result.new_item_to_old, count: newMap.count, into: newMap)
        copies.copy(result.old_section_to_new, count: oldSectionMap.count, into: oldSectionMap)
        copies.copy(result.new_section_to_old, count: newSectionMap.count, into: newSectionMap)
        let ranges =
            handedPaths.map { (structural: $0.structural, refresh: $0.refresh) }
            ?? (structural: copiedRanges.structural, refresh: copiedRanges.refresh)
        return SectionsDiffResult(
            paths: handedPaths?.paths ?? copies.array(paths),
            structural: result.has_structural != 0 ? Self.batch(result.structural, items: ranges.structural) : nil,
            refresh: result.has_refresh != 0 ? Self.batch(result.refresh, items: ranges.refresh) : nil,
            itemsInPlace: itemsInPlace,
            oldItemToNew: handedOld ?? copies.array(oldMap),
            newItemToOld: handedNew ?? copies.array(newMap),
            oldSectionToNew: copies.array(oldSectionMap),
            newSectionToOld: copies.array(newSectionMap))
    }

    /// The item map of `count` entries at `pointer` as the block `allocations` hands over,
    /// or nil (nothing to hand over, or not a block of the context: the caller copies it).
    /// - Complexity: O(1) expected.
    private static func handedOverMap(_ pointer: UnsafePointer<Int32>?, count: Int, from allocations: ContextAllocations?)
        -> ResultArray<Int32>?
    {
        guard count > 0, let memory = allocations?.takeBlock(at: pointer, bytes: count * MemoryLayout<Int32>.stride) else {
            return nil
        }
        return ResultArray(memory, count: count)
    }

    /// A C batch: section lists copied into Swift arrays, item lists as the ranges given.
    /// - Complexity: O(section operations).
    private static func batch(_ batch: dfc_batch, items: SectionsDiffResult.ItemRanges) -> SectionsDiffResult.Batch {
        func ints(_ pointer: UnsafePointer<UInt32>?, _ count: Int) -> [Int] {
            count == 0 ? [] : UnsafeBufferPointer(start: pointer, count: count).map { Int($0) }
        }
        return SectionsDiffResult.Batch(
            deleteSections: ints(batch.delete_sections, batch.delete_section_count),
            insertSections: ints(batch.insert_sections, batch.insert_section_count),
            moveSectionsFrom: ints(batch.move_section_from, batch.move_section_count),
            moveSectionsTo: ints(batch.move_section_to, batch.move_section_count),
            reloadSections: ints(batch.reload_sections, batch.reload_section_count),
            items: items)
    }

    /// The context's block holding every non-empty list, taken from `allocations`, with each
    /// list's range in it (an empty list: an empty range); nil when the lists are not all in
    /// one block of the context, or all empty.
    /// - Complexity: O(1) (12 lists).
    private static func handedOver(_ lists: PathLists, _ allocations: ContextAllocations) -> (
        paths: ResultArray<PackedIndexPath>, structural: SectionsDiffResult.ItemRanges, refresh: SectionsDiffResult.ItemRanges
    )? {
        var lowest: UnsafePointer<dfc_index_path>?
        for index in 0..<PathLists.count {
            let list = lists[index]
            if list.count > 0, let pointer = list.pointer, lowest.map({ pointer < $0 }) ?? true { lowest = pointer }
        }
        guard let base = lowest, let size = allocations.blockSize(at: base) else { return nil }
        var fits = true, end = 0
        let ranges = lists.ranges { list in
            guard list.count > 0, let pointer = list.pointer else { return 0..<0 }
            let start = pointer - base
            if (start + list.count) * MemoryLayout<dfc_index_path>.stride > size { fits = false }
            end = Swift.max(end, start + list.count)
            return start..<(start + list.count)
        }
        guard fits, let memory = allocations.takeBlock(at: base, bytes: end * MemoryLayout<dfc_index_path>.stride) else { return nil }
        return (ResultArray(memory, count: end), ranges.structural, ranges.refresh)
    }

    /// The twelve item-path lists of a diff's two batches, in the order the C planner writes
    /// them (each batch's deletes, inserts, move sources, move destinations, reloads,
    /// reconfigures), read in place from the batches.
    private struct PathLists {
        static var count: Int { 12 }
        let structural: dfc_batch, refresh: dfc_batch

        /// The list at `index` (`0..<12`): its first path and its length.
        subscript(index: Int) -> (pointer: UnsafePointer<dfc_index_path>?, count: Int) {
            let batch = index < 6 ? structural : refresh
            switch index % 6 {
            case 0: return (batch.delete_items, batch.delete_item_count)
            case 1: return (batch.insert_items, batch.insert_item_count)
            case 2: return (batch.move_item_from, batch.move_item_count)
            case 3: return (batch.move_item_to, batch.move_item_count)
            case 4: return (batch.reload_items, batch.reload_item_count)
            default: return (batch.reconfigure_items, batch.reconfigure_item_count)
            }
        }

        /// Each list's range, `range(list)` called once a list in order, as both batches' ranges.
        func ranges(_ range: ((pointer: UnsafePointer<dfc_index_path>?, count: Int)) -> Range<Int>) -> Ranges {
            func batch(_ first: Int) -> SectionsDiffResult.ItemRanges {
                SectionsDiffResult.ItemRanges(
                    delete: range(self[first]), insert: range(self[first + 1]), moveFrom: range(self[first + 2]),
                    moveTo: range(self[first + 3]), reload: range(self[first + 4]), reconfigure: range(self[first + 5]))
            }
            let structural = batch(0)
            return Ranges(structural: structural, refresh: batch(6))
        }

        /// Both batches' ranges, readable by list index as well.
        struct Ranges {
            let structural: SectionsDiffResult.ItemRanges, refresh: SectionsDiffResult.ItemRanges

            /// The range of the list at `index` (`0..<12`).
            subscript(index: Int) -> Range<Int> {
                let ranges = index < 6 ? structural : refresh
                switch index % 6 {
                case 0: return ranges.delete
                case 1: return ranges.insert
                case 2: return ranges.moveFrom
                case 3: return ranges.moveTo
                case 4: return ranges.reload
                default: return ranges.reconfigure
                }
            }
        }
    }
}
