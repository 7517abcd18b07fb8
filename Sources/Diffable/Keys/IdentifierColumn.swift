/// One column of identifiers by slot, with each identifier's 64-bit key and the C table from
/// key to slot: the part a flat snapshot's items and an outline's items have in common.
///
/// An identifier that is its own key (a 64-bit integer, keyed by its bit pattern) has no
/// separate key stored: the key array then stays empty (8 B less per item) and keys are read
/// from the identifiers' own buffer (``withKeys(_:)``). Every read and write of keys goes
/// through this type, which serves both cases.
///
/// The arrays are a value (shared until written). The table is a class: copies of a column
/// share it until one calls ``makeTableUnique()`` before changing it, or take their own at
/// once with ``ownedCopy()``. Slots are whatever the owner makes them (a flat snapshot's item
/// slots, an outline's positions); the column keeps identifiers, keys and table entries in
/// step only where its owner asks it to.
///
/// How a storage reads it (docs/ARCHITECTURE.md, "How the column is read"): a read of one
/// identifier or key is a subscript of the stored property itself (`items.ids[slot]`,
/// `items.storedKeys[slot]`), and a single lookup calls ``table`` with the confirmation read
/// the same way. A method call on a column stored in a class works on a copy of it in code
/// not specialized for `ID` (a retain and a release of each of its three buffers per call),
/// and a `mutating` call is a modify access, which threads reading one shared snapshot must
/// not make. So the methods that read are for whole-column work (one copy per call), the
/// `mutating` ones are for changes (made only on a storage no other thread holds), and the
/// stored properties are written only by the column's own methods.
@usableFromInline
struct IdentifierColumn<ID: Hashable> {
    /// How identifiers become keys.
    let strategy: KeyStrategy
    /// ``isOwnKey`` and ``keepsValues`` in one field: a third stored field beside the strategy
    /// made the library's unspecialized code copy the column through its value witnesses (its
    /// metadata looked up each time), 2% more instructions for an `Int` change at 10^3.
    @usableFromInline let options: UInt8
    /// Whether each identifier is its own key (no separate key array). Only 64-bit integers
    /// are, and they are keyed injectively: a non-injective strategy always has stored keys.
    var isOwnKey: Bool {
        @inline(__always) get { options & 1 != 0 }
    }
    /// Whether identifiers holding references stay values, not bits (an outline's column: see
    /// ``IdentifierArray/writesBits(_:)``); passed to every write of ``ids``.
    @inlinable
    var keepsValues: Bool {
        @inline(__always) get { options & 2 != 0 }
    }
    /// The identifiers by slot (their bits, for types holding references: ``IdentifierArray``).
    /// Read in place by the owner; written only by this type.
    @usableFromInline var ids: IdentifierArray<ID>
    /// Each identifier's key by slot; empty when ``isOwnKey``. Read in place by the owner;
    /// written only by this type.
    var storedKeys: ContiguousArray<UInt64> = []
    /// Key → slot. Read in place by the owner; written only by this type.
    var table: IdentifierTable

    /// An empty column, its identifiers kept as bits when their type allows unless
    /// `keepingValues` (``IdentifierArray``).
    /// - Complexity: O(1).
    init(keepingValues: Bool = false) {
        strategy = KeyStrategy.of(ID.self)
        options = (strategy.isOwnKey(for: ID.self) ? 1 : 0) | (keepingValues ? 2 : 0)
        table = IdentifierTable()
        ids = IdentifierArray()
    }

    /// A copy with arrays and table of its own, copied now: for an owner that copies right
    /// before a mutation, which would otherwise copy each array on its first write anyway.
    /// - Complexity: O(n + table capacity).
    func ownedCopy() -> IdentifierColumn {
        var copy = self
        copy.ids = ids.ownedCopy()
        copy.storedKeys = storedKeys.withUnsafeBufferPointer { ContiguousArray($0) }
        copy.table = table.copy()
        return copy
    }

    // MARK: Keys

    /// Runs `body` with the keys of `items`: for identifiers that are their own keys their own
    /// bytes, otherwise computed into a temporary buffer (no array made;
    /// ``KeyStrategy/withKeys(of:_:)``). A caller whose `body` changes the column calls the
    /// strategy's directly: called on the column, the call would hold a copy of it (its arrays
    /// then shared, so the first write copies them whole).
    /// - Complexity: O(k) (plus string and byte lengths).
    @inline(__always)
    func withKeys<R>(of items: UnsafeBufferPointer<ID>, _ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        strategy.withKeys(of: items, body)
    }

