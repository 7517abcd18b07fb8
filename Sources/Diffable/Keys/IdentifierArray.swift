/// The identifiers of an ``IdentifierColumn`` by slot: an array whose elements, for types that
/// hold references (a `String`, an app's struct holding one), are kept as their bits and owned
/// elsewhere, so that appending and dropping them retains and releases nothing per element.
///
/// Two layouts, chosen by the type (``storesBits``, a constant where the code is specialized):
/// - **Values** (plain-bytes types such as integers and `UUID`, and the rare types that cannot
///   be moved as bytes): ``values`` holds the identifiers, as any array does.
/// - **Bits** (every other type, whose copies retain references): ``IdentifierBits/words``
///   holds each identifier's bytes, ``wordsPerID`` 8-byte words each, and does not own them.
///   The arrays in ``IdentifierBits/owners`` do: an app's arrays appended whole, kept alive by
///   one reference to their storage each (an app keeps them anyway, and copy-on-write gives
///   the app a new buffer if it changes one); and ``values``, which in this layout holds the
///   identifiers this type copied itself, in no particular order. A copy of an identifier has
///   the original's bits, so bits copied from any owner stay valid while that owner lives.
///   Reading an identifier copies it out of the bits, which retains it as any read of an
///   array does.
///
/// The bits layout's state is one object of a non-generic class (``bits``, nil until the first
/// identifier), so a values-layout type pays for it one null reference in each copy of a
/// column (the library's unspecialized code copies a column on each call: see
/// ``IdentifierColumn``). Four more arrays in the column cost an `Int` change at 10^3 5.5%
/// more instructions, and a generic class 2.7% (its metadata looked up in unspecialized code).
///
/// Why: a `String` copied into a snapshot and released with it cost a retain and a release per
/// identifier, about 77 instructions and two atomic operations an item of an app's change at
/// 10^4 (docs/PERFORMANCE_LOG.md). Bits are copied with `memcpy`, moved and dropped as bytes.
///
/// Owners outlive the identifiers dropped from ``words`` (a deletion, a truncation): once they
/// hold more than twice the live identifiers (plus a small allowance), the live ones are copied
/// into ``values`` and the owners let go (``releaseUnusedOwners()``), so the memory kept is
/// at most about twice the identifiers' and the work amortized O(1) per identifier dropped.
///
/// Every write goes through this type's methods: a write through a typed pointer would
/// release an element the bits do not own.
@usableFromInline
struct IdentifierArray<ID> {
    /// The identifiers by slot, in the values layout. In the bits layout, the identifiers this
    /// array copied itself (appended one at a time, or kept when owners were let go), in no
    /// particular order: owners of bits in ``bits``.
    @usableFromInline var values: ContiguousArray<ID> = []
    /// The bits layout's identifiers and owners; nil in the values layout and while empty.
    @usableFromInline var bits: IdentifierBits?

    /// - Complexity: O(1).
    @inlinable
    init() {}

    /// Whether writes keep identifiers as bits: the type allows it and the owner `allows` it
    /// (a constant false, where the code is specialized, for plain-bytes types). Every write
    /// takes the owner's choice as its `asBits` argument: an outline keeps values, whose
    /// whole-array reads (`items`, the visible items of an outline all expanded) share the
    /// array's buffer in O(1). Not a stored flag: one more field made the library's
    /// unspecialized code copy a column through its type's value witnesses (its metadata
    /// looked up), 2% more instructions for an `Int` change.
    @inlinable @inline(__always)
    static func writesBits(_ allows: Bool) -> Bool { storesBits && allows }

    /// Whether identifiers are kept as bits (see the type's notes): a type that holds references,
    /// can be moved as bytes, and whose stride is whole 8-byte words at most 8-aligned (every
    /// type holding a reference is).
    @inlinable @inline(__always)
    static var storesBits: Bool {
        !_isPOD(ID.self) && _isBitwiseTakable(ID.self) && MemoryLayout<ID>.alignment <= 8
            && MemoryLayout<ID>.stride % 8 == 0 && MemoryLayout<ID>.stride > 0
    }

    /// Whether identifiers may be kept as bits: false for plain-bytes types. Reads test it and
    /// then ``bits`` (never set unless ``storesBits``): where the code is not specialized, one
    /// test of the type's flags keeps a plain-bytes type off the bits path, where
    /// ``storesBits`` would read the type's layout too.
    @inlinable @inline(__always)
    static var mayStoreBits: Bool { !_isPOD(ID.self) }

