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
/// the snapshot's keys are already the keys of the values' `id`s, so matching keys no `id`
/// again.
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
/// its `identifierKey` is not called. A type that is its own `id` (`var id: Self { self }`, as
/// enums often are) has no other key to take: it is keyed as if it did not adopt this protocol
/// (by its `identifierKey`, or its `hashValue`).
///
/// The data source's check that stored keys did not change (on every apply, for value types
/// that hold a reference, an array or a closure, through which an `id` could be computed) still
/// keys each `id` once more, as it keys every identifier of an app's type that could change.
public protocol KeyedByID: Identifiable, Hashable {}

extension KeyStrategy {
    /// Whether `type` is keyed by its `id`: it conforms to ``KeyedByID``, and following `id`
    /// types from it reaches a type that does not (`UUID`, an integer, an app's struct). A
    /// type that is its own `id` (`var id: Self { self }`, common for enums) or two whose `id`s
    /// lead to each other would key forever: such types are keyed as if they did not conform.
    /// - Complexity: O(length of the `id` chain); called once per type (``userStrategy(_:)``).
    static func isKeyedByID(_ type: Any.Type) -> Bool {
        var seen: Set<ObjectIdentifier> = []
        var current = type
        while let keyed = current as? any KeyedByID.Type {
            guard seen.insert(ObjectIdentifier(current)).inserted else { return false }
            current = idType(of: keyed)
        }
        return !seen.isEmpty
    }

    /// `Keyed.ID`.
    private static func idType<Keyed: KeyedByID>(of _: Keyed.Type) -> Any.Type { Keyed.ID.self }

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

    /// Writes the keys of `values`, of a ``KeyedByID`` type, to `keys[0..<values.count]`:
    /// their `id`s gathered into a temporary buffer, then keyed as the `id` type's own are
    /// (all `UUID`s in one call into the core).
    /// - Complexity: O(k) plus keying k `id`s.
    @inlinable
    static func writeIDKeys<T>(_ values: UnsafeBufferPointer<T>, to keys: UnsafeMutablePointer<UInt64>) {
        guard let keyed = T.self as? any KeyedByID.Type else {
            preconditionFailure("Diffable: \(T.self) is keyed as KeyedByID but does not conform")
        }
        writeIDKeys(values, as: keyed, to: keys)
    }

    /// ``writeIDKeys(_:to:)`` with the conformance opened.
    @inlinable
    static func writeIDKeys<T, Keyed: KeyedByID>(_ values: UnsafeBufferPointer<T>, as _: Keyed.Type, to keys: UnsafeMutablePointer<UInt64>)
    {
        guard let base = values.baseAddress, !values.isEmpty else { return }
        let keyedValues = UnsafeRawPointer(base).assumingMemoryBound(to: Keyed.self)
        withUnsafeTemporaryAllocation(of: Keyed.ID.self, capacity: values.count) { ids in
            // Read through the pointer: only each `id` is copied, not the value around it.
            for index in 0..<values.count { ids.initializeElement(at: index, to: keyedValues[index].id) }
            of(Keyed.ID.self).writeKeys(UnsafeBufferPointer(ids), to: keys)
            _ = ids.deinitialize()
        }
    }
}
