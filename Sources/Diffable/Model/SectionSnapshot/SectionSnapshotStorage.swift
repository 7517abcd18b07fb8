/// The copy-on-write storage of ``DiffableDataSourceSectionSnapshot``: the outline
/// in depth-first (pre-order) order as parallel flat arrays, and the C identifier
/// table from each item's 64-bit key to its position in them.
///
/// A subtree is a contiguous run: the item at `p` and its `sizes[p] - 1`
/// descendants, so the next sibling of `p` starts at `p + sizes[p]` and parents
/// always precede their children. Every array and the table are exact after each
/// mutation; queries only read (no lazy caches, so sharing a snapshot across
/// threads is safe).
///
/// The arrays opt out of Swift's run-time exclusivity checks: every access to a class's
/// stored property otherwise registers itself with the runtime (a thread-local lookup and
/// a set insert), about a dozen per `append(_:to:)`, 13% of building a 10^6-item outline
/// in a profile. Only the storage's owner touches them, and no access to one of them is
/// ever open while code outside the storage runs that could reach the same storage
/// (identifiers' `==` and `hash` see identifiers, never the outline). Debug builds of the
/// tests ran with the checks on before they were turned off.
final class SectionSnapshotStorage<Item: Hashable> {
    let strategy: KeyStrategy
    /// Whether each identifier is its own key: a 64-bit integer, whose key is its bit
    /// pattern. `storedKeys` then stays empty (8 B less per item) and keys are read from
    /// `ids` (see ``withStoredKeys(_:)``).
    let itemsAreOwnKeys: Bool
    @exclusivity(unchecked) var ids: ContiguousArray<Item> = []
    /// Each item's key by position; empty when ``itemsAreOwnKeys``. Read only through
    /// ``withStoredKeys(_:)``, ``storedKey(at:)`` or ``keyArray``, written only through
    /// ``updateStoredKeys(_:)``, which serve both cases.
    @exclusivity(unchecked) private var storedKeys: ContiguousArray<UInt64> = []
    /// Depth: 0 for root items.
    @exclusivity(unchecked) var levels: ContiguousArray<Int32> = []
    /// Position of the parent, -1 for root items.
    @exclusivity(unchecked) var parents: ContiguousArray<Int32> = []
    /// Number of items in the subtree, the item itself included.
    @exclusivity(unchecked) var sizes: ContiguousArray<Int32> = []
    @exclusivity(unchecked) var expanded = ExpansionBits()
    /// Key → position. Copies of the storage share it until one of them changes its
    /// structure (``makeTableUnique()``): a copy made to expand or collapse items (the usual reason
    /// to copy an outline) never copies it — 130 MB at 10^7 items.
    @exclusivity(unchecked) private(set) var table: IdentifierTable
    /// The position the last ``position(of:key:)`` found (a guess, never trusted unchecked).
    let hint = LookupHint()

    init() {
        strategy = KeyStrategy.of(Item.self)
        itemsAreOwnKeys = strategy.isOwnKey(for: Item.self)
        table = IdentifierTable()
    }

    private init(copying other: SectionSnapshotStorage) {
        strategy = other.strategy
        itemsAreOwnKeys = other.itemsAreOwnKeys
        ids = other.ids
        storedKeys = other.storedKeys
        levels = other.levels
        parents = other.parents
        sizes = other.sizes
        expanded = other.expanded
        table = other.table
    }

    /// Makes the table this storage's own: every function that changes the table calls it
    /// first. (No function keeps the table in a local while calling another: that reference
    /// would make the table look shared to the callee, which would then copy it.)
    /// - Complexity: O(capacity) when a copy still shares the table, else O(1).
    func makeTableUnique() {
        if !isKnownUniquelyReferenced(&table) { table = table.copy() }
    }