    /// The 8-byte words one identifier takes in ``IdentifierBits/words``.
    @inlinable @inline(__always)
    static var wordsPerID: Int { MemoryLayout<ID>.stride / 8 }

    /// Owned identifiers allowed beyond twice the live ones before the owners are let go.
    @inlinable @inline(__always)
    static var ownedAllowance: Int { 1024 }

    /// The bits layout's state, made this array's own for a write (``storesBits`` types only).
    /// Created when there is none: an array taken whole by the first append (see
    /// ``append(_:sharing:asBits:)``) then has its bits copied into ``IdentifierBits/words`` and stays
    /// in ``values`` as their owner.
    /// - Complexity: O(1), or O(n) bytes copied the first time after an array was taken whole.
    @inlinable @inline(__always)
    mutating func uniqueBits() -> IdentifierBits {
        guard let existing = bits else {
            assert(Self.storesBits, "Diffable: the bits layout for a type kept as values")
            let new = IdentifierBits()
            if !values.isEmpty {
                new.words = values.withUnsafeBufferPointer { $0.withMemoryRebound(to: UInt64.self) { ContiguousArray($0) } }
                new.ownedCount = values.count
            }
            bits = new
            return new
        }
        if isKnownUniquelyReferenced(&bits) { return existing }
        let copy = existing.copy()
        bits = copy
        return copy
    }

    // MARK: Reading

    /// The number of identifiers.
    /// - Complexity: O(1).
    @inlinable
    var count: Int {
        @inline(__always) get {
            if Self.mayStoreBits, let bits { return bits.words.count / Self.wordsPerID }
            return values.count
        }
    }

    /// Identifiers that fit before the storage grows.
    /// - Complexity: O(1).
    @inlinable
    var capacity: Int {
        if Self.mayStoreBits, let bits { return bits.words.capacity / Self.wordsPerID }
        return values.capacity
    }

    /// The identifier at `slot` (a copy, as any array's read: compare with
    /// ``identifier(at:equals:)``, which does not copy).
    /// - Complexity: O(1).
    @inlinable
    subscript(slot: Int) -> ID {
        @inline(__always) get {
            guard Self.mayStoreBits, let bits else { return values[slot] }
            return bits.words.withUnsafeBufferPointer { words in
                precondition(UInt(bitPattern: slot) < UInt(bitPattern: words.count / Self.wordsPerID), "identifier slot out of range")
                return UnsafeRawPointer(words.baseAddress.unsafelyUnwrapped).load(
                    fromByteOffset: slot &* MemoryLayout<ID>.stride, as: ID.self)
            }
        }
    }

    /// Whether the identifier at `slot` equals `id`, compared where it is stored (reading it
    /// out of the bits would copy it: a retain and a release per lookup).
    /// - Complexity: O(1) plus one `==`.
    @inlinable @inline(__always)
    func identifier(at slot: Int, equals id: ID) -> Bool where ID: Equatable {
        guard Self.mayStoreBits, let bits else { return values[slot] == id }
        return bits.words.withUnsafeBufferPointer { words in
            precondition(UInt(bitPattern: slot) < UInt(bitPattern: words.count / Self.wordsPerID), "identifier slot out of range")
            return words.withMemoryRebound(to: ID.self) { $0[slot] == id }
        }
    }

