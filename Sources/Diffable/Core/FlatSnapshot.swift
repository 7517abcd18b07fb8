internal import CDiffCore

/// The flat form of a snapshot handed to the C core: keys in display order and
/// section starts, plus the slot of each position (to reach the Swift identifiers)
/// when the keys are hashes.
struct FlatSnapshot {
    var sectionKeys: [UInt64]
    var sectionSlots: [Int32]
    var itemKeys: [UInt64]
    var itemSlots: [Int32]
    var starts: [UInt32]

    /// - Parameter slots: whether to record each position's slot (needed to reach the
    ///   identifiers when keys are hashes; integer keys are the identifiers).
    /// - Complexity: O(n + s).
    init<S, I>(_ storage: SnapshotStorage<S, I>, slots: Bool) {
        let order = storage.sectionOrder
        sectionSlots = slots ? Array(order) : []
        sectionKeys = order.map { storage.sectionKeys[Int($0)] }
        itemKeys = []
        itemSlots = []
        itemKeys.reserveCapacity(storage.itemCount)
        if slots { itemSlots.reserveCapacity(storage.itemCount) }
        starts = [0]
        starts.reserveCapacity(order.count + 1)
        storage.itemKeys.withUnsafeBufferPointer { keys in
            for section in order {
                let sectionSlots = storage.sectionItems[Int(section)]
                if slots { itemSlots.append(contentsOf: sectionSlots) }
                for slot in sectionSlots { itemKeys.append(keys[Int(slot)]) }
                starts.append(UInt32(itemKeys.count))
            }
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
