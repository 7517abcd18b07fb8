internal import CDiffCore
import Foundation

/// How identifiers of one type become 64-bit keys. Chosen once per type, so the
/// per-identifier work is a switch, not a dynamic cast.
///
/// - Integers (all fixed widths) are their own key: injective, never confirmed.
/// - Strings: XXH3-64 (seed 0) of the NFC UTF-8 bytes, the cross-language key.
/// - UUIDs and byte arrays: XXH3-64 of their bytes.
/// - ``KeyedByID`` values: the key of their `id`.
/// - ``IdentifierKeyConvertible`` types: their own `identifierKey`.
/// - Every other `Hashable`: its `hashValue` (per process).
/// Hashed and provided keys may collide, so matches on them are confirmed with `==`.
///
/// Inlinable, with the key functions: an app's module then makes the keys of its own
/// identifier types in code specialized for them (its `hash(into:)` called directly, not
/// through a witness table), as it does for any standard collection.
@usableFromInline
enum KeyStrategy: Equatable {
    case int64, int32, int16, int8, uint64, uint32, uint16, uint8
    case string, uuid, bytes, id, provided, hashValue

    /// The strategy for identifiers of `type`.
    /// - Complexity: O(1).
    @inlinable
    static func of<T>(_ type: T.Type) -> KeyStrategy {
        builtIn(type) ?? userStrategy(type)
    }