    /// Runs `body` with the identifiers in one buffer, valid inside `body` (read only: see the
    /// type's notes).
    /// - Complexity: O(1) plus `body`.
    @inlinable @inline(__always)
    func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<ID>) throws(E) -> R) throws(E) -> R {
        guard Self.mayStoreBits, let bits else { return try values.withUnsafeBufferPointer(body) }
        return try bits.words.withUnsafeBufferPointer { (words) throws(E) -> R in
            guard !words.isEmpty else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
            return try words.withMemoryRebound(to: ID.self) { (ids) throws(E) -> R in try body(ids) }
        }
    }

    /// A copy whose storage is its own now (owners still shared: they are never written in
    /// place, except ``values``, which copy-on-write copies).
    /// - Complexity: O(n).
    func ownedCopy() -> IdentifierArray {
        var copy = self
        if let bits {
            let copiedBits = bits.copy()
            copiedBits.words = bits.words.withUnsafeBufferPointer { ContiguousArray($0) }
            copy.bits = copiedBits
        } else {
            copy.values = values.withUnsafeBufferPointer { ContiguousArray($0) }
        }
        return copy
    }

    // MARK: Writing

    /// Room for `capacity` identifiers in all.
    /// - Complexity: O(n) when it grows.
    @inlinable
    mutating func reserveCapacity(_ capacity: Int, asBits: Bool) {
        if Self.writesBits(asBits) {
            // An empty array stays without bits, so that a first append can take an array whole.
            if bits != nil || !values.isEmpty { uniqueBits().words.reserveCapacity(capacity * Self.wordsPerID) }
        } else {
            values.reserveCapacity(capacity)
        }
    }

    /// Appends one identifier.
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func append(_ id: ID, asBits: Bool) {
        guard Self.writesBits(asBits) else { return values.append(id) }
        let bits = uniqueBits()
        values.append(id)
        bits.ownedCount += 1
        // The value's bytes a word at a time (a constant count where the code is specialized),
        // the padding past its size zeroed: through a temporary buffer and a bulk append, a
        // `String` cost about 40 instructions more.
        withUnsafeBytes(of: id) { bytes in
            let whole = bytes.count / 8
            for word in 0..<whole { bits.words.append(bytes.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self)) }
            guard whole < Self.wordsPerID else { return }
            var last: UInt64 = 0
            withUnsafeMutableBytes(of: &last) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[(whole &* 8)...])) }
            bits.words.append(last)
            for _ in (whole + 1)..<Self.wordsPerID { bits.words.append(0) }
        }
    }

    /// Appends `newIDs`, an array the caller may keep. An empty array takes it whole (an array
    /// made into a `ContiguousArray` shares its buffer): no copy now, none destroyed with the
    /// snapshot while the caller keeps it; copy-on-write copies it on its next change in place,
    /// as an append would have. For plain-bytes types only with `sharing` (a caller about to
    /// write the identifiers in place does not share); for types kept as bits always, since
    /// their writes go to bits of their own (``uniqueBits()``). Otherwise, in the bits layout
    /// the array becomes an owner, in the values layout its identifiers are copied. An array
    /// with more than twice its count in spare room is copied: the snapshot would keep that room
    /// alive.
    /// - Complexity: O(k) amortized, O(1) when taken whole.
    @inlinable
    mutating func append(_ newIDs: [ID], sharing: Bool, asBits: Bool) {
        let roomy = newIDs.capacity > 2 * newIDs.count
        if (sharing || Self.writesBits(asBits)) && bits == nil && values.capacity == 0 && !roomy {
            values = ContiguousArray(newIDs)
        } else if Self.writesBits(asBits) {
            appendOwner(roomy ? newIDs.withUnsafeBufferPointer { ContiguousArray($0) } : ContiguousArray(newIDs))
        } else {
            appendValues(copiesOf: newIDs)
        }
    }

    /// Appends copies of `newIDs`.
    /// - Complexity: O(k) amortized.
    @inlinable
    mutating func append(contentsOf newIDs: some Collection<ID>, asBits: Bool) {
        if Self.writesBits(asBits) { appendOwner(ContiguousArray(newIDs)) } else { appendValues(copiesOf: newIDs) }
    }

    /// Values layout: appends copies of `newIDs`, `String`s one at a time in code specialized
    /// for them (``ElementwiseCopies``), everything else in one bulk copy. Only `String`: a
    /// larger value holding references (an app's model value: a `UUID`, a `String` and a flag)
    /// copied one at a time cost more than the runtime's copy, whether the array iterated
    /// (matching by `id` at 10^3, 1,139,163 → 1,193,245 instructions per apply) or the copies
    /// were made in its storage (782,611 → 807,277).
    /// - Complexity: O(k) amortized.
    @inlinable @inline(__always)
    mutating func appendValues(copiesOf newIDs: some Collection<ID>) {
        if ID.self == String.self {
            values.append(contentsOf: ElementwiseCopies(newIDs))
        } else {
            values.append(contentsOf: newIDs)
        }
    }

    /// Bits layout: appends the bits of `owner`'s identifiers and keeps it as their owner.
    /// - Complexity: O(k) amortized.
    @inlinable
    mutating func appendOwner(_ owner: ContiguousArray<ID>) {
        guard !owner.isEmpty else { return }
        let bits = uniqueBits()
        owner.withUnsafeBufferPointer { ids in
            ids.withMemoryRebound(to: UInt64.self) { bits.words.append(contentsOf: $0) }
        }
        Self.keep(owner, in: bits)
    }

    /// Bits layout: keeps `owner` alive as the owner of identifiers whose bits are in `bits`.
    /// - Complexity: O(1) amortized.
    @inlinable @inline(__always)
    static func keep(_ owner: ContiguousArray<ID>, in bits: IdentifierBits) {
        bits.owners.append(storageObject(owner))
        bits.ownedCount += owner.count
    }

    /// The object that holds `array`'s elements, which keeps them alive (an array is one
    /// reference to it; the empty array's is a shared object that lives forever).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    static func storageObject(_ array: ContiguousArray<ID>) -> AnyObject {
        unsafeBitCast(array, to: AnyObject.self)
    }

    /// Whether `array`'s storage holds identifiers of this array: taken whole, or among the
    /// owners (bits layout). For tests and checks.
    /// - Complexity: O(owners).
    func isOwned(by array: [ID]) -> Bool {
        let object = Self.storageObject(ContiguousArray(array))
        return Self.storageObject(values) === object && !values.isEmpty || bits?.owners.contains { $0 === object } == true
    }

    /// Replaces the identifiers in `range` with copies of `newIDs` (in the bits layout, one
    /// copy made into an array that becomes their owner).
    /// - Complexity: O(range.count + new count + identifiers after the range), plus the
    ///   owners' release, amortized.
    mutating func replaceSubrange(_ range: Range<Int>, with newIDs: some Collection<ID>, asBits: Bool) {
        guard Self.writesBits(asBits) else { return values.replaceSubrange(range, with: newIDs) }
        let owner = ContiguousArray(newIDs), width = Self.wordsPerID, bits = uniqueBits()
        let words = range.lowerBound * width..<range.upperBound * width
        owner.withUnsafeBufferPointer { ids in
            if ids.isEmpty { return bits.words.removeSubrange(words) }
            ids.withMemoryRebound(to: UInt64.self) { bits.words.replaceSubrange(words, with: $0) }
        }
        if !owner.isEmpty { Self.keep(owner, in: bits) }
        releaseUnusedOwners()
    }

    /// Drops the identifiers from `count` on (capacity stays).
    /// - Complexity: O(identifiers dropped) in the values layout; O(1) in the bits layout,
    ///   plus the owners' release, amortized.
    mutating func truncate(to count: Int, asBits: Bool) {
        guard Self.writesBits(asBits), bits != nil else { return values.removeSubrange(count...) }
        uniqueBits().words.removeSubrange((count * Self.wordsPerID)...)
        releaseUnusedOwners()
    }

    /// Swaps the identifiers at `i` and `j`.
    /// - Complexity: O(1).
    mutating func swapAt(_ i: Int, _ j: Int, asBits: Bool) {
        guard Self.writesBits(asBits) else { return values.swapAt(i, j) }
        let width = Self.wordsPerID, bits = uniqueBits()
        precondition(Swift.max(i, j) < bits.words.count / width, "identifier slot out of range")
        for word in 0..<width { bits.words.swapAt(i * width + word, j * width + word) }
    }

    /// The identifiers' storage, borrowed writable for moves within it (``copy(from:to:)``,
    /// the only write allowed through it).
    struct MutableStorage {
        /// The first identifier's address (nil when empty).
        let base: UnsafeMutableRawPointer?
        /// Whether an identifier is moved as bytes (the bits layout, or plain bytes).
        let bitwise: Bool

        /// Copies the identifier at `source` over the one at `destination` (the one there
        /// dropped).
        /// - Complexity: O(1).
        @inline(__always)
        func copy(from source: Int, to destination: Int) {
            let stride = MemoryLayout<ID>.stride, base = base.unsafelyUnwrapped
            if bitwise {
                (base + destination &* stride).copyMemory(from: base + source &* stride, byteCount: stride)
            } else {
                let ids = base.assumingMemoryBound(to: ID.self)
                ids[destination] = ids[source]
            }
        }
    }

    /// Runs `body` with the identifiers' storage, writable, for ``MutableStorage/copy(from:to:)``.
    /// - Complexity: O(1) plus `body` (O(n) when the storage was shared).
    @inline(__always)
    mutating func withUnsafeMutableStorage<R>(asBits: Bool, _ body: (MutableStorage) -> R) -> R {
        if Self.writesBits(asBits) {
            return uniqueBits().words.withUnsafeMutableBufferPointer {
                body(MutableStorage(base: UnsafeMutableRawPointer($0.baseAddress), bitwise: true))
            }
        }
        return values.withUnsafeMutableBufferPointer {
            body(MutableStorage(base: UnsafeMutableRawPointer($0.baseAddress), bitwise: _isPOD(ID.self)))
        }
    }

    /// Runs `body` with the identifiers from `first` on, writable, for work that moves each
    /// one out and back in unchanged (``IdentifierColumn/hashValueKeysOfOwnCopies(from:)``).
    /// - Complexity: O(1) plus `body` (O(n) when the storage was shared).
    @inlinable @inline(__always)
    mutating func withUnsafeMutableIdentifiers<R>(from first: Int, asBits: Bool, _ body: (UnsafeMutableBufferPointer<ID>) -> R) -> R {
        guard Self.writesBits(asBits) else {
            return values.withUnsafeMutableBufferPointer { body(UnsafeMutableBufferPointer(rebasing: $0[first...])) }
        }
        return uniqueBits().words.withUnsafeMutableBufferPointer { words in
            guard !words.isEmpty else { return body(UnsafeMutableBufferPointer(start: nil, count: 0)) }
            return words.withMemoryRebound(to: ID.self) { body(UnsafeMutableBufferPointer(rebasing: $0[first...])) }
        }
    }

    /// Removes every identifier (and, in the bits layout, lets every owner go).
    /// - Complexity: O(n) in the values layout, O(owners) in the bits layout.
    mutating func removeAll() {
        values.removeAll()
        bits = nil
    }

    /// Once the owners hold more than twice the live identifiers (plus ``ownedAllowance``),
    /// copies the live ones into ``values`` and lets the other owners go (bits layout; the bits
    /// stay as they are, the copies having the same).
    /// - Complexity: O(n) when it copies, amortized O(1) per identifier dropped; else O(1).
    mutating func releaseUnusedOwners() {
        guard Self.mayStoreBits, let current = bits, current.ownedCount > 2 * count + Self.ownedAllowance else { return }
        let live = withUnsafeBufferPointer { ContiguousArray($0) }
        let bits = uniqueBits()
        bits.owners.removeAll()
        values = live
        bits.ownedCount = live.count
    }
}

