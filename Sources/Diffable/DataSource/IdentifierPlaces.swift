import Foundation

/// For each item slot of `new`, the slot of the same `id` in `old`, or -1 when `old` lacks it:
/// the `id` half of matching values by `id` (``IdentifiableItemMatcher``), kept apart from the
/// values so that it can be pre-specialized for the common `id` types. The matcher is generic
/// over the app's value type, so called from it an `id` lookup would run the generic body
/// (each `id` copied through its value witness and compared through its witness table).
///
/// Each `id` is first compared with the one after the last found in `old` (between two
/// snapshots, most items follow the item they followed before); only on a miss is it looked
/// up in `old`'s table. An `id` occurs once in a snapshot, so an equal one there is the match.
/// - Complexity: O(n) expected: one comparison per item of `new`, plus one table lookup (by
///   the key it holds) per item that does not follow its predecessor's match.
@specialized(where S == Int, ID == UUID)
@specialized(where S == String, ID == UUID)
@specialized(where S == Int, ID == Int)
@specialized(where S == Int, ID == String)
@specialized(where S == String, ID == String)
func slotsOfItems<S: Hashable, ID: Hashable>(of new: SnapshotStorage<S, ID>, in old: SnapshotStorage<S, ID>) -> [Int32] {
    new.withItemKeys { keys in
        new.items.ids.withUnsafeBufferPointer { ids in
            old.items.ids.withUnsafeBufferPointer { oldIDs in
                [Int32](filling: ids.count) { slots, initialized in
                    var next = 0  // the old slot after the last match
                    for slot in 0..<ids.count {
                        let found =
                            next < oldIDs.count && oldIDs[next] == ids[slot] ? Int32(next) : old.itemSlot(ids[slot], key: keys[slot]) ?? -1
                        slots[slot] = found
                        if found >= 0 { next = Int(found) + 1 }
                    }
                    initialized = ids.count
                }
            }
        }
    }
}

extension SnapshotStorage {
    /// Whether the sections' slot lists, in display order, are exactly 0, 1, …, n − 1 (a
    /// snapshot built by appends): then an item's slot is its position counted across sections.
    /// - Complexity: O(n + s), stopping at the first slot out of order.
    var slotsFollowDisplayOrder: Bool {
        sectionItems.withUnsafeBufferPointer { FlatSnapshot.slotsRunInDisplayOrder(sectionOrder, $0, count: itemCount) }
    }
}