    /// The strategy for `type` when it is one the library keys itself (integers, `String`,
    /// `UUID`, `[UInt8]`), whose `==` and hashing are the standard library's or Foundation's
    /// and so cannot call back into Diffable; nil for an app's own types.
    /// - Complexity: O(1); folds to a constant in code specialized for `T`.
    @inlinable
    static func builtIn<T>(_ type: T.Type) -> KeyStrategy? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int.self), ObjectIdentifier(Int64.self): .int64
        case ObjectIdentifier(Int32.self): .int32
        case ObjectIdentifier(Int16.self): .int16
        case ObjectIdentifier(Int8.self): .int8
        case ObjectIdentifier(UInt.self), ObjectIdentifier(UInt64.self): .uint64
        case ObjectIdentifier(UInt32.self): .uint32
        case ObjectIdentifier(UInt16.self): .uint16
        case ObjectIdentifier(UInt8.self): .uint8
        case ObjectIdentifier(String.self): .string
        case ObjectIdentifier(UUID.self): .uuid
        case ObjectIdentifier([UInt8].self): .bytes
        default: nil
        }
    }

    /// The strategy for an app's own `type`: ``KeyedByID`` (``id``), else
    /// ``IdentifierKeyConvertible`` (``provided``), else its `hashValue`. Kept per type
    /// (``TypeAnswerCache``, one entry for the whole choice): a cast costs a runtime lookup on
    /// every snapshot operation, in code that cannot decide it at compile time.
    /// - Complexity: O(1) (``TypeAnswerCache/choice(for:)``).
    @usableFromInline
    static func userStrategy(_ type: Any.Type) -> KeyStrategy {
        switch userStrategies.choice(for: type) {
        case 2: .id
        case 1: .provided
        default: .hashValue
        }
    }

    private static let userStrategies = TypeAnswerCache(choosing: { type in
        if isKeyedByID(type) { return 2 }
        return type is any IdentifierKeyConvertible.Type ? 1 : 0
    })

    /// Whether identifiers of `type`, keyed by this strategy, are their own keys: 8-byte
    /// integers whose bit pattern is the key, so that a key array beside them would repeat them.
    @inlinable
    func isOwnKey<T>(for type: T.Type) -> Bool {
        switch self {
        case .int64, .uint64: MemoryLayout<T>.stride == 8
        default: false
        }
    }

    /// Whether equal keys imply equal identifiers.
    @inlinable
    var isInjective: Bool {
        switch self {
        case .int64, .int32, .int16, .int8, .uint64, .uint32, .uint16, .uint8: true
        case .string, .uuid, .bytes, .id, .provided, .hashValue: false
        }
    }

    /// Whether the keys rest on the identifier type's own code (its `hashValue`, its
    /// `identifierKey`, or its `==` comparing its `id`), which may break the key contract;
    /// Diffable's own keys cannot.
    @inlinable
    var isUserKeyed: Bool { self == .hashValue || self == .provided || self == .id }

    /// The key of `value`, whose type must be the one this strategy was made for.
    /// - Complexity: O(1) for integers, hash values and provided keys; O(length) for strings and bytes.
    @inlinable @inline(__always)
    func key<T: Hashable>(_ value: T) -> UInt64 {
        switch self {
        case .int64: UInt64(bitPattern: Self.reinterpret(value, as: Int64.self))
        case .int32: UInt64(UInt32(bitPattern: Self.reinterpret(value, as: Int32.self)))
        case .int16: UInt64(UInt16(bitPattern: Self.reinterpret(value, as: Int16.self)))
        case .int8: UInt64(UInt8(bitPattern: Self.reinterpret(value, as: Int8.self)))
        case .uint64: Self.reinterpret(value, as: UInt64.self)
        case .uint32: UInt64(Self.reinterpret(value, as: UInt32.self))
        case .uint16: UInt64(Self.reinterpret(value, as: UInt16.self))
        case .uint8: UInt64(Self.reinterpret(value, as: UInt8.self))
        case .string: IdentifierKey.string(Self.reinterpret(value, as: String.self))
        case .uuid: IdentifierKey.uuid(Self.reinterpret(value, as: UUID.self))
        case .bytes: Self.reinterpret(value, as: [UInt8].self).withUnsafeBytes { IdentifierKey.bytes($0) }
        case .id: Self.idKey(value)
        case .provided: Self.providedKey(value)
        case .hashValue: Self.hashValueKey(value)
        }
    }

    /// The key of a value keyed by its `hashValue`: its bits.
    /// - Complexity: O(1) plus the value's `hash(into:)`.
    @inlinable @inline(__always)
    static func hashValueKey<T: Hashable>(_ value: T) -> UInt64 { UInt64(bitPattern: Int64(value.hashValue)) }

    /// The keys of many identifiers. 64-bit integers are their own keys: the array itself,
    /// reinterpreted (the same buffer, no copy).
    /// - Complexity: O(1) for 64-bit integers, else O(k) (plus string/byte lengths).
    @inlinable
    func keys<T: Hashable>(_ values: [T]) -> [UInt64] {
        if isOwnKey(for: T.self) { return unsafeBitCast(values, to: [UInt64].self) }
        // Strings reserve and append a batch at a time (StringKeyBatch.keys), never zeroed.
        if self == .string { return IdentifierKey.strings(unsafeBitCast(values, to: [String].self)) }
        return [UInt64](filling: values.count) { keys, count in
            values.withUnsafeBufferPointer { writeKeys($0, to: keys.baseAddress.unsafelyUnwrapped) }
            count = values.count
        }
    }

    /// Runs `body` with the keys of `values`: a 64-bit integer's own bytes, every other
    /// type's keys written into a temporary buffer (on the stack when small). For a caller
    /// that copies the keys into a column anyway: an array made first would cost an
    /// allocation, a copy and a release more per call (``keys(_:)``).
    /// - Complexity: O(1) for 64-bit integers, else O(k) (plus string/byte lengths), plus `body`.
    // The buffer overload's body again, not a call to it: `appendItems`, which calls this,
    // stopped being inlined into the app's code when it did (`UUID` build + diff at 10^4: 8,000
    // instructions a change more, about 80 an append).
    @inlinable
    func withKeys<T: Hashable, R>(of values: [T], _ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        if isOwnKey(for: T.self) {
            return try values.withUnsafeBufferPointer { try $0.withMemoryRebound(to: UInt64.self, body) }
        }
        if values.isEmpty { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: values.count) { keys in
            values.withUnsafeBufferPointer { writeKeys($0, to: keys.baseAddress.unsafelyUnwrapped) }
            return try body(UnsafeBufferPointer(keys))
        }
    }

    /// ``withKeys(of:_:)`` for identifiers already borrowed as a buffer.
    /// - Complexity: as ``withKeys(of:_:)``.
    @inlinable
    func withKeys<T: Hashable, R>(of values: UnsafeBufferPointer<T>, _ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        if isOwnKey(for: T.self) { return try values.withMemoryRebound(to: UInt64.self, body) }
        if values.isEmpty { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: values.count) { keys in
            writeKeys(values, to: keys.baseAddress.unsafelyUnwrapped)
            return try body(UnsafeBufferPointer(keys))
        }
    }

    /// Writes the key of each of `values` to `keys[0..<values.count]`, in order, as
    /// ``key(_:)`` gives it: strings and UUIDs in core calls (strings a batch at a time), an
    /// `id` type's and an ``IdentifierKeyConvertible`` type's own writers, a type keyed by its
    /// `hashValue` in a loop with no switch per value, the rest (integers, bytes) per value.
    /// - Complexity: O(k) (plus string/byte lengths, or the type's own key work).
    @inlinable
    func writeKeys<T: Hashable>(_ values: UnsafeBufferPointer<T>, to keys: UnsafeMutablePointer<UInt64>) {
        guard let base = values.baseAddress, !values.isEmpty else { return }
        if isOwnKey(for: T.self) {
            UnsafeMutableRawPointer(keys).copyMemory(from: base, byteCount: values.count &* 8)
            return
        }
        // Strings and UUIDs straight to the core: the generic per-element path copies each
        // string out through a pointer (a retain and a release per identifier).
        if self == .string {
            let strings = UnsafeRawPointer(base).assumingMemoryBound(to: String.self)
            return IdentifierKey.writeStringKeys(UnsafeBufferPointer(start: strings, count: values.count), to: keys)
        }
        if self == .uuid { return IdentifierKey.writeUUIDKeys(UnsafeRawPointer(base), count: values.count, to: keys) }
        if self == .id { return Self.writeIDKeys(values, to: keys) }
        if self == .provided { return Self.writeProvidedKeys(values, to: keys) }
        // A loop, not `map` with a closure: where the optimizer leaves the closure out of
        // line (an `appendItems` grown by a branch was enough), each key costs a call, and a
        // value holding references a copy to pass to it.
        if self == .hashValue {  // an app's own type: no switch per value
            for index in values.indices { (keys + index).initialize(to: Self.hashValueKey(values[index])) }
        } else {
            for index in values.indices { (keys + index).initialize(to: key(values[index])) }
        }
    }

    /// Reads `value` as `U`; valid only when `T` is `U` (checked by the strategy choice).
    @inlinable @inline(__always)
    static func reinterpret<T, U>(_ value: T, as _: U.Type) -> U {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: U.self, capacity: 1) { $0.pointee } }
    }
}

