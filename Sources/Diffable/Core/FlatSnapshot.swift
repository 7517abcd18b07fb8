internal import CDiffCore

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
