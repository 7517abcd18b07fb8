internal import CDiffCore

/// The flat form of a snapshot handed to the C core: keys in display order and
/// section starts, plus, when the keys are hashes, the slot of each position (to reach the
/// Swift identifiers) unless the slots run in display order (``itemSlotsRunInOrder``).
struct FlatSnapshot: Sendable {
    var sectionKeys: [UInt64]
    var sectionSlots: [Int32]
    var itemKeys: [UInt64]
    /// Each position's item slot when recorded; empty when ``itemSlotsRunInOrder``.
    var itemSlots: [Int32]
    var starts: [UInt32]
    /// Whether position `p` holds item slot `p` for every position (a snapshot built by
    /// appends), so that no slot list was made: ``materializedItemSlots`` makes it on demand.
    var itemSlotsRunInOrder = false
    /// Whether no two items share a key (known from the snapshot's table), so that a diff
    /// need not check this side's item keys for repeats.
    var itemKeysDistinct = false

    /// Each position's item slot: ``itemSlots``, or 0, 1, …, n − 1 made now when they run in order.
    /// - Complexity: O(1), or O(n) when the slots run in order.
    var materializedItemSlots: [Int32] {
        itemSlotsRunInOrder ? [Int32](consecutiveFrom: 0, count: itemKeys.count) : itemSlots
    }

    /// A flat form given whole (the visible rows of an outline).
    /// - Complexity: O(1).
    init(sectionKeys: [UInt64], sectionSlots: [Int32], itemKeys: [UInt64], itemSlots: [Int32], starts: [UInt32]) {
        (self.sectionKeys, self.sectionSlots, self.itemKeys, self.itemSlots, self.starts) = (
            sectionKeys, sectionSlots, itemKeys, itemSlots, starts
        )
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