    /// The stored keys by slot, valid inside `body`: the key array, or for identifiers that
    /// are their own keys, the identifiers' buffer read as `UInt64` (the same bits, no copy).
    /// For whole-column reads (a call copies the column; see the type's notes).
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    func withKeys<R, E: Error>(_ body: (UnsafeBufferPointer<UInt64>) throws(E) -> R) throws(E) -> R {
        var column = self  // a call on a column stored in a class has a copy already
        return try column.withKeysInPlace(body)
    }

    /// ``withKeys(_:)`` for the column's own changes: `mutating`, so it borrows the column in
    /// place where a non-mutating call from a mutating one would work on a copy (a retain and
    /// a release of each buffer per call).
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    private mutating func withKeysInPlace<R, E: Error>(_ body: (UnsafeBufferPointer<UInt64>) throws(E) -> R) throws(E) -> R {
        guard isOwnKey else { return try storedKeys.withUnsafeBufferPointer(body) }
        return try ids.withUnsafeBufferPointer { ids throws(E) in try Self.ownKeys(ids, body) }
    }

    /// The keys and the table together, for the column's own changes of table entries: the
    /// keys borrowed in place (``withKeysInPlace(_:)``) and the table unretained, taken before
    /// `body` runs (a call on `self` inside it would overlap the in-place access).
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    private mutating func withKeysAndTable<R>(_ body: (UnsafeBufferPointer<UInt64>, IdentifierTable) -> R) -> R {
        let table = Unmanaged.passUnretained(table)
        return withKeysInPlace { keys in table._withUnsafeGuaranteedRef { body(keys, $0) } }
    }

    /// The keys of identifiers that are their own keys (``isOwnKey``): their own 8 bytes each,
    /// read as `UInt64`, valid inside `body`.
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    static func ownKeys<R, E: Error>(_ ids: UnsafeBufferPointer<ID>, _ body: (UnsafeBufferPointer<UInt64>) throws(E) -> R) throws(E) -> R {
        try ids.withMemoryRebound(to: UInt64.self, body)
    }

    /// ``ownKeys(_:_:)`` as an array sharing the identifiers' buffer, not a copy.
    /// - Complexity: O(1).
    @inline(__always)
    static func ownKeyArray(_ ids: ContiguousArray<ID>) -> ContiguousArray<UInt64> {
        unsafeBitCast(ids, to: ContiguousArray<UInt64>.self)
    }

    /// The stored key of the identifier at `slot`, for the column's own changes (a storage
    /// reading one key reads ``storedKeys`` in place; see the type's notes).
    /// - Complexity: O(1).
    @inline(__always)
    func key(at slot: Int) -> UInt64 { withKeys { $0[slot] } }

    /// The keys by slot as an array sharing the column's buffer (the identifiers' for
    /// identifiers that are their own keys), not a copy.
    /// - Complexity: O(1).
    var keyArray: ContiguousArray<UInt64> {
        isOwnKey ? Self.ownKeyArray(ids.values) : storedKeys
    }

    // MARK: Lookups

    /// Runs `body` with the table borrowed, not retained, to change its entries (a retain is
    /// an atomic operation, which on x86-64 waits for every store before it to complete: an
    /// append's stores to memory not yet cached, say). `mutating`, so a call on a column
    /// stored in a class borrows it in place; only for changes (see the type's notes), and
    /// only for calls on the table that cannot replace it.
    @inline(__always)
    mutating func withTable<R>(_ body: (IdentifierTable) -> R) -> R { borrowTable(body) }

    /// ``withTable(_:)`` for code inside the column.
    @inline(__always)
    func borrowTable<R>(_ body: (IdentifierTable) -> R) -> R {
        Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef(body)
    }

    /// Starts loading the table slots of `keys`, for inserts soon after (a change: see
    /// ``withTable(_:)``).
    /// - Complexity: O(keys.count).
    @inline(__always)
    mutating func prefetchTable(_ keys: UnsafeBufferPointer<UInt64>) {
        borrowTable { table in
            for key in keys { table.prefetch(key) }
        }
    }

    /// The slot of `id`, whose key is `key`, for the column's own batch lookups (a storage's
    /// single lookup calls ``table`` in place; see the type's notes).
    /// - Complexity: O(1) expected.
    @inline(__always)
    func lookUp(_ id: ID, key: UInt64) -> Int32? {
        table.find(key) { ids.identifier(at: Int($0), equals: id) }
    }

