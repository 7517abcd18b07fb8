internal import CDiffCore
import Foundation

/// The flat form of a snapshot handed to the C core: keys in display order and
/// section starts, plus the slot of each position (to reach the Swift identifiers).
struct FlatSnapshot {
    var sectionKeys: [UInt64]
    var sectionSlots: [Int32]
    var itemKeys: [UInt64]
    var itemSlots: [Int32]
    var starts: [UInt32]

    /// - Complexity: O(n + s).
    init<S, I>(_ storage: SnapshotStorage<S, I>) {
        let order = storage.sectionOrder
        sectionSlots = Array(order)
        sectionKeys = order.map { storage.sectionKeys[Int($0)] }
        itemKeys = []
        itemSlots = []
        itemKeys.reserveCapacity(storage.itemCount)
        itemSlots.reserveCapacity(storage.itemCount)
        starts = [0]
        starts.reserveCapacity(order.count + 1)
        for section in order {
            let slots = storage.sectionItems[Int(section)]
            itemSlots.append(contentsOf: slots)
            for slot in slots { itemKeys.append(storage.itemKeys[Int(slot)]) }
            starts.append(UInt32(itemSlots.count))
        }
    }

    /// The C view of this snapshot (identity confirmed by the caller's match), valid inside `body`.
    /// - Complexity: O(1) plus `body`.
    func withCSnapshot<R>(_ body: (inout dfc_snapshot) -> R) -> R {
        sectionKeys.withUnsafeBufferPointer { sections in
            itemKeys.withUnsafeBufferPointer { items in
                starts.withUnsafeBufferPointer { starts in
                    var snapshot = dfc_snapshot(
                        sections: dfc_list(keys: sections.baseAddress, count: sections.count, bytes: nil, offsets: nil),
                        items: dfc_list(keys: items.baseAddress, count: items.count, bytes: nil, offsets: nil),
                        section_starts: starts.baseAddress)
                    return body(&snapshot)
                }
            }
        }
    }
}

/// Equality callbacks for identifiers whose keys are hashes: the C core asks,
/// Swift answers with `==` on the identifiers behind the two positions.
final class EqualityOracle {
    let equal: (Int32, UInt32, Int32, UInt32) -> Bool
    init(_ equal: @escaping (Int32, UInt32, Int32, UInt32) -> Bool) { self.equal = equal }

    /// Equality of the identifiers at flat positions of the two lists: position `i` of a
    /// side holds `identifiers[slots[i]]`. Compares in place through pointers: no copy,
    /// and no retain, of either identifier per call. The buffers must outlive the oracle.
    static func comparing<T: Equatable>(
        _ oldIDs: UnsafeBufferPointer<T>, at oldSlots: UnsafeBufferPointer<Int32>,
        with newIDs: UnsafeBufferPointer<T>, at newSlots: UnsafeBufferPointer<Int32>
    ) -> EqualityOracle {
        if T.self == String.self {
            // Strings are the common hashed identifier: compare them with String's own `==`
            // (specialized code borrows both sides; the generic path copies, and so retains).
            return specialized(
                UnsafeRawBufferPointer(oldIDs).bindMemory(to: String.self), oldSlots,
                UnsafeRawBufferPointer(newIDs).bindMemory(to: String.self), newSlots)
        }
        return specialized(oldIDs, oldSlots, newIDs, newSlots)
    }

    @inline(__always)
    private static func specialized<T: Equatable>(
        _ oldIDs: UnsafeBufferPointer<T>, _ oldSlots: UnsafeBufferPointer<Int32>,
        _ newIDs: UnsafeBufferPointer<T>, _ newSlots: UnsafeBufferPointer<Int32>
    ) -> EqualityOracle {
        let oldBase = oldIDs.baseAddress, newBase = newIDs.baseAddress
        return EqualityOracle { aSide, a, bSide, b in
            let left = aSide == Int32(DFC_SIDE_OLD) ? oldBase! + Int(oldSlots[Int(a)]) : newBase! + Int(newSlots[Int(a)])
            let right = bSide == Int32(DFC_SIDE_OLD) ? oldBase! + Int(oldSlots[Int(b)]) : newBase! + Int(newSlots[Int(b)])
            return left.pointee == right.pointee
        }
    }

