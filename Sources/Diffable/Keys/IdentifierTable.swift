internal import CDiffCore

/// Owns a C `dfc_idtable`: 64-bit key → 32-bit slot, several slots per key allowed
/// (hash collisions). The table keeps a few bits of each key's hash beside its slot, not
/// the key (the owner's key array already holds it), so every lookup yields candidates that
/// callers confirm; see ``find(_:where:)`` and ``slot(of:key:identifierAt:)``.
///
/// The owner's key array is also how the table grows: ``reserve(_:keys:)`` rehashes from it,
/// and inserts never grow (they trap when there is no room). So an owner reserves before
/// it mutates, with its keys as the table knows them; only that step can fail (out of
/// memory, thrown), and inserts within the reserved count never allocate. Slots stay
/// distinct at every step (see ``update(key:from:to:)``).
/// Not `Sendable`: a table belongs to one storage, mutated by its unique owner.
final class IdentifierTable {
    private let raw: OpaquePointer
    /// Whether two entries may share a key. Only ``insert(key:slot:)`` enters a key without
    /// looking for it, so only it sets this; the batch inserts leave every key that meets an
    /// entry out. While false the entries' keys are distinct: a diff whose keys stand for
    /// `id`s can then skip checking them for repeats. Unchecked exclusivity: a table
    /// belongs to one storage, mutated only by its unique owner (see the class comment).
    @exclusivity(unchecked) private(set) var keysMayRepeat = false

    /// - Complexity: O(1).
    init() {
        // An empty table allocates nothing but its header: failing here means the process is out of memory.
        guard let table = dfc_idtable_create(nil) else { fatalError("Diffable: out of memory creating a table") }
        raw = table
    }

    private init(raw: OpaquePointer) { self.raw = raw }

    deinit { dfc_idtable_free(raw) }

    /// An independent copy (copy-on-write support).
    /// - Complexity: O(capacity).
    func copy() -> IdentifierTable {
        guard let copy = dfc_idtable_copy(raw, nil) else { fatalError("Diffable: out of memory copying a table") }
        let table = IdentifierTable(raw: copy)
        table.keysMayRepeat = keysMayRepeat
        return table
    }

    var count: Int { dfc_idtable_count(raw) }

    /// How many more entries fit before a reserve is needed: reserving up to ``count`` +
    /// `room` is free (no keys read). Removals do not raise it.
    /// - Complexity: O(1).
    var room: Int { dfc_idtable_room(raw) }

    /// Room for `count` entries in all, and for slots below `count` and `keys.count`, so
    /// that inserts up to it never allocate. Growing rehashes every entry from `keys`: the
    /// key of each entry by slot (may be empty while the table is). When `keys.count` equals
    /// ``count``, the entries' slots must be exactly `0..<keys.count` (an array filled in
    /// order), and the rehash reads the keys in order.
    /// - Throws: ``CoreError/outOfMemory`` or ``CoreError/tooLarge``; the table is then unchanged.
    /// - Complexity: O(count + keys.count) when it grows, O(1) otherwise.
    func reserve(_ count: Int, keys: UnsafeBufferPointer<UInt64>) throws(CoreError) {
        try CoreError.check(dfc_idtable_reserve(raw, count, keys.baseAddress, keys.count))
    }

    /// ``reserve(_:keys:)`` for an empty table, which needs no keys to grow.
    /// - Complexity: O(count) when it grows.
    func reserveEmpty(_ count: Int) throws(CoreError) {
        precondition(self.count == 0, "identifier table: reserving without keys needs an empty table")
        try reserve(count, keys: UnsafeBufferPointer(start: nil, count: 0))
    }

    /// - Complexity: O(1) expected.
    @inline(__always)
    func insert(key: UInt64, slot: Int32) {
        keysMayRepeat = true
        CoreError.require(dfc_idtable_insert(raw, key, UInt32(bitPattern: slot)), "identifier table insert")
    }

    /// Inserts `keys[i]` → consecutive slots from `firstSlot` for every key not yet in the
    /// table (nor earlier in `keys`); marks the others in `conflicts` (1) for the caller to
    /// resolve. `knownKeys[s]` is the key of the entry at slot `s` (from 0, below
    /// `firstSlot`): an entry that merely shares a key's fingerprint is then no conflict, so a
    /// batch of new keys takes consecutive slots in its own order; an entry past them meets a
    /// key on its fingerprint alone.
    /// - Returns: the number of keys inserted.
    /// - Complexity: O(k) expected, probes prefetched.
    @inline(__always)
    func insertBatch(
        _ keys: UnsafeBufferPointer<UInt64>, firstSlot: Int32, knownKeys: UnsafeBufferPointer<UInt64>,
        conflicts: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var inserted = 0
        let status = dfc_idtable_insert_batch_confirmed(
            raw, keys.baseAddress, keys.count, UInt32(firstSlot), knownKeys.baseAddress, knownKeys.count, conflicts, &inserted)
        CoreError.require(status, "identifier table batch insert")
        return inserted
    }