    /// Empties the table: in place when it is this storage's own, else by starting a new one
    /// (copying a shared table only to clear it would be wasted).
    /// - Complexity: O(capacity) when owned, else O(1).
    private func makeTableEmpty() {
        if isKnownUniquelyReferenced(&table) { table.removeAll() } else { table = IdentifierTable() }
    }

    /// Runs `body` with the table borrowed, not retained: a retain is an atomic operation,
    /// which on x86-64 waits for every store before it to complete (an append's stores to
    /// memory not yet cached, say). Only for calls on the table that cannot replace it.
    @inline(__always)
    func withTable<R>(_ body: (IdentifierTable) -> R) -> R {
        Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef(body)
    }

    /// - Complexity: O(1) (the arrays and the table are shared until written).
    func copy() -> SectionSnapshotStorage { SectionSnapshotStorage(copying: self) }

    var count: Int { ids.count }

    // MARK: Keys

    /// The stored keys by position, valid inside `body`: `storedKeys`, or for identifiers
    /// that are their own keys, `ids`' buffer read as `UInt64` (the same bits, no copy).
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    func withStoredKeys<R>(_ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        guard itemsAreOwnKeys else { return storedKeys.withUnsafeBufferPointer(body) }
        return ids.withUnsafeBufferPointer { ids in ids.withMemoryRebound(to: UInt64.self, body) }
    }

    /// The stored key of the item at `position`.
    /// - Complexity: O(1).
    @inline(__always)
    func storedKey(at position: Int) -> UInt64 { withStoredKeys { $0[position] } }

    /// The keys by position as an array sharing the storage's buffer (`ids`' for identifiers
    /// that are their own keys), not a copy.
    /// - Complexity: O(1).
    var keyArray: ContiguousArray<UInt64> {
        itemsAreOwnKeys ? unsafeBitCast(ids, to: ContiguousArray<UInt64>.self) : storedKeys
    }

    /// The capacity of the separate key array: 0 when ``itemsAreOwnKeys`` (no buffer at all).
    var storedKeyCapacity: Int { storedKeys.capacity }

    /// Runs `body` on the separate key array, to change it as `ids` changes; not at all for
    /// identifiers that are their own keys (changing `ids` changed their keys).
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    func updateStoredKeys(_ body: (inout ContiguousArray<UInt64>) -> Void) {
        if !itemsAreOwnKeys { body(&storedKeys) }
    }

    // MARK: Lookups

    @inline(__always)
    func key(_ item: Item) -> UInt64 { strategy.key(item) }

    /// - Complexity: O(1) expected; no hashing when `item` is at the position after (or
    ///   at) the one the previous lookup found, as when rows are asked about in order.
    @inline(__always)
    func position(of item: Item, key: UInt64) -> Int? {
        let guess = hint.guess &+ 1
        // An injective key follows from the identifier, whose neighbour the last lookup read:
        // comparing identifiers alone costs no cache miss when the guess is wrong.
        if guess >= 0 && guess < ids.count && (strategy.isInjective || storedKey(at: guess) == key) && ids[guess] == item {
            hint.remember(guess)
            return guess
        }
        guard let found = withTable({ $0.slot(of: item, key: key, identifierAt: { ids[Int($0)] }) }) else { return nil }
        hint.remember(Int(found))
        return Int(found)
    }

    /// - Complexity: O(1) expected.
    func position(of item: Item) -> Int? { position(of: item, key: key(item)) }