    static let callback: dfc_equal_fn = { user, aSide, a, bSide, b in
        // The diff keeps the oracle alive; borrowing it here saves a retain/release per call.
        Unmanaged<EqualityOracle>.fromOpaque(user!)._withUnsafeGuaranteedRef { $0.equal(aSide, a, bSide, b) } ? 1 : 0
    }
}

extension DiffContext {
    /// The two-level diff of two snapshots (unique by construction, so the core
    /// skips duplicate validation).
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of matched items.
    func diffSnapshots<S, I>(old: DiffableDataSourceSnapshot<S, I>, new: DiffableDataSourceSnapshot<S, I>)
        -> SnapshotDifference<S, I>
    {
        let oldStorage = old.storage, newStorage = new.storage
        let oldFlat = FlatSnapshot(oldStorage), newFlat = FlatSnapshot(newStorage)
        // Identifiers are read through buffer pointers valid for the whole call:
        // the C core may ask for equality a million times, and no retain may happen per ask.
        return oldStorage.itemIDs.withUnsafeBufferPointer { oldItemIDs in
            newStorage.itemIDs.withUnsafeBufferPointer { newItemIDs in
                oldStorage.sectionIDs.withUnsafeBufferPointer { oldSectionIDs in
                    newStorage.sectionIDs.withUnsafeBufferPointer { newSectionIDs in
                        oldFlat.itemSlots.withUnsafeBufferPointer { oldItemSlots in
                            newFlat.itemSlots.withUnsafeBufferPointer { newItemSlots in
                                oldFlat.sectionSlots.withUnsafeBufferPointer { oldSectionSlots in
                                    newFlat.sectionSlots.withUnsafeBufferPointer { newSectionSlots in
                                        let itemOracle = EqualityOracle.comparing(
                                            oldItemIDs, at: oldItemSlots, with: newItemIDs, at: newItemSlots)
                                        let sectionOracle = EqualityOracle.comparing(
                                            oldSectionIDs, at: oldSectionSlots, with: newSectionIDs, at: newSectionSlots)
                                        return diffFlatSnapshots(
                                            old: old, new: new, oldFlat: oldFlat, newFlat: newFlat,
                                            sectionOracle: sectionOracle, itemOracle: itemOracle)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private func diffFlatSnapshots<S, I>(
        old: DiffableDataSourceSnapshot<S, I>, new: DiffableDataSourceSnapshot<S, I>,
        oldFlat: FlatSnapshot, newFlat: FlatSnapshot, sectionOracle: EqualityOracle, itemOracle: EqualityOracle
    ) -> SnapshotDifference<S, I> {
        let oldStorage = old.storage, newStorage = new.storage
        func match(_ injective: Bool, _ oracle: EqualityOracle) -> dfc_match {
            injective
                ? dfc_match(kind: Int32(DFC_MATCH_INJECTIVE), equal: nil, user_data: nil)
                : dfc_match(
                    kind: Int32(DFC_MATCH_CALLBACK), equal: EqualityOracle.callback,
                    user_data: Unmanaged.passUnretained(oracle).toOpaque())
        }
        var sectionMatch = match(oldStorage.sectionStrategy.isInjective, sectionOracle)
        var itemMatch = match(oldStorage.itemStrategy.isInjective, itemOracle)
        // Refresh requests as flat new positions.
        let reloadItems = newStorage.reloadedItems.compactMap { newStorage.itemSlot($0) }.map {
            UInt32(newStorage.flatIndex(ofItemSlot: $0))
        }
        let reconfigureItems = newStorage.reconfiguredItems.compactMap { newStorage.itemSlot($0) }.map {
            UInt32(newStorage.flatIndex(ofItemSlot: $0))
        }
        let reloadSections = newStorage.reloadedSections.compactMap { newStorage.sectionSlot($0) }.map {
            UInt32(newStorage.sectionPosition[Int($0)])
        }
        var result = dfc_sections_result()
        let status: Int32 = withExtendedLifetime((sectionOracle, itemOracle)) {
            oldFlat.withCSnapshot { oldSnapshot in
                newFlat.withCSnapshot { newSnapshot in
                    reloadItems.withUnsafeBufferPointer { reload in
                        reconfigureItems.withUnsafeBufferPointer { reconfigure in
                            reloadSections.withUnsafeBufferPointer { reloadSectionList in
                                var refresh = dfc_refresh(
                                    reload_items: reload.baseAddress, reload_item_count: reload.count,
                                    reconfigure_items: reconfigure.baseAddress, reconfigure_item_count: reconfigure.count,
                                    reload_sections: reloadSectionList.baseAddress, reload_section_count: reloadSectionList.count)
                                return dfc_diff_sections(
                                    raw, &oldSnapshot, &newSnapshot, &refresh, &sectionMatch, &itemMatch,
                                    UInt32(DFC_DIFF_ASSUME_UNIQUE), &result)
                            }
                        }
                    }
                }
            }
        }
        // Snapshots are valid by construction; a failure here is a bug in Diffable.
        precondition(status == Int32(DFC_OK), "Diffable: snapshot diff failed: \(CoreError(status: status))")
        var batches: [BatchUpdate] = []
        if result.has_structural != 0 { batches.append(BatchUpdate(result.structural)) }
        if result.has_refresh != 0 { batches.append(BatchUpdate(result.refresh)) }
        func copy(_ pointer: UnsafePointer<Int32>?, _ count: Int) -> [Int32] {
            count == 0 ? [] : Array(UnsafeBufferPointer(start: pointer, count: count))
        }
        return SnapshotDifference(
            old: old, new: new, batches: batches,
            oldItemToNew: copy(result.old_item_to_new, oldFlat.itemKeys.count),
            newItemToOld: copy(result.new_item_to_old, newFlat.itemKeys.count),
            oldSectionToNew: copy(result.old_section_to_new, oldFlat.sectionKeys.count),
            newSectionToOld: copy(result.new_section_to_old, newFlat.sectionKeys.count),
            oldStarts: oldFlat.starts, newStarts: newFlat.starts)
    }
}

extension BatchUpdate {
    /// Copies a C batch into Swift arrays.
    init(_ batch: dfc_batch) {
        func ints(_ pointer: UnsafePointer<UInt32>?, _ count: Int) -> [Int] {
            count == 0 ? [] : UnsafeBufferPointer(start: pointer, count: count).map { Int($0) }
        }
        func paths(_ pointer: UnsafePointer<dfc_index_path>?, _ count: Int) -> [IndexPath] {
            count == 0
                ? []
                : UnsafeBufferPointer(start: pointer, count: count).map {
                    IndexPath(item: Int($0.item), section: Int($0.section))
                }
        }
        self.init(
            deleteSections: ints(batch.delete_sections, batch.delete_section_count),
            insertSections: ints(batch.insert_sections, batch.insert_section_count),
            moveSections: zip(
                ints(batch.move_section_from, batch.move_section_count),
                ints(batch.move_section_to, batch.move_section_count)
            ).map { SectionMove(from: $0, to: $1) },
            reloadSections: ints(batch.reload_sections, batch.reload_section_count),
            deleteItems: paths(batch.delete_items, batch.delete_item_count),
            insertItems: paths(batch.insert_items, batch.insert_item_count),
            moveItems: zip(
                paths(batch.move_item_from, batch.move_item_count),
                paths(batch.move_item_to, batch.move_item_count)
            ).map { ItemMove(from: $0, to: $1) },
            reloadItems: paths(batch.reload_items, batch.reload_item_count),
            reconfigureItems: paths(batch.reconfigure_items, batch.reconfigure_item_count))
    }
}