    /// Inserts `key` → `slot` unless the table already holds a candidate for `key` (an entry
    /// with the key, or one that shares its fingerprint): one probe where a check with
    /// ``firstCandidate(_:)`` and then ``insert(key:slot:)`` take two.
    /// - Returns: whether it inserted.
    /// - Complexity: O(1) expected.
    @inline(__always)
    func insertUnlessCandidate(key: UInt64, slot: Int32) -> Bool {
        // No known keys: every entry sharing the fingerprint is a candidate.
        var key = key, conflict: UInt8 = 0
        return withUnsafePointer(to: &key) {
            insertBatch(
                UnsafeBufferPointer(start: $0, count: 1), firstSlot: slot, knownKeys: UnsafeBufferPointer(start: nil, count: 0),
                conflicts: &conflict)
        } == 1
    }

    /// Starts loading the table slot where a lookup of `key` begins (a hint; see
    /// `dfc_idtable_prefetch`): issued some lookups ahead in a batch, the cache misses of
    /// random keys overlap instead of following one another.
    /// - Complexity: O(1).
    @inline(__always)
    func prefetch(_ key: UInt64) { dfc_idtable_prefetch(raw, key) }

    /// The first candidate slot for `key`, unconfirmed (nil when there is none): for batches
    /// that confirm all candidates in a later pass.
    /// - Complexity: O(1) expected.
    @inline(__always)
    func firstCandidate(_ key: UInt64) -> Int32? { find(key) { _ in true } }

    /// The first candidate slot for `key` (an entry with the key, or rarely one whose key
    /// shares its fingerprint) accepted by `isMatch`, or nil.
    /// - Complexity: O(1) expected (plus one `isMatch` call per candidate).
    @inline(__always)
    func find(_ key: UInt64, where isMatch: (Int32) -> Bool) -> Int32? {
        var cursor = 0
        while true {
            let found = dfc_idtable_find(raw, key, &cursor)
            if found < 0 { return nil }
            if isMatch(Int32(truncatingIfNeeded: found)) { return Int32(truncatingIfNeeded: found) }
        }
    }

    /// The slot holding `id` (keyed `key`), the id → slot lookup of both storages' items
    /// (sections, whose free slots hold nil, call ``find(_:where:)`` with the unwrapped one): each
    /// candidate is confirmed with `==` on the identifier `identifierAt(slot)` returns (for
    /// injective keys, such as `Int`'s, that is the key comparison, read from the identifier
    /// array the caller reads next anyway). `identifierAt` returns the identifier itself, not
    /// an optional: comparing optionals makes unspecialized code (a client's own identifier
    /// type) look up the metadata of a tuple of them on every call.
    /// - Complexity: O(1) expected hash-and-compare operations.
    @inline(__always)
    func slot<ID: Equatable>(of id: ID, key: UInt64, identifierAt: (Int32) -> ID) -> Int32? {
        find(key) { identifierAt($0) == id }
    }

    /// - Complexity: O(1) expected.
    func remove(key: UInt64, slot: Int32) {
        let removed = dfc_idtable_remove(raw, key, UInt32(bitPattern: slot))
        assert(removed == 1, "Diffable: identifier table lost an entry")
    }

    /// Gives the entry (`key`, `oldSlot`) the slot `newSlot`, which no entry may hold: the
    /// table tells entries of equal keys apart by slot. To shift a run of entries, move the
    /// last one first when slots grow and the first one first when they shrink.
    /// - Complexity: O(1) expected.
    func update(key: UInt64, from oldSlot: Int32, to newSlot: Int32) {
        let updated = dfc_idtable_update(raw, key, UInt32(bitPattern: oldSlot), UInt32(bitPattern: newSlot))
        precondition(updated == 1, "Diffable: identifier table lost an entry")
    }

    /// - Complexity: O(capacity).
    func removeAll() {
        dfc_idtable_clear(raw)
        keysMayRepeat = false
    }
}

@available(*, unavailable)
extension IdentifierTable: Sendable {}
