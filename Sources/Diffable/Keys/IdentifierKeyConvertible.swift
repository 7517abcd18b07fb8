/// An identifier type that gives Diffable its own 64-bit key, in place of its `hashValue`.
///
/// Diffable stores every identifier with a 64-bit key and matches identifiers by key, each
/// match confirmed with `==`. Integers are their own keys and strings and UUIDs are hashed
/// with XXH3; any other `Hashable` type is keyed by its `hashValue`, a `Hasher` seeded, fed
/// and finalized per identifier (about 230 instructions, half of what building and diffing a
/// snapshot of `Int`s costs per item). A type that can say cheaply which of its values differ
/// adopts this protocol and is keyed by ``identifierKey`` instead:
///
/// ```swift
/// struct RowID: IdentifierKeyConvertible {
///     var feed: Int32, kind: Int32, serial: Int
///     var identifierKey: UInt64 { UInt64(bitPattern: Int64(serial)) ^ UInt64(UInt32(bitPattern: feed)) << 40 }
/// }
/// ```
///
/// The contract, which Diffable relies on and cannot verify in general:
/// - **Equal values have equal keys**: `a == b` implies `a.identifierKey == b.identifierKey`.
///   Equal values with different keys are two identifiers to a snapshot (it may then hold
///   both, and a diff deletes one and inserts the other). Debug builds check this among the
///   identifiers of each append (an equal pair with different keys traps, naming both).
/// - **A stored value's key does not change**: a value added to a snapshot keeps its key for as
///   long as the snapshot holds it (as `Hashable` asks of hash values). ``DiffableDataSource``
///   reports identifiers whose key changed (``DiffableDiagnostics/Event/Kind/inconsistentHashing``),
///   as it does for hash values, when the type can hold references.
/// - Unequal values may share a key: a shared key costs one `==` per lookup or match that
///   meets it, never a wrong result. The key needs no mixing: the identifier table spreads
///   keys itself, so a serial number is a good key; a constant key makes every lookup O(n).
///
/// Keys are per process, like hash values: they are not the canonical keys
/// (``IdentifierKey``) shared with the C core's and Python's readers.
///
/// A snapshot of an app's `Identifiable` model values keys them by their `id` with
/// ``KeyedByID`` instead, whose key the library makes itself.
public protocol IdentifierKeyConvertible: Hashable {
    /// The value's 64-bit key: equal for equal values, stable while a snapshot holds the value.
    /// - Complexity: should be O(1); it runs once per identifier added to a snapshot.
    var identifierKey: UInt64 { get }
}

extension IdentifierKeyConvertible where Self: Identifiable {
    /// The key of the value's `id`, as Diffable keys that `id` on its own: what an `Identifiable`
    /// type adopting this protocol without a key of its own was given before ``KeyedByID``.
    ///
    /// Deprecated: such a type adopts ``KeyedByID`` instead. Its values get the same keys, made by
    /// the library (so no override can get them wrong), and a data source matching them by `id`
    /// uses the snapshot's keys instead of keying every `id` again on each apply.
    /// - Complexity: O(1) for integer and `UUID` ids; otherwise what keying the `id` costs.
    @available(
        *, deprecated,
        message: "adopt KeyedByID instead of IdentifierKeyConvertible: the same key, and no id keyed twice when matching by id"
    )
    @inlinable @inline(__always)
    public var identifierKey: UInt64 {
        // A type that is its own `id` would key itself forever: its `hashValue` instead.
        ID.self == Self.self ? UInt64(bitPattern: Int64(hashValue)) : KeyStrategy.of(ID.self).key(id)
    }
}

extension KeyStrategy {
    /// The key of `value`, a ``IdentifierKeyConvertible`` whose conformance the caller has
    /// found (``of(_:)``): in code specialized for the type the cast folds away and the key
    /// is the type's own `identifierKey`, inlined.
    /// - Complexity: O(1) plus `identifierKey`.
    @inlinable @inline(__always)
    static func providedKey<T>(_ value: T) -> UInt64 {
        guard let keyed = T.self as? any IdentifierKeyConvertible.Type else {
            preconditionFailure("Diffable: \(T.self) is keyed as IdentifierKeyConvertible but does not conform")
        }
        return providedKey(value, as: keyed)
    }

    /// ``providedKey(_:)`` with the conformance opened.
    @inlinable @inline(__always)
    static func providedKey<T, Keyed: IdentifierKeyConvertible>(_ value: T, as _: Keyed.Type) -> UInt64 {
        reinterpret(value, as: Keyed.self).identifierKey
    }

    /// Writes the keys of `values`, of a ``IdentifierKeyConvertible`` type, to
    /// `keys[0..<values.count]`: each value's own `identifierKey`, in a loop (not `map` with a
    /// closure, which the optimizer left out of line, each value then copied, its references
    /// retained and released, to be passed to it). Debug builds check the contract among them
    /// (see ``checkProvidedKeys(_:_:)``).
    /// - Complexity: O(k), plus O(k) expected hashing in debug builds.
    @inlinable
    static func writeProvidedKeys<T>(_ values: UnsafeBufferPointer<T>, to keys: UnsafeMutablePointer<UInt64>) {
        guard let keyed = T.self as? any IdentifierKeyConvertible.Type else {
            preconditionFailure("Diffable: \(T.self) is keyed as IdentifierKeyConvertible but does not conform")
        }
        writeProvidedKeys(values, as: keyed, to: keys)
    }

    /// ``writeProvidedKeys(_:to:)`` with the conformance opened.
    @inlinable
    static func writeProvidedKeys<T, Keyed: IdentifierKeyConvertible>(
        _ values: UnsafeBufferPointer<T>, as _: Keyed.Type, to keys: UnsafeMutablePointer<UInt64>
    ) {
        guard let base = values.baseAddress, !values.isEmpty else { return }
        let keyed = UnsafeBufferPointer(start: UnsafeRawPointer(base).assumingMemoryBound(to: Keyed.self), count: values.count)
        for index in keyed.indices { (keys + index).initialize(to: keyed[index].identifierKey) }
        if _isDebugAssertConfiguration() { checkProvidedKeys(keyed, UnsafeBufferPointer(start: keys, count: keyed.count)) }
    }

    /// Traps when two equal values among `values` have different keys (the contract's first
    /// rule), naming both: a check debug builds make on every batch of keys.
    /// - Complexity: O(k) expected: each value hashed into a dictionary once.
    @inlinable
    static func checkProvidedKeys<Keyed: IdentifierKeyConvertible>(
        _ values: UnsafeBufferPointer<Keyed>, _ keys: UnsafeBufferPointer<UInt64>
    ) {
        var firstKey: [Keyed: UInt64] = Dictionary(minimumCapacity: values.count)
        for (value, key) in zip(values, keys) {
            let stored = firstKey[value, default: key]
            precondition(
                stored == key,
                "Diffable: \(Keyed.self) breaks IdentifierKeyConvertible's contract: \(String(reflecting: value)) has the key \(key), "
                    + "and an equal value among the same identifiers has the key \(stored); equal values must have equal keys")
            firstKey[value] = key
        }
    }
}