/// The canonical keys shared with C and Python (FIXTURES.md `keys`).
public enum IdentifierKey {
    /// XXH3-64 (seed 0) of the string's NFC UTF-8: canonically equivalent
    /// strings (`"caf\u{E9}"`, `"cafe\u{301}"`) get one key, as Swift's `==` demands.
    /// - Complexity: O(length). Strings the core's quick check finds in NFC (ASCII, and
    ///   text from the common scripts) are hashed in place; others are normalized first.
    public static func string(_ string: String) -> UInt64 {
        // Most identifiers are NFC already (all ASCII is): the core recognises them in
        // place and hashes the string's own UTF-8, with no copy and no normalization.
        var key: UInt64 = 0
        let isNFC = string.utf8.withContiguousStorageIfAvailable { dfc_hash_if_nfc($0.baseAddress, $0.count, 0, &key) != 0 }
        if isNFC == true { return key }
        var canonical = string.precomposedStringWithCanonicalMapping
        return canonical.withUTF8 { dfc_hash_one($0.baseAddress, $0.count, 0) }
    }

    /// The keys of many strings, as ``string(_:)`` gives them, in order.
    /// - Complexity: O(total UTF-8 length).
    @usableFromInline
    static func strings(_ strings: [String]) -> [UInt64] {
        // A batch of strings per core call (StringKeyBatch).
        strings.withUnsafeBufferPointer { StringKeyBatch.keys($0) }
    }

    /// Writes the keys of `strings`, as ``string(_:)`` gives them, to `keys[0..<strings.count]`.
    /// - Complexity: O(total UTF-8 length).
    @usableFromInline
    static func writeStringKeys(_ strings: UnsafeBufferPointer<String>, to keys: UnsafeMutablePointer<UInt64>) {
        StringKeyBatch.writeKeys(of: strings, to: keys)
    }

    /// The key of one UUID: XXH3-64 (seed 0) of its 16 bytes, as ``writeUUIDKeys(_:count:to:)`` gives it,
    /// the core's 16-byte hash inlined here (`dfc_hash_16_inline`, the body of
    /// `dfc_hash_16`): the call into the core and its NULL check were about half of a key.
    /// - Complexity: O(1).
    @usableFromInline
    static func uuid(_ uuid: UUID) -> UInt64 {
        withUnsafeBytes(of: uuid.uuid) { dfc_hash_16_inline($0.baseAddress.unsafelyUnwrapped, 0) }
    }

    /// Writes the keys of `count` UUIDs at `uuids` (an array's elements) to `keys[0..<count]`:
    /// XXH3-64 (seed 0) of each one's 16 bytes, read in place, all in one C call (its 16-byte
    /// hash inlined, where a call per UUID paid its length dispatch).
    /// - Complexity: O(count).
    @usableFromInline
    static func writeUUIDKeys(_ uuids: UnsafeRawPointer, count: Int, to keys: UnsafeMutablePointer<UInt64>) {
        let status = dfc_hash_strided(uuids, MemoryLayout<uuid_t>.size, MemoryLayout<UUID>.stride, count, 0, keys)
        // In-memory UUIDs of an array: every argument is valid by construction.
        CoreError.require(status, "UUID keys")
    }

    /// XXH3-64 (seed 0) of raw bytes.
    /// - Complexity: O(count).
    public static func bytes(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        dfc_hash_one(bytes.baseAddress, bytes.count, 0)
    }
}