    /// Runs `body` with the keys of `items`: for 64-bit integers the identifiers' own bytes,
    /// otherwise computed into a temporary buffer (no array made).
    /// - Complexity: O(k) (plus string and byte lengths).
    func withKeys<R>(of items: UnsafeBufferPointer<Item>, _ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        if itemsAreOwnKeys { return items.withMemoryRebound(to: UInt64.self, body) }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: items.count) { keys in
            for index in items.indices { keys.initializeElement(at: index, to: key(items[index])) }
            return body(UnsafeBufferPointer(keys))
        }
    }

    /// The positions of `items` (whose keys are `itemKeys`) that are in the outline and whose
    /// expansion differs from `value`. Each item is first looked for where a list in outline
    /// order would have it after the previous one found (its first child or next sibling),
    /// by key, and only then through the table.
    /// - Complexity: O(k) expected; O(1) per item that follows outline order.
    func positions(
        of items: UnsafeBufferPointer<Item>, keys itemKeys: UnsafeBufferPointer<UInt64>, expandedOtherThan value: Bool
    ) -> [Int32] {
        var changes: [Int32] = []
        let injective = strategy.isInjective
        ids.withUnsafeBufferPointer { ids in
            withStoredKeys { keys in
                sizes.withUnsafeBufferPointer { sizes in
                    expanded.withUnsafeWords { words in
                        @inline(__always)
                        func isAt(_ position: Int, _ index: Int) -> Bool {
                            position < keys.count && keys[position] == itemKeys[index] && (injective || ids[position] == items[index])
                        }
                        var previous = -1
                        for index in items.indices {
                            var found = -1
                            if previous >= 0 {
                                let sibling = previous + Int(sizes[previous])
                                if isAt(previous + 1, index) {
                                    found = previous + 1
                                } else if isAt(sibling, index) {
                                    found = sibling
                                }
                            }
                            if found < 0 {
                                guard let position = lookUp(items[index], key: itemKeys[index], in: ids) else { continue }
                                found = position
                            }
                            previous = found
                            if ExpansionBits.isSet(words, found) != value { changes.append(Int32(found)) }
                        }
                    }
                }
            }
        }
        return changes
    }

    /// The table lookup with the identifiers borrowed (no access per candidate).
    @inline(__always)
    private func lookUp(_ item: Item, key: UInt64, in ids: UnsafeBufferPointer<Item>) -> Int? {
        withTable { $0.slot(of: item, key: key) { ids[Int($0)] } }.map { Int($0) }
    }

    /// Whether every ancestor of the item at `position` is expanded.
    /// - Complexity: O(depth).
    func isVisible(at position: Int) -> Bool {
        // Plain subscripts, not borrowed buffers: a closure over a class's array retains and
        // releases the buffer, two atomic operations that were 60% of a call in a profile.
        var ancestor = Int(parents[position])
        while ancestor >= 0 {
            if !expanded[ancestor] { return false }
            ancestor = Int(parents[ancestor])
        }
        return true
    }

    /// The arrays that decide the rows (shared, not copied).
    /// - Complexity: O(1).
    var rows: OutlineRows<Item> { OutlineRows(ids: ids, keys: keyArray, sizes: sizes, expanded: expanded) }

    /// Calls `body` with each maximal run of consecutive visible positions, in order.
    /// - Complexity: O(visible items) (see ``OutlineRows/forEachVisibleRun(_:)``).
    func forEachVisibleRun(_ body: (Range<Int>) -> Void) { rows.forEachVisibleRun(body) }

    /// The number of visible items.
    /// - Complexity: O(visible items).
    var visibleCount: Int { rows.visibleCount }

    // MARK: Structural changes

    /// What replaces a run of subtrees.
    enum Replacement {
        /// New childless, collapsed items.
        case leaves([Item], keys: [UInt64])
        /// Whole subtrees of another outline, with their expansion state.
        case subtrees(OutlineBlock<Item>)

        var count: Int {
            switch self {
            case .leaves(let ids, _): ids.count
            case .subtrees(let block): block.count
            }
        }
    }

    /// Replaces the whole subtrees in `range` (consecutive children of `parent`, -1 for
    /// roots; empty to insert) by `replacement`, which becomes children of `parent` at
    /// `range.lowerBound`. `claimingKeys` (an insertion: `range` empty): the replacement's
    /// keys go into the table first, in one prefetched pass, and when one of them has a
    /// candidate there already or repeats (an identifier present or repeated, or merely a hash
    /// collision) nothing changes and the call returns false, for the caller to check.
    /// - Returns: true unless `claimingKeys` found a conflict.
    /// - Complexity: O(range.count + replacement.count + depth) at the end of the
    ///   outline; otherwise also O(items after the range).
    @discardableResult
    func replaceSubtrees(_ range: Range<Int>, parent: Int, with replacement: Replacement, claimingKeys: Bool = false) -> Bool {
        precondition(!claimingKeys || range.isEmpty, "section snapshot: keys are claimed only for insertions")
        makeTableUnique()
        let added = replacement.count, delta = added - range.count
        let appending = range.isEmpty && range.lowerBound == count
        let tail = range.upperBound..<count
        let newCount = count + delta
        // Renumbering a long tail entry by entry costs more than a prefetched rebuild.
        let rebuild = !appending && delta != 0 && tail.count > 4096 && tail.count * 3 > newCount
        // Room first, while the table holds exactly the positions 0..<count: every insert
        // below then fits (removal marks of the range included). A rebuild that claims
        // nothing sizes the table itself.
        if !rebuild || claimingKeys { reserveTable(count + added, entriesArePrefix: count) }
        if appending, case .leaves(let newIDs, let newKeys) = replacement {
            if claimingKeys && !newKeys.withUnsafeBufferPointer({ claimKeys($0, first: count) }) { return false }
            appendLeaves(newIDs, keys: newKeys, parent: parent, inTable: claimingKeys)
            return true
        }
        if rebuild {
            // Claimed past every position in use; the rebuild below renumbers them.
            if claimingKeys && !replacement.keys.withUnsafeBufferPointer({ claimKeys($0, first: count) }) { return false }
        } else {
            for position in range { table.remove(key: storedKey(at: position), slot: Int32(position)) }
            if delta != 0 { moveTableEntries(of: tail, by: delta) }
            if claimingKeys && !replacement.keys.withUnsafeBufferPointer({ claimKeys($0, first: range.lowerBound) }) {
                if delta != 0 { moveTableEntries(of: tail, by: delta, undo: true) }
                return false
            }
        }
        let start = range.lowerBound
        let level: Int32 = parent < 0 ? 0 : levels[parent] + 1
        switch replacement {
        case .leaves(let newIDs, let newKeys):
            ids.replaceSubrange(range, with: newIDs)
            updateStoredKeys { $0.replaceSubrange(range, with: newKeys) }
            levels.replaceSubrange(range, with: repeatElement(level, count: added))
            parents.replaceSubrange(range, with: repeatElement(Int32(parent), count: added))
            sizes.replaceSubrange(range, with: repeatElement(1, count: added))
            if range.isEmpty && start == expanded.count {
                expanded.appendZeros(added)
            } else {
                expanded.replaceSubrange(range, with: ExpansionBits(repeating: false, count: added))
            }
        case .subtrees(let block):
            ids.replaceSubrange(range, with: block.ids)
            updateStoredKeys { $0.replaceSubrange(range, with: block.keys) }
            levels.replaceSubrange(range, with: block.levels.lazy.map { $0 + level })
            let offset = Int32(start)
            parents.replaceSubrange(range, with: block.parents.lazy.map { $0 < 0 ? Int32(parent) : $0 + offset })
            sizes.replaceSubrange(range, with: block.sizes)
            expanded.replaceSubrange(range, with: block.expanded)
        }
        if delta != 0 {
            // Items after the run keep their parents, which moved when they were after the run too.
            let shift = Int32(delta), first = Int32(start)
            if !tail.isEmpty {
                parents.withUnsafeMutableBufferPointer { parents in
                    for position in (start + added)..<newCount where parents[position] >= first { parents[position] += shift }
                }
            }
            addToAncestorSizes(from: parent, shift)
        }
        if rebuild {
            rebuildTable()
        } else if !claimingKeys {
            addTableEntries(start..<(start + added))
        }
        return true
    }

    /// ``replaceSubtrees(_:parent:with:claimingKeys:)`` for new leaves at the very end (the last
    /// children of `parent`, which is then on the outline's last branch): every array grows at
    /// its end, one access each, and only the ancestors' sizes change.
    /// - Complexity: O(k + depth) amortized.
    private func appendLeaves(_ newIDs: [Item], keys newKeys: [UInt64], parent: Int, inTable: Bool) {
        let start = count
        appendLeafRows(newIDs, keys: newKeys, parent: parent)
        addToAncestorSizes(from: parent, Int32(newIDs.count))
        if !inTable { addTableEntries(start..<count) }
    }

    /// The rows of new childless, collapsed leaves of `parent`, appended to every array (not
    /// the table, nor the ancestors' sizes).
    /// - Complexity: O(k) amortized.
    @inline(__always)
    private func appendLeafRows(_ newIDs: some Collection<Item>, keys newKeys: some Collection<UInt64>, parent: Int) {
        let added = newIDs.count
        let level: Int32 = parent < 0 ? 0 : levels[parent] + 1
        ids.append(contentsOf: newIDs)
        updateStoredKeys { $0.append(contentsOf: newKeys) }
        if added == 1 {
            levels.append(level)
            parents.append(Int32(parent))
            sizes.append(1)
        } else {
            levels.append(contentsOf: repeatElement(level, count: added))
            parents.append(contentsOf: repeatElement(Int32(parent), count: added))
            sizes.append(contentsOf: repeatElement(1, count: added))
        }
        expanded.appendZeros(added)
    }

    /// Adds `shift` to the subtree sizes of `parent` and every ancestor of it (none for -1).
    /// - Complexity: O(depth).
    @inline(__always)
    private func addToAncestorSizes(from parent: Int, _ shift: Int32) {
        guard parent >= 0 else { return }
        // `sizes` borrowed outermost: with `parents` outermost, the compiler retained and
        // released it around the mutation of `sizes` (two atomics per call, 3% of a build).
        sizes.withUnsafeMutableBufferPointer { sizes in
            parents.withUnsafeBufferPointer { parents in
                var ancestor = parent
                while ancestor >= 0 {
                    sizes[ancestor] += shift
                    ancestor = Int(parents[ancestor])
                }
            }
        }
    }

    /// Appends `items` as new childless, collapsed leaves at the very end of the outline: the
    /// last children of `parent` (roots when nil), which must then be on the outline's last
    /// branch. The usual append of an outline loaded in order, in one pass that makes no
    /// array: the keys are computed into a stack buffer (or, for 64-bit integers, are the
    /// identifiers' own bytes), and the table takes them without a separate check.
    /// Returns false and changes nothing when `parent` is missing or elsewhere, when the table
    /// already holds a candidate for one of the keys, or two of them share a fingerprint (an
    /// identifier present or repeated, or merely a hash collision): the caller's general path
    /// then decides.
    /// - Complexity: O(k + depth) amortized.
    func appendNewLeavesAtEnd(_ items: [Item], to parent: Item?) -> Bool {
        // Borrowed buffers throughout: appending an array argument retains and releases it,
        // atomic operations that were a fifth of building an outline in a profile.
        items.withUnsafeBufferPointer { items in
            withKeys(of: items) { appendNewLeavesAtEnd(items, keys: $0, to: parent) }
        }
    }

    @inline(__always)
    private func appendNewLeavesAtEnd(_ newIDs: UnsafeBufferPointer<Item>, keys newKeys: UnsafeBufferPointer<UInt64>, to parentID: Item?)
        -> Bool
    {
        // Start loading the table slots the keys go to (random places in a large table) first,
        // so those cache misses overlap the parent's lookup and the appends below.
        withTable { table in
            for key in newKeys { table.prefetch(key) }
        }
        var parent = -1
        if let parentID {
            guard let found = position(of: parentID), found + Int(sizes[found]) == count else { return false }
            parent = found
        }
        makeTableUnique()
        let start = count, added = newIDs.count
        reserveTable(start + added, entriesArePrefix: start)
        appendLeafRows(newIDs, keys: newKeys, parent: parent)
        guard claimKeys(newKeys, first: start) else {
            ids.removeLast(added)
            updateStoredKeys { $0.removeLast(added) }
            levels.removeLast(added)
            parents.removeLast(added)
            sizes.removeLast(added)
            expanded.removeLast(added)
            return false
        }
        addToAncestorSizes(from: parent, Int32(added))
        return true
    }

    /// Adds `newKeys[i]` → `first + i` for every key when none of them has a candidate in the
    /// table yet nor a fingerprint repeated among them (an identifier present or repeated, or
    /// merely a hash collision: the caller checks); otherwise changes nothing and returns
    /// false. One key takes one probe, more one prefetched batch. The table must have room
    /// (``reserveTable(_:entriesArePrefix:)``).
    /// - Complexity: O(newKeys.count) expected.
    @inline(__always)
    private func claimKeys(_ newKeys: UnsafeBufferPointer<UInt64>, first: Int) -> Bool {
        if newKeys.count == 1 { return withTable { $0.insertUnlessCandidate(key: newKeys[0], slot: Int32(first)) } }
        return insertBatchOrNothing(newKeys, first: first)
    }

    /// Inserts `newKeys[i]` → `first + i` in one prefetched batch when no key has a candidate
    /// in the table yet nor repeats a fingerprint among them; otherwise takes back what the
    /// batch inserted and returns false.
    /// - Complexity: O(newKeys.count) expected.
    private func insertBatchOrNothing(_ newKeys: UnsafeBufferPointer<UInt64>, first: Int) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: newKeys.count) { conflicts in
            let inserted = withTable { $0.insertBatch(newKeys, firstSlot: Int32(first), conflicts: conflicts.baseAddress!) }
            if inserted == newKeys.count { return true }
            // Entries took consecutive slots, skipping the conflicting keys.
            var value = Int32(first)
            for (key, conflict) in zip(newKeys, conflicts) where conflict == 0 {
                withTable { $0.remove(key: key, slot: value) }
                value += 1
            }
            return false
        }
    }

    /// Removes the subtrees rooted at `roots` (ascending positions, none inside another).
    /// - Complexity: O(removed items + depth · roots.count) plus O(items after the first
    ///   removed one) unless they are all at the end.
    func removeSubtrees(rootedAt roots: [Int]) {
        guard let first = roots.first else { return }
        makeTableUnique()
        if roots.count == 1 {
            replaceSubtrees(first..<(first + Int(sizes[first])), parent: Int(parents[first]), with: .leaves([], keys: []))
            return
        }
        // Ancestors lose the removed subtrees (none of them is removed: roots are not nested).
        for root in roots {
            addToAncestorSizes(from: Int(parents[root]), -sizes[root])
        }
        // The runs that stay after `first`, each with the number of items removed before it.
        var runs: [Range<Int>] = [0..<first]
        var shifts: [Int] = [0]
        var removed = 0
        for (index, root) in roots.enumerated() {
            let end = root + Int(sizes[root])
            removed += end - root
            for position in root..<end { table.remove(key: storedKey(at: position), slot: Int32(position)) }
            let next = index + 1 < roots.count ? roots[index + 1] : count
            if end < next {
                runs.append(end..<next)
                shifts.append(removed)
            }
        }
        let newCount = count - removed
        let rebuild = newCount - first > 4096 && (newCount - first) * 3 > newCount
        // New parents first (a kept item's parent is kept and precedes it), then compaction.
        func newPosition(_ old: Int) -> Int {
            var low = 0, high = runs.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if runs[middle].lowerBound <= old { low = middle } else { high = middle - 1 }
            }
            return old - shifts[low]
        }
        for (run, shift) in zip(runs.dropFirst(), shifts.dropFirst()) {
            for position in run {
                let parent = Int(parents[position])
                if parent >= first { parents[position] = Int32(newPosition(parent)) }
                if !rebuild { table.update(key: storedKey(at: position), from: Int32(position), to: Int32(position - shift)) }
            }
        }
        Self.compact(&ids, keeping: runs)
        updateStoredKeys { Self.compact(&$0, keeping: runs) }
        Self.compact(&levels, keeping: runs)
        Self.compact(&parents, keeping: runs)
        Self.compact(&sizes, keeping: runs)
        expanded.keepOnly(runs)
        if rebuild { rebuildTable() }
    }

    /// Moves the elements of `runs` (ascending, disjoint, the first starting at 0) to the front, in order.
    private static func compact<T>(_ array: inout ContiguousArray<T>, keeping runs: [Range<Int>]) {
        var write = runs[0].upperBound
        for run in runs.dropFirst() {
            for read in run {
                array.swapAt(write, read)
                write += 1
            }
        }
        array.removeLast(array.count - write)
    }

    /// Removes every item.
    /// - Complexity: O(n).
    func removeAll() {
        ids.removeAll()
        updateStoredKeys { $0.removeAll() }
        levels.removeAll()
        parents.removeAll()
        sizes.removeAll()
        expanded = ExpansionBits()
        makeTableEmpty()
    }

    // MARK: The table

    /// Adds key → position entries for the (new, distinct) items in `positions`.
    /// - Complexity: O(positions.count) expected.
    func addTableEntries(_ positions: Range<Int>) {
        makeTableUnique()
        // Every other position has its entry: a prefix when the new ones are at the end.
        reserveTable(count, entriesArePrefix: positions.upperBound == count ? positions.lowerBound : nil)
        if positions.count > 64, withStoredKeys({ claimKeys(UnsafeBufferPointer(rebasing: $0[positions]), first: positions.lowerBound) }) {
            return
        }
        for position in positions { table.insert(key: storedKey(at: position), slot: Int32(position)) }
    }

    /// Moves the table entries of the items whose keys are at `positions` from `position` to
    /// `position + delta` (or back, `undo`). Slots stay distinct at every step (the table
    /// tells equal keys apart by slot): the entry moved next never lands on one not moved yet.
    /// - Complexity: O(positions.count) expected.
    private func moveTableEntries(of positions: Range<Int>, by delta: Int, undo: Bool = false) {
        makeTableUnique()
        let (from, to) = undo ? (delta, 0) : (0, delta)
        withStoredKeys { keys in
            withTable { table in
                if to > from {
                    for position in positions.reversed() {
                        table.update(key: keys[position], from: Int32(position + from), to: Int32(position + to))
                    }
                } else {
                    for position in positions {
                        table.update(key: keys[position], from: Int32(position + from), to: Int32(position + to))
                    }
                }
            }
        }
    }

    /// Room in the table for `count` entries, which must hold the items' keys as the
    /// positions they name: exactly `0..<prefix` when `entriesArePrefix` says so (a growing
    /// table then rehashes the keys in order), otherwise any positions below `count`.
    /// Running out of memory traps, as other mutations of the outline do.
    /// - Complexity: O(n) when the table grows, amortized away; O(1) otherwise.
    func reserveTable(_ count: Int, entriesArePrefix prefix: Int?) {
        // The usual case, room already there, without borrowing the keys (a retain and a
        // release of the identifier array: 3% of building an outline of one-item appends).
        if withTable({ count <= $0.count + $0.room }) { return }
        let size = self.count
        let failure: CoreError? = withStoredKeys { keys in
            withTable { table -> CoreError? in
                do throws(CoreError) {
                    try table.reserve(count, keys: UnsafeBufferPointer(rebasing: keys[..<(prefix ?? size)]))
                    return nil
                } catch { return error }
            }
        }
        if let failure { fatalError("section snapshot: \(failure) (identifier table for \(count) items)") }
    }

    /// Rebuilds the table from the key array.
    /// - Complexity: O(n) expected.
    func rebuildTable() {
        makeTableEmpty()
        reserveTable(count, entriesArePrefix: 0)
        addTableEntries(0..<count)
    }

    #if DIFFABLE_INTERNAL_CHECKS
        /// Verifies levels, parents, subtree sizes and the table against each other.
        /// - Complexity: O(n).
        func checkInvariants() {
            // As the flat snapshot's: whole-outline checks only up to this size, so that building
            // a large outline in a checked build stays linear.
            guard ids.count <= 50_000 else { return }
            precondition(
                (itemsAreOwnKeys ? storedKeys.isEmpty : ids.count == storedKeys.count) && ids.count == levels.count
                    && levels.count == parents.count
                    && parents.count == sizes.count && sizes.count == expanded.count)
            precondition(table.count == ids.count, "table count \(table.count) != \(ids.count)")
            var ancestors: [Int] = []
            for position in ids.indices {
                while let last = ancestors.last, last + Int(sizes[last]) <= position { ancestors.removeLast() }
                precondition(parents[position] == Int32(ancestors.last ?? -1), "parent of \(position)")
                precondition(levels[position] == Int32(ancestors.count), "level of \(position)")
                precondition(sizes[position] >= 1 && position + Int(sizes[position]) <= ids.count, "size of \(position)")
                if let last = ancestors.last {
                    precondition(position + Int(sizes[position]) <= last + Int(sizes[last]), "subtree of \(position) overflows")
                }
                precondition(table.find(storedKey(at: position)) { $0 == Int32(position) } != nil, "table entry of \(position)")
                // Keyed and found again as stored, unless unequal to itself (Double.nan) or keyed by a
                // user's hashValue (a broken Hashable is reported, not trapped on).
                let id = ids[position]
                if strategy != .hashValue && id == id {
                    precondition(storedKey(at: position) == key(id) && self.position(of: id) == position, "key of \(position)")
                }
                ancestors.append(position)
            }
        }
    #endif
}

