/// An `Identifiable` value that Diffable keys by its `id` alone: for snapshots of an app's
/// model values rather than of their ids.
///
/// Keyed by its `hashValue`, a model value would run `Hasher` over every field (a title's
/// characters included) each time it is added to a snapshot. A `KeyedByID` value is keyed as
/// its `id` is keyed on its own (XXH3 of a `UUID`'s bytes, an integer itself, …), so adding
/// one reads its `id` and nothing else:
///
/// ```swift
/// struct Song: Hashable, KeyedByID {
///     let id: UUID
///     var title: String
/// }
/// ```
///
/// A ``DiffableDataSource`` that matches values by `id`
/// (`init(view:executor:matchingItemsByID:cellProvider:)`) then needs no keys of its own:
/// the snapshot's keys are already the keys of the values' `id`s, so an apply hashes each
/// `id` once, not twice.
///
/// The contract: **equal values have equal `id`s**, as with the `==` Swift synthesizes for a
/// struct (it compares every stored property, `id` among them). A type whose `==` ignores
/// `id` must not adopt this protocol. Values that share an `id` but differ elsewhere (an
/// edited title) share a key: that costs one `==` where they meet, and they stay two
/// identifiers to a snapshot (a diff deletes one and inserts the other, as under `hashValue`;
/// matching by `id` turns the pair into a reconfigure).
///
/// The library computes the key itself, from the `id`, so no conformance can get it wrong. A
/// type that adopts both this protocol and ``IdentifierKeyConvertible`` is keyed by its `id`:
/// its `identifierKey` is not called.
public protocol KeyedByID: Identifiable, Hashable {}

extension KeyStrategy {
    /// Whether `type` conforms to ``KeyedByID``, kept per type (``TypeAnswerCache``).
    /// - Complexity: O(1) (``TypeAnswerCache/answer(for:)``).
    @usableFromInline
    static func isKeyedByID(_ type: Any.Type) -> Bool { keyedByIDTypes.answer(for: type) }

    private static let keyedByIDTypes = TypeAnswerCache { $0 is any KeyedByID.Type }

    /// The key of `value`, a ``KeyedByID`` whose conformance the caller has found (``of(_:)``):
    /// the key of its `id`. In code specialized for the type the cast folds away and the `id`'s
    /// key is inlined.
    /// - Complexity: O(1) for integer and `UUID` ids; otherwise what keying the `id` costs.
    @inlinable @inline(__always)
    static func idKey<T>(_ value: T) -> UInt64 {
        guard let keyed = T.self as? any KeyedByID.Type else {
            preconditionFailure("Diffable: \(T.self) is keyed as KeyedByID but does not conform")
        }
        return idKey(value, as: keyed)
    }

    /// ``idKey(_:)`` with the conformance opened. The `id` is read through a pointer, so the
    /// value's other fields are not copied (a `String` retained and released) to reach it.
    @inlinable @inline(__always)
    static func idKey<T, Keyed: KeyedByID>(_ value: T, as _: Keyed.Type) -> UInt64 {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: Keyed.self, capacity: 1) { of(Keyed.ID.self).key($0.pointee.id) } }
    }

    /// The keys of `values`, of a ``KeyedByID`` type, in order: their `id`s gathered, then
    /// keyed as an array of `id`s is (all `UUID`s in one call into the core).
    /// - Complexity: O(k) plus keying k `id`s.
    @inlinable
    static func idKeys<T>(_ values: [T]) -> [UInt64] {
        guard let keyed = T.self as? any KeyedByID.Type else {
            preconditionFailure("Diffable: \(T.self) is keyed as KeyedByID but does not conform")
        }
        return idKeys(values, as: keyed)
    }

    /// ``idKeys(_:)`` with the conformance opened.
    @inlinable
    static func idKeys<T, Keyed: KeyedByID>(_ values: [T], as _: Keyed.Type) -> [UInt64] {
        let values = unsafeBitCast(values, to: [Keyed].self)
        // Read through the buffer: only each `id` is copied, not the value around it.
        let ids = [Keyed.ID](filling: values.count) { ids, count in
            values.withUnsafeBufferPointer { values in
                for index in values.indices { ids.initializeElement(at: index, to: values[index].id) }
            }
            count = values.count
        }
        return of(Keyed.ID.self).keys(ids)
    }
}
