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

    /// A flat form given whole (the visible rows of an outline).
    /// - Complexity: O(1).
    init(sectionKeys: [UInt64], sectionSlots: [Int32], itemKeys: [UInt64], itemSlots: [Int32], starts: [UInt32]) {
        (self.sectionKeys, self.sectionSlots, self.itemKeys, self.itemSlots, self.starts) = (
            sectionKeys, sectionSlots, itemKeys, itemSlots, starts
        )
    }

    /// - Parameter slots: whether to record each position's slot (needed to reach the
    ///   identifiers when keys are hashes; integer keys are the identifiers).
    /// - Complexity: O(n + s).
    init<S, I>(_ storage: SnapshotStorage<S, I>, slots: Bool) {
        let order = storage.sectionOrder
        sectionSlots = slots ? Array(order) : []
        sectionKeys = order.map { storage.sectionKeys[Int($0)] }
        var starts: [UInt32] = [0]
        starts.reserveCapacity(order.count + 1)
        var slotArray: [Int32] = []
        // Everything is read through borrowed buffers and written in place: no per-section
        // access check or retain, no per-element append (which checks capacity and
        // uniqueness). A 10^6-item snapshot is gathered in a few milliseconds.
        itemKeys = storage.sectionItems.withUnsafeBufferPointer { sectionItems in
            let total = order.reduce(0) { $0 + sectionItems[Int($1)].count }
            if slots {
                slotArray = [Int32](filling: total) { buffer, initialized in
                    for section in order {
                        sectionItems[Int(section)].withUnsafeBufferPointer { sectionSlots in
                            _ = UnsafeMutableBufferPointer(rebasing: buffer[initialized...]).initialize(fromContentsOf: sectionSlots)
                            initialized += sectionSlots.count
                        }
                    }
                }
            }
            return storage.itemKeys.withUnsafeBufferPointer { keys in
                [UInt64](filling: total) { buffer, initialized in
                    for section in order {
                        sectionItems[Int(section)].withUnsafeBufferPointer { sectionSlots in
                            for slot in sectionSlots {
                                buffer[initialized] = keys[Int(slot)]
                                initialized += 1
                            }
                        }
                        starts.append(UInt32(initialized))
                    }
                }
            }
        }
        itemSlots = slotArray
        self.starts = starts
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
