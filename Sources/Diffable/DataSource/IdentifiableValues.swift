/// What matching `Identifiable` values by `id` asks of the values, compiled in the app's module
/// (where `Item` is known) and handed to the data source when it is created: read without it,
/// every `id` and every comparison of a value with its old one goes through `Item`'s witness
/// tables, each value copied through its value witness (a `String` field retained and released).
///
/// The closures are `let` fields of the matcher's own storage, called through it: a call
/// retains nothing. They capture nothing either, so the value is sendable.
@usableFromInline
struct IdentifiableValues<Item: Identifiable>: @unchecked Sendable {
    /// The `id`s of the values at `slots` of `values`, in order.
    @usableFromInline let ids: (UnsafeBufferPointer<Item>, UnsafeBufferPointer<Int32>) -> [Item.ID]
    /// Whether the values at the two addresses differ (`!=`).
    @usableFromInline let differ: (UnsafePointer<Item>, UnsafePointer<Item>) -> Bool

    /// - Complexity: O(1).
    @inlinable
    init() where Item: Equatable {
        ids = { values, slots in
            // Read through the pointer: only the `id` is copied, not the whole value (whose
            // other fields, a `String` say, would be retained and released per item).
            [Item.ID](filling: slots.count) { ids, initialized in
                for (index, slot) in slots.enumerated() {
                    (ids.baseAddress.unsafelyUnwrapped + index).initialize(
                        to: (values.baseAddress.unsafelyUnwrapped + Int(slot)).pointee.id)
                }
                initialized = slots.count
            }
        }
        differ = { $0.pointee != $1.pointee }
    }
}
