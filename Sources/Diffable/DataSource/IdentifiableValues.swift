/// What matching `Identifiable` values by `id` asks of the values, compiled in the app's module
/// (where `Item` is known) and handed to the data source when it is created: read without it,
/// every `id` and every comparison of a value with its old one goes through `Item`'s witness
/// tables, each value copied through its value witness (a `String` field retained and released).
///
/// The closures are `let` fields of the matcher's own storage, called through it: a call
/// retains nothing. They capture nothing mutable, and ``sameID`` (a class, not `Sendable`)
/// is never changed after `init`, so the value is sendable.
@usableFromInline
struct IdentifiableValues<Item: Identifiable>: @unchecked Sendable {
    /// The `id`s of the values at `slots` of `values`, in order.
    @usableFromInline let ids: (UnsafeBufferPointer<Item>, UnsafeBufferPointer<Int32>) -> [Item.ID]
    /// The keys of those `id`s, as a snapshot of the `id`s keys them (read from the values in
    /// place, then keyed in one pass: all `UUID`s in one C call).
    @usableFromInline let idKeys: (UnsafeBufferPointer<Item>, UnsafeBufferPointer<Int32>) -> [UInt64]
    /// Sets `marks[j]` to `mark` for each matched new position `j` whose value differs (`!=`)
    /// from its old partner's; false as soon as a matched pair's `id`s differ (keys alone
    /// matched two `id`s). The loop runs here, specialized, with `!=` and `id` inlined.
    ///
    /// Every pair's `id`s are compared when the `id` keys are hashes: a value's `==` need not
    /// compare its `id`, and the old side's keys, checked for repeated `id`s but not for
    /// shared keys (after a load, a confirmed diff, a reorder), may hold two `id`s with one
    /// key. A refused pair is then what catches an `id` repeated in the new values.
    @usableFromInline let markChanged: (MatchedPairs, UnsafeMutablePointer<UInt8>, UInt8) -> Bool
    /// Whether matched values have equal `id`s: a key match confirmed by `id`.
    @usableFromInline let sameID: ItemEquality
    /// Whether a snapshot of the values already holds the keys of their `id`s (``KeyedByID``
    /// values): its own flat form is then the one matching by `id` needs, and ``idKeys`` is
    /// not called.
    @usableFromInline let keysAreIDKeys: Bool

    /// - Complexity: O(1).
    @inlinable
    init() where Item: Equatable {
        ids = { Self.ids(of: $0, at: $1) }
        idKeys = { KeyStrategy.of(Item.ID.self).keys(Self.ids(of: $0, at: $1)) }
        // Integer `id`s are their own keys: a key match is an `id` match. Two closures, not one
        // testing a captured flag per pair: that one cost 43 instructions a pair against 32.
        if KeyStrategy.of(Item.ID.self).isInjective {
            markChanged = { pairs, marks, mark in
                pairs.allPairs(as: Item.self) { new, old, position, _ in
                    if new.pointee != old.pointee { marks[position] = mark }
                    return true
                }
            }
        } else {
            markChanged = { pairs, marks, mark in
                pairs.allPairs(as: Item.self) { new, old, position, _ in
                    guard new.pointee.id == old.pointee.id else { return false }
                    if new.pointee != old.pointee { marks[position] = mark }
                    return true
                }
            }
        }
        sameID = ItemEquality { pairs in pairs.allPairs(as: Item.self) { new, old, _, _ in new.pointee.id == old.pointee.id } }
        keysAreIDKeys = KeyStrategy.of(Item.self) == .id
    }

    /// ``ids``' body.
    @inlinable
    static func ids(of values: UnsafeBufferPointer<Item>, at slots: UnsafeBufferPointer<Int32>) -> [Item.ID] {
        // Read through the pointer: only the `id` is copied, not the whole value (whose
        // other fields, a `String` say, would be retained and released per item).
        [Item.ID](filling: slots.count) { ids, initialized in
            guard let first = values.baseAddress, let into = ids.baseAddress else { return }
            for (index, slot) in slots.enumerated() { (into + index).initialize(to: (first + Int(slot)).pointee.id) }
            initialized = slots.count
        }
    }
}