    /// How many lookups ahead a batch prefetches: enough to cover a DRAM miss at a few ns
    /// of work per lookup, few enough that the prefetched lines are still cached.
    static var prefetchDistance: Int { 16 }

    /// The slots of the identifiers present, in their order. Each identifier is a random
    /// probe of the table and then a random read of the identifiers to confirm it: the probes
    /// are prefetched some lookups ahead, and the confirmations come in a second pass whose
    /// reads do not depend on each other, so the cache misses overlap (one lookup after
    /// another waits for each miss in turn).
    /// - Complexity: O(k) expected.
    func slots(of identifiers: [ID]) -> [Int32] {
        let keys = strategy.keys(identifiers)
        let ahead = Self.prefetchDistance
        var candidates = [Int32](repeating: -1, count: keys.count)
        borrowTable { table in
            for index in keys.indices {
                if index + ahead < keys.count { table.prefetch(keys[index + ahead]) }
                candidates[index] = table.firstCandidate(keys[index]) ?? -1
            }
        }
        var slots: [Int32] = []
        slots.reserveCapacity(identifiers.count)
        ids.withUnsafeBufferPointer { ids in
            for index in identifiers.indices {
                let candidate = candidates[index]
                if candidate >= 0 && ids[Int(candidate)] == identifiers[index] {
                    slots.append(candidate)
                } else if candidate >= 0, let slot = lookUp(identifiers[index], key: keys[index]) {
                    // The first candidate was another key sharing the fingerprint (rare).
                    slots.append(slot)
                }
            }
        }
        return slots
    }

    // MARK: The table

    /// Makes the table this column's own: every change of a table that copies may share
    /// calls it first. (No caller may keep the table in a local meanwhile: that reference
    /// would make the table look shared, which would then be copied.)
    /// - Complexity: O(capacity) when a copy still shares the table, else O(1).
    @inline(__always)
    mutating func makeTableUnique() {
        if !isKnownUniquelyReferenced(&table) { table = table.copy() }
    }

    /// Room in the table for `count` entries, which must hold the keys of slots
    /// `0..<prefix` exactly when `prefix` is given (a growing table then rehashes them in
    /// order), otherwise any slots below `count`.
    /// - Throws: ``CoreError`` when memory runs out (nothing changed).
    /// - Complexity: O(n) when the table grows, amortized away; O(1) otherwise.
    /// `mutating` although only the table changes: a call on a column stored in a class
    /// would otherwise hold a copy of it (a retain and release of each of its buffers).
    @inline(__always)
    mutating func reserveTable(_ count: Int, entriesArePrefix prefix: Int? = nil) throws(CoreError) {
        // The usual case, room already there, without borrowing the keys (a retain and a
        // release of the identifier array: 3% of building an outline of one-item appends).
        if borrowTable({ count <= $0.count + $0.room }) { return }
        try growTable(count, entriesArePrefix: prefix)
    }