/// The bits layout's state of an ``IdentifierArray``, shared by copies of the array until one
/// of them writes (``IdentifierArray/uniqueBits()``). Not generic, so that code not specialized
/// for the identifier type reaches its fields without looking up metadata. Its fields are
/// unchecked for exclusive access at run time: only the array's own methods touch them, each
/// access whole within one method.
@usableFromInline
final class IdentifierBits {
    /// Each identifier's bytes, ``IdentifierArray/wordsPerID`` words each.
    @usableFromInline @exclusivity(unchecked) var words: ContiguousArray<UInt64> = []
    /// The storage objects of arrays appended whole, which own identifiers in ``words``.
    @usableFromInline @exclusivity(unchecked) var owners: ContiguousArray<AnyObject> = []
    /// How many identifiers the owners hold (with the array's own ``IdentifierArray/values``),
    /// live or dropped.
    @usableFromInline @exclusivity(unchecked) var ownedCount = 0

    /// - Complexity: O(1).
    @inlinable
    init() {}

    /// A copy sharing the arrays (each copied on its first write).
    /// - Complexity: O(1).
    @inlinable
    func copy() -> IdentifierBits {
        let copy = IdentifierBits()
        (copy.words, copy.owners, copy.ownedCount) = (words, owners, ownedCount)
        return copy
    }
}

extension IdentifierArray: RandomAccessCollection {
    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }

    /// The identifiers in one buffer, so that bulk copies (an array made of a slice) copy
    /// them in one pass.
    /// - Complexity: O(1) plus `body`.
    @inlinable
    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<ID>) throws -> R) rethrows -> R? {
        try withUnsafeBufferPointer { (ids) throws -> R in try body(ids) }
    }
}
