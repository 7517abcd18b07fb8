/// What matching `Identifiable` values by `id` asks of the values, compiled in the app's module
/// (where `Item` is known) and handed to the data source when it is created: read without it,
/// every `id` and every comparison of a value with its old one goes through `Item`'s witness
/// tables, each value copied through its value witness (a `String` field retained and released).
///
/// The closures are `let` fields of the matcher's own storage, called through it: a call
/// retains nothing. They capture nothing either, so the value is sendable.
@usableFromInline
struct IdentifiableValues<Item: Identifiable>: @unchecked Sendable {
    /// The `id`s of the values at `slots` of `values`, in order; of every value, in order, when
    /// `slots` is nil.
    @usableFromInline let ids: (UnsafeBufferPointer<Item>, UnsafeBufferPointer<Int32>?) -> [Item.ID]
    /// Whether the values at the two addresses differ (`!=`).
    @usableFromInline let differ: (UnsafePointer<Item>, UnsafePointer<Item>) -> Bool
    /// The `id`s of the values at slots `s` of `new` that differ (`!=`) from `old[oldSlots[s]]`,
    /// in slot order; a negative `oldSlots[s]` (no old value) is skipped. The loop runs here,
    /// specialized, with `!=` inlined: in the matcher's generic code it cost about 22
    /// instructions an item besides the comparison, and each changed `id` an append to an
    /// array of a type looked up at run time.
    @usableFromInline let changedIDs: (UnsafeBufferPointer<Item>, UnsafeBufferPointer<Item>, UnsafeBufferPointer<Int32>) -> [Item.ID]

    /// - Complexity: O(1).
    @inlinable
    init() where Item: Equatable {
        ids = { values, slots in
            // Read through the pointer: only the `id` is copied, not the whole value (whose
            // other fields, a `String` say, would be retained and released per item).
            let count = slots?.count ?? values.count
            return [Item.ID](filling: count) { ids, initialized in
                guard count > 0 else { return }
                let first = values.baseAddress.unsafelyUnwrapped, into = ids.baseAddress.unsafelyUnwrapped
                if let slots {
                    for (index, slot) in slots.enumerated() { (into + index).initialize(to: (first + Int(slot)).pointee.id) }
                } else {
                    for index in 0..<count { (into + index).initialize(to: (first + index).pointee.id) }
                }
                initialized = count
            }
        }
        differ = { $0.pointee != $1.pointee }
        changedIDs = { new, old, oldSlots in
            var changed: [Item.ID] = []
            for slot in 0..<oldSlots.count {
                let oldSlot = Int(oldSlots[slot])
                if oldSlot >= 0 && new[slot] != old[oldSlot] { changed.append(new[slot].id) }
            }
            return changed
        }
    }
}