    /// ``reserveTable(_:entriesArePrefix:)`` when the table must grow.
    @inline(never)
    private mutating func growTable(_ count: Int, entriesArePrefix prefix: Int?) throws(CoreError) {
        let size = prefix ?? ids.count
        let failure: CoreError? = withKeysAndTable { keys, table in
            do throws(CoreError) {
                try table.reserve(count, keys: UnsafeBufferPointer(rebasing: keys[..<size]))
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
    }

    /// Adds `newKeys[i]` → `first + i` for every key when none of them meets an entry or an
    /// earlier one of them (an identifier present or repeated, or a hash collision: the caller
    /// checks); otherwise changes nothing and returns false. One key takes one probe and meets
    /// any entry sharing its fingerprint; a batch is prefetched and meets only equal keys
    /// (``enterBatch(_:first:conflicts:)``). The table must have room
    /// (``reserveTable(_:entriesArePrefix:)``).
    /// - Complexity: O(newKeys.count) expected.
    @inline(__always)
    mutating func claimKeys(_ newKeys: UnsafeBufferPointer<UInt64>, first: Int) -> Bool {
        if newKeys.count == 1 { return borrowTable { $0.insertUnlessCandidate(key: newKeys[0], slot: Int32(first)) } }
        return withKeysAndTable { known, table in Self.insertBatchOrNothing(newKeys, first: first, known: known, table: table) }
    }

    /// Inserts `newKeys[i]` → `first + i` in one prefetched batch when no key meets an entry
    /// or an earlier one of them; otherwise takes back what the batch inserted and returns false.
    /// `known` are the column's keys, borrowed in place by the caller (a non-mutating call
    /// from the library's unspecialized code would work on a copy of the column: a retain and
    /// a release of each of its buffers per batch). Always inlined: out of line, it would look
    /// up the column's generic metadata on every batch (about 330 instructions).
    /// - Complexity: O(newKeys.count) expected.
    @inline(__always)
    private static func insertBatchOrNothing(
        _ newKeys: UnsafeBufferPointer<UInt64>, first: Int, known: UnsafeBufferPointer<UInt64>, table: IdentifierTable
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: newKeys.count) { conflicts in
            let inserted = enterBatch(newKeys, first: first, known: known, table: table, conflicts: conflicts.baseAddress!)
            if inserted == newKeys.count { return true }
            // Entries took consecutive slots, skipping the conflicting keys.
            var value = Int32(first)
            for (key, conflict) in zip(newKeys, conflicts) where conflict == 0 {
                table.remove(key: key, slot: value)
                value += 1
            }
            return false
        }
    }

    /// Enters `newKeys[i]` → consecutive slots from `first` for every key that meets no entry
    /// and no earlier one of them, marking the others in `conflicts` (1) for the caller to
    /// resolve. A key sharing an entry's fingerprint is checked against the entry's stored key
    /// (the slots below `first`; the table's values must be dense there), so new keys take
    /// consecutive slots in their own order. The table must have room.
    /// - Returns: the number of keys entered.
    /// - Complexity: O(newKeys.count) expected, probes prefetched.
    @inline(__always)  // see insertBatchOrNothing(_:first:known:table:)
    mutating func enterBatch(_ newKeys: UnsafeBufferPointer<UInt64>, first: Int, conflicts: UnsafeMutablePointer<UInt8>) -> Int {
        withKeysAndTable { known, table in Self.enterBatch(newKeys, first: first, known: known, table: table, conflicts: conflicts) }
    }

    /// ``enterBatch(_:first:conflicts:)`` with the column's keys and table borrowed.
    @inline(__always)
    private static func enterBatch(
        _ newKeys: UnsafeBufferPointer<UInt64>, first: Int, known: UnsafeBufferPointer<UInt64>, table: IdentifierTable,
        conflicts: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let knownKeys = UnsafeBufferPointer(rebasing: known.prefix(first))
        return table.insertBatch(newKeys, firstSlot: Int32(first), knownKeys: knownKeys, conflicts: conflicts)
    }

    /// Adds the table entries of the (distinct, not yet entered) identifiers at `slots`;
    /// the table must have room.
    /// - Complexity: O(slots.count) expected.
    mutating func addTableEntries(_ slots: Range<Int>) {
        // A batch is prefetched; when it meets a conflict (a hash collision) it changes nothing,
        // and the entries go in one by one.
        if slots.count > 64,
            withKeysAndTable({ keys, table in
                Self.insertBatchOrNothing(UnsafeBufferPointer(rebasing: keys[slots]), first: slots.lowerBound, known: keys, table: table)
            })
        {
            return
        }
        withKeysAndTable { keys, table in
            for slot in slots { table.insert(key: keys[slot], slot: Int32(slot)) }
        }
    }

    /// Removes the table entries of the identifiers at `slots` (prefetched ahead).
    /// - Complexity: O(k) expected.
    mutating func removeTableEntries(_ slots: some Collection<Int32>) {
        let ahead = Self.prefetchDistance
        withKeysAndTable { keys, table in
            var index = slots.startIndex, lead = slots.index(index, offsetBy: ahead, limitedBy: slots.endIndex) ?? slots.endIndex
            while index != slots.endIndex {
                if lead != slots.endIndex {
                    table.prefetch(keys[Int(slots[lead])])
                    slots.formIndex(after: &lead)
                }
                table.remove(key: keys[Int(slots[index])], slot: slots[index])
                slots.formIndex(after: &index)
            }
        }
    }

    /// Moves the table entries of the identifiers at `slots` from `slot` to `slot + delta`
    /// (or back, `undo`). Slots stay distinct at every step (the table tells equal keys
    /// apart by slot): the entry moved next never lands on one not moved yet.
    /// - Complexity: O(slots.count) expected.
    mutating func moveTableEntries(of slots: Range<Int>, by delta: Int, undo: Bool = false) {
        let (from, to) = undo ? (delta, 0) : (0, delta)
        withKeysAndTable { keys, table in
            if to > from {
                for slot in slots.reversed() { table.update(key: keys[slot], from: Int32(slot + from), to: Int32(slot + to)) }
            } else {
                for slot in slots { table.update(key: keys[slot], from: Int32(slot + from), to: Int32(slot + to)) }
            }
        }
    }

    /// Moves the table entry of the identifier at `slot` to `newSlot`, which no other entry of
    /// its key holds.
    /// - Complexity: O(1) expected.
    @inline(__always)
    mutating func moveTableEntry(at slot: Int, to newSlot: Int) {
        withKeysAndTable { keys, table in table.update(key: keys[slot], from: Int32(slot), to: Int32(newSlot)) }
    }

    /// Empties the table: in place when it is this column's own, else by starting a new one
    /// (copying a shared table only to clear it would be wasted).
    /// - Complexity: O(capacity) when owned, else O(1).
    mutating func removeAllTableEntries() {
        if isKnownUniquelyReferenced(&table) { table.removeAll() } else { table = IdentifierTable() }
    }

    // MARK: Identifiers and keys

    /// Room for `capacity` identifiers and keys in all; with `identifiers` false, for the keys
    /// alone (an append may then share the caller's array: ``appendIdentifiers(_:sharing:)``).
    /// - Complexity: O(n) when it grows.
    mutating func reserveCapacity(_ capacity: Int, identifiers: Bool = true) {
        if identifiers { ids.reserveCapacity(capacity, asBits: !keepsValues) }
        if !isOwnKey { storedKeys.reserveCapacity(capacity) }
    }

    /// Appends one identifier and its key (not the table entry).
    /// - Complexity: O(1) amortized.
    @inline(__always)
    mutating func append(_ id: ID, key: UInt64) {
        ids.append(id, asBits: !keepsValues)
        if !isOwnKey { storedKeys.append(key) }
    }

    /// Appends identifiers and their keys (not the table entries).
    /// - Complexity: O(k) amortized.
    @inline(__always)
    mutating func append(contentsOf newIDs: some Collection<ID>, keys newKeys: some Collection<UInt64>) {
        ids.append(contentsOf: newIDs, asBits: !keepsValues)
        appendKeys(newKeys)
    }

    /// Appends identifiers and their keys (not the table entries); a column that never held
    /// storage shares the array's (see ``appendIdentifiers(_:sharing:)``).
    /// - Complexity: O(k) amortized, the identifiers O(1) when shared.
    @inline(__always)
    mutating func append(contentsOf newIDs: [ID], keys newKeys: [UInt64]) {
        appendIdentifiers(newIDs, sharing: true)
        appendKeys(newKeys)
    }

    /// Appends identifiers without their keys or table entries (see
    /// `SnapshotStorage.reserveNewItems`, `claimAppendedItems` and `attachNewItems`, the steps around it). Inlinable:
    /// called from code inlined into an app's module, the copy and the array's growth run
    /// specialized for the app's identifier type.
    ///
    /// With `sharing`, a column of plain-bytes identifiers that never held storage takes the
    /// array's own instead (an array made into a `ContiguousArray` shares its buffer), so no
    /// copy is made; copy-on-write copies the column on its next change, as the append would
    /// have, so no caller that writes the identifiers in place
    /// (``hashValueKeysOfOwnCopies(from:)``) may share. Identifiers holding references are
    /// handled whatever `sharing` says (``IdentifierArray/append(_:sharing:asBits:)``): taken
    /// whole by an empty column, otherwise copied as bits with the array kept as their owner;
    /// either way neither retained now nor released one by one with the snapshot.
    /// An array with more than twice its count in spare room is copied: the snapshot would
    /// keep that room alive.
    /// - Complexity: O(1) when shared, else O(k) amortized.
    @inlinable
    mutating func appendIdentifiers(_ newIDs: [ID], sharing: Bool) {
        ids.append(newIDs, sharing: sharing, asBits: !keepsValues)
    }

    /// The `hashValue` keys of the identifiers from slot `first` on, each computed on the
    /// column's own copy, moved out and back in: a value read in place and passed to code
    /// not inlined here (an app's `hash(into:)`) is copied first, its references retained and
    /// released, while a moved value is this code's to lend. The column must be unshared (so
    /// the move touches no other array's elements).
    /// - Complexity: O(count - first) hashes.
    @inlinable
    mutating func hashValueKeysOfOwnCopies(from first: Int) -> [UInt64] {
        let count = ids.count - first
        return ids.withUnsafeMutableIdentifiers(from: first, asBits: !keepsValues) { copies in
            [UInt64](filling: count) { keys, filled in
                guard count > 0 else { return }
                let copies = copies.baseAddress.unsafelyUnwrapped
                for index in 0..<count {
                    let id = (copies + index).move()
                    keys[index] = KeyStrategy.hashValueKey(id)
                    (copies + index).initialize(to: id)
                }
                filled = count
            }
        }
    }

    /// Stores the keys of identifiers just appended (by ``appendIdentifiers(_:sharing:)`` or
    /// ``append(contentsOf:keys:)``); nothing for identifiers that are their own keys.
    /// - Complexity: O(k) amortized.
    @inline(__always)
    mutating func appendKeys(_ newKeys: some Collection<UInt64>) {
        if !isOwnKey { storedKeys.append(contentsOf: newKeys) }
    }

    /// Replaces the identifiers and keys in `range` (not the table entries).
    /// - Complexity: O(range.count + new count + slots after the range).
    mutating func replaceSubrange(_ range: Range<Int>, with newIDs: some Collection<ID>, keys newKeys: some Collection<UInt64>) {
        ids.replaceSubrange(range, with: newIDs, asBits: !keepsValues)
        if !isOwnKey { storedKeys.replaceSubrange(range, with: newKeys) }
    }

    /// Drops the slots from `count` on (capacity stays; not the table entries).
    /// - Complexity: O(slots dropped).
    mutating func truncate(to count: Int) {
        ids.truncate(to: count, asBits: !keepsValues)
        if !isOwnKey { storedKeys.removeSubrange(count...) }
    }

    /// Moves the elements of `runs` (ascending, disjoint, the first starting at 0) to the
    /// front, in order, and drops the rest (not the table entries).
    /// - Complexity: O(n).
    mutating func compact(keeping runs: [Range<Int>]) {
        let asBits = !keepsValues
        let kept = Self.compact(keeping: runs) { ids.swapAt($0, $1, asBits: asBits) }
        ids.truncate(to: kept, asBits: asBits)
        if !isOwnKey { Self.compact(&storedKeys, keeping: runs) }
    }

    /// The same for any array of an owner's that runs parallel to the column.
    /// - Complexity: O(n).
    static func compact<T>(_ array: inout ContiguousArray<T>, keeping runs: [Range<Int>]) {
        let kept = compact(keeping: runs) { array.swapAt($0, $1) }
        array.removeLast(array.count - kept)
    }

    /// The swaps that move the elements of `runs` (as in ``compact(keeping:)``) to the front;
    /// returns the count kept.
    /// - Complexity: O(n).
    static func compact(keeping runs: [Range<Int>], swap: (Int, Int) -> Void) -> Int {
        var write = runs[0].upperBound
        for run in runs.dropFirst() {
            for read in run {
                swap(write, read)
                write += 1
            }
        }
        return write
    }

    /// Runs `body` with the identifiers' storage (moved only by
    /// ``IdentifierArray/MutableStorage/copy(from:to:)``) and the keys as 8-byte words,
    /// writable: the keys are the key array, or the identifiers themselves when they are their
    /// own keys (then the third argument, the key array, is empty). For moves that must keep
    /// both in step.
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    mutating func withUnsafeMutableSlots<R>(
        _ body: (IdentifierArray<ID>.MutableStorage, UnsafeRawPointer?, UnsafeMutableBufferPointer<UInt64>) -> R
    ) -> R {
        let own = isOwnKey
        return ids.withUnsafeMutableStorage(asBits: !keepsValues) { ids in
            storedKeys.withUnsafeMutableBufferPointer { storedKeys in
                let keys = own ? UnsafeRawPointer(ids.base) : UnsafeRawPointer(storedKeys.baseAddress)
                return body(ids, keys, storedKeys)
            }
        }
    }

    /// Removes every identifier, key and table entry (the table in place when owned).
    /// - Complexity: O(n + table capacity).
    mutating func removeAll() {
        ids.removeAll()
        storedKeys.removeAll()
        removeAllTableEntries()
    }
}