/// A run of whole subtrees to put into an outline: depth-first arrays with levels
/// counted from the run's own roots (0) and parents as positions in the run (-1 for
/// its roots).
struct OutlineBlock<Item: Hashable> {
    var ids: ContiguousArray<Item>
    var keys: ContiguousArray<UInt64>
    var levels: ContiguousArray<Int32>
    var parents: ContiguousArray<Int32>
    var sizes: ContiguousArray<Int32>
    var expanded: ExpansionBits

    var count: Int { ids.count }

    /// The whole of `storage` (arrays shared until written).
    /// - Complexity: O(1).
    init(_ storage: SectionSnapshotStorage<Item>) {
        ids = storage.ids
        keys = storage.keyArray
        levels = storage.levels
        parents = storage.parents
        sizes = storage.sizes
        expanded = storage.expanded
    }

    /// The subtrees of `storage` in `range`: whole subtrees whose roots share a parent.
    /// - Complexity: O(range.count).
    init(_ storage: SectionSnapshotStorage<Item>, range: Range<Int>) {
        let baseLevel = range.isEmpty ? 0 : storage.levels[range.lowerBound]
        let offset = Int32(range.lowerBound)
        ids = ContiguousArray(storage.ids[range])
        keys = storage.withStoredKeys { ContiguousArray($0[range]) }
        levels = ContiguousArray(storage.levels[range].lazy.map { $0 - baseLevel })
        parents = ContiguousArray(storage.parents[range].lazy.map { $0 < offset ? -1 : $0 - offset })
        sizes = ContiguousArray(storage.sizes[range])
        expanded = storage.expanded.extracting(range)
    }
}
