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
///
/// The arrays and the column are plain stored properties, read in place by the snapshot's
/// code (a `private(set)` one read from another file would go through its getter, a retained
/// copy per read); only this storage's methods write them, which `make lint` checks
/// (docs/ARCHITECTURE.md, "How the column is read").
final class SectionSnapshotStorage<Item: Hashable>: SnapshotStorageClass {
    /// The identifiers and keys by position, and the table from key to position. Copies of
    /// the storage share the table until one of them changes its structure
    /// (``IdentifierColumn/makeTableUnique()``): a copy made to expand or collapse items (the
    /// usual reason to copy an outline) never copies it — 130 MB at 10^7 items.
    /// Kept as values whatever the type (``IdentifierArray``): `items` and the visible items of
    /// an outline all expanded share the column's buffer. So the outline reads `items.ids.values`
    /// in place: a call on `items.ids` in code not specialized for `Item` copies it (a retain
    /// and a release more per lookup; see ``IdentifierColumn``).
    @exclusivity(unchecked) var items = IdentifierColumn<Item>(keepingValues: true)
    /// Depth: 0 for root items.
    @exclusivity(unchecked) var levels: ContiguousArray<Int32> = []
    /// Position of the parent, -1 for root items.
    @exclusivity(unchecked) var parents: ContiguousArray<Int32> = []
    /// Number of items in the subtree, the item itself included.
    @exclusivity(unchecked) var sizes: ContiguousArray<Int32> = []
    @exclusivity(unchecked) var expanded = ExpansionBits()
    /// The position the last ``position(of:key:)`` found (a guess, never trusted unchecked).
    let hint = LookupHint()

    init() {}

    private init(copying other: SectionSnapshotStorage) {
        items = other.items
        levels = other.levels
        parents = other.parents
        sizes = other.sizes
        expanded = other.expanded
    }

    /// - Complexity: O(1) (the arrays and the table are shared until written).
    func copy() -> SectionSnapshotStorage { SectionSnapshotStorage(copying: self) }

    var count: Int {
        @inline(__always) get { items.ids.values.count }
    }

    /// The identifier at `position`.
    /// - Complexity: O(1).
    @inline(__always)
    func id(at position: Int) -> Item { items.ids.values[position] }

    /// The key → position table (shared by copies until one changes the outline's structure).
    var table: IdentifierTable {
        // Yielded, not returned: a caller that only reads it takes no reference of its own.
        _read { yield items.table }
    }

    /// Runs `body` with the keys of `items` (see ``IdentifierColumn/withKeys(of:_:)``).
    /// - Complexity: O(k) (plus string and byte lengths).
    func withKeys<R>(of items: UnsafeBufferPointer<Item>, _ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        self.items.withKeys(of: items, body)
    }

    /// Room for `count` rows in every array (not the table).
    /// - Complexity: O(n) when it grows.
    func reserveRows(_ count: Int) {
        items.reserveCapacity(count)
        levels.reserveCapacity(count)
        parents.reserveCapacity(count)
    }

    /// Appends one row at the end of the outline order, its subtree size left to the caller
    /// (not the table, nor any ancestor's size).
    /// - Complexity: O(1) amortized.
    func appendRow(_ id: Item, key: UInt64, parent: Int32, expanded isExpanded: Bool) {
        items.append(id, key: key)
        levels.append(parent < 0 ? 0 : levels[Int(parent)] + 1)
        parents.append(parent)
        expanded.append(isExpanded)
    }

    /// Sets every row's subtree size from the parents, once rows are appended in outline
    /// order (``appendRow(_:key:parent:expanded:)`` leaves sizes to its caller).
    /// - Complexity: O(n).
    func computeSubtreeSizes() {
        sizes = ContiguousArray(repeating: 1, count: count)
        for position in stride(from: count - 1, through: 0, by: -1) where parents[position] >= 0 {
            sizes[Int(parents[position])] += sizes[position]
        }
    }

    /// Expands (`value` true) or collapses the item at `position`.
    /// - Complexity: O(1).
    func setExpanded(_ value: Bool, at position: Int) { expanded[position] = value }

    /// Expands (`value` true) or collapses the items at `positions`.
    /// - Complexity: O(k).
    func setExpanded(_ value: Bool, atPositions positions: [Int32]) { expanded.set(positions, to: value) }

    // MARK: Lookups

    @inline(__always)
    func key(_ item: Item) -> UInt64 { items.strategy.key(item) }  // the strategy read in place: a call on the column would copy it

    /// - Complexity: O(1) expected; no hashing when `item` is at the position after (or
    ///   at) the one the previous lookup found, as when rows are asked about in order.
    @inline(__always)
    func position(of item: Item, key: UInt64) -> Int? {
        let guess = hint.guess &+ 1
        // An injective key follows from the identifier, whose neighbour the last lookup read:
        // comparing identifiers alone costs no cache miss when the guess is wrong.
        // The column's fields read in place (see IdentifierColumn); a non-injective strategy
        // always has stored keys.
        if guess >= 0 && guess < items.ids.values.count && (items.strategy.isInjective || items.storedKeys[guess] == key)
            && items.ids.values[guess] == item
        {
            hint.remember(guess)
            return guess
        }
        return positionInTable(of: item, key: key)
    }

    /// ``position(of:key:)`` when the guess missed. Out of line: inlined, the table probe
    /// made every caller save one more register, which cost the guessed path (`isVisible`
    /// on every row, in order) 3%.
    /// - Complexity: O(1) expected.
    @inline(never)
    private func positionInTable(of item: Item, key: UInt64) -> Int? {
        // The column's fields read in place, not through a call on it, and the table borrowed,
        // not retained (see IdentifierColumn).
        let slot = Unmanaged.passUnretained(items.table)._withUnsafeGuaranteedRef {
            $0.slot(of: item, key: key) { items.ids.values[Int($0)] }
        }
        guard let found = slot else { return nil }
        hint.remember(Int(found))
        return Int(found)
    }

    /// - Complexity: O(1) expected.
    func position(of item: Item) -> Int? { position(of: item, key: key(item)) }

    /// The positions of `items` (whose keys are `itemKeys`) that are in the outline and whose
    /// expansion differs from `value`. Each item is first looked for where a list in outline
    /// order would have it after the previous one found (its first child or next sibling),
    /// by key, and only then through the table.
    /// - Complexity: O(k) expected; O(1) per item that follows outline order.
    func positions(
        of items: UnsafeBufferPointer<Item>, keys itemKeys: UnsafeBufferPointer<UInt64>, expandedOtherThan value: Bool
    ) -> [Int32] {
        // Room for every item at once: grown by appends, the array's capacity would follow
        // malloc's usable sizes, which depend on the process's earlier frees, so the number of
        // allocations would vary from run to run (19 or 20 for 1.1M items).
        var changes: [Int32] = []
        changes.reserveCapacity(items.count)
        let injective = self.items.strategy.isInjective
        self.items.ids.values.withUnsafeBufferPointer { ids in
            self.items.withKeys { keys in
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

    /// The table lookup with the identifiers borrowed (no access per candidate) and the
    /// table borrowed, not retained (see ``IdentifierColumn/withTable(_:)``).
    @inline(__always)
    private func lookUp(_ item: Item, key: UInt64, in ids: UnsafeBufferPointer<Item>) -> Int? {
        Unmanaged.passUnretained(items.table)._withUnsafeGuaranteedRef { $0.slot(of: item, key: key) { ids[Int($0)] } }
            .map { Int($0) }
    }

    /// Whether the item at `position` is expanded.
    /// - Complexity: O(1).
    @inline(__always)
    func isExpanded(at position: Int) -> Bool { expanded[position] }

    /// Whether the item at `position` has children.
    /// - Complexity: O(1).
    @inline(__always)
    func hasChildren(at position: Int) -> Bool { sizes[position] > 1 }

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
    var rows: OutlineRows<Item> { OutlineRows(ids: items.ids.values, keys: items.keyArray, sizes: sizes, expanded: expanded) }

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
        items.makeTableUnique()
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
            if claimingKeys && !newKeys.withUnsafeBufferPointer({ items.claimKeys($0, first: count) }) { return false }
            appendLeaves(newIDs, keys: newKeys, parent: parent, inTable: claimingKeys)
            return true
        }
        if rebuild {
            // Claimed past every position in use; the rebuild below renumbers them.
            if claimingKeys && !replacement.keys.withUnsafeBufferPointer({ items.claimKeys($0, first: count) }) { return false }
        } else {
            items.removeTableEntries(Int32(range.lowerBound)..<Int32(range.upperBound))
            if delta != 0 { items.moveTableEntries(of: tail, by: delta) }
            if claimingKeys && !replacement.keys.withUnsafeBufferPointer({ items.claimKeys($0, first: range.lowerBound) }) {
                if delta != 0 { items.moveTableEntries(of: tail, by: delta, undo: true) }
                return false
            }
        }
        let start = range.lowerBound
        let level: Int32 = parent < 0 ? 0 : levels[parent] + 1
        switch replacement {
        case .leaves(let newIDs, let newKeys):
            items.replaceSubrange(range, with: newIDs, keys: newKeys)
            levels.replaceSubrange(range, with: repeatElement(level, count: added))
            parents.replaceSubrange(range, with: repeatElement(Int32(parent), count: added))
            sizes.replaceSubrange(range, with: repeatElement(1, count: added))
            if range.isEmpty && start == expanded.count {
                expanded.appendZeros(added)
            } else {
                expanded.replaceSubrange(range, with: ExpansionBits(repeating: false, count: added))
            }
        case .subtrees(let block):
            items.replaceSubrange(range, with: block.ids, keys: block.keys)
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
        items.append(contentsOf: newIDs, keys: newKeys)
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
            // Not through `self.items`: the call would hold a copy of the column while the
            // append changes it, and every append would copy the identifiers.
            self.items.strategy.withKeys(of: items) { appendNewLeavesAtEnd(items, keys: $0, to: parent) }
        }
    }

    @inline(__always)
    private func appendNewLeavesAtEnd(_ newIDs: UnsafeBufferPointer<Item>, keys newKeys: UnsafeBufferPointer<UInt64>, to parentID: Item?)
        -> Bool
    {
        // Start loading the table slots the keys go to (random places in a large table) first,
        // so those cache misses overlap the parent's lookup and the appends below.
        items.prefetchTable(newKeys)
        var parent = -1
        if let parentID {
            guard let found = position(of: parentID), found + Int(sizes[found]) == count else { return false }
            parent = found
        }
        items.makeTableUnique()
        let start = count, added = newIDs.count
        reserveTable(start + added, entriesArePrefix: start)
        appendLeafRows(newIDs, keys: newKeys, parent: parent)
        guard items.claimKeys(newKeys, first: start) else {
            items.truncate(to: start)
            levels.removeLast(added)
            parents.removeLast(added)
            sizes.removeLast(added)
            expanded.removeLast(added)
            return false
        }
        addToAncestorSizes(from: parent, Int32(added))
        return true
    }

    /// Removes the subtrees rooted at `roots` (ascending positions, none inside another).
    /// - Complexity: O(removed items + depth · roots.count) plus O(items after the first
    ///   removed one) unless they are all at the end.
    func removeSubtrees(rootedAt roots: [Int]) {
        guard let first = roots.first else { return }
        items.makeTableUnique()
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
            items.removeTableEntries(Int32(root)..<Int32(end))
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
                if !rebuild { items.moveTableEntry(at: position, to: position - shift) }
            }
        }
        items.compact(keeping: runs)
        IdentifierColumn<Item>.compact(&levels, keeping: runs)
        IdentifierColumn<Item>.compact(&parents, keeping: runs)
        IdentifierColumn<Item>.compact(&sizes, keeping: runs)
        expanded.keepOnly(runs)
        if rebuild { rebuildTable() }
    }

    /// Removes every item.
    /// - Complexity: O(n).
    func removeAll() {
        items.removeAll()
        levels.removeAll()
        parents.removeAll()
        sizes.removeAll()
        expanded = ExpansionBits()
    }

    // MARK: The table

    /// Adds key → position entries for the (new, distinct) items in `positions`.
    /// - Complexity: O(positions.count) expected.
    func addTableEntries(_ positions: Range<Int>) {
        items.makeTableUnique()
        // Every other position has its entry: a prefix when the new ones are at the end.
        reserveTable(count, entriesArePrefix: positions.upperBound == count ? positions.lowerBound : nil)
        items.addTableEntries(positions)
    }

    /// Room in the table for `count` entries (see ``IdentifierColumn/reserveTable(_:entriesArePrefix:)``).
    /// Running out of memory traps, as other mutations of the outline do.
    /// - Complexity: O(n) when the table grows, amortized away; O(1) otherwise.
    @inline(__always)
    func reserveTable(_ count: Int, entriesArePrefix prefix: Int?) {
        do throws(CoreError) { try items.reserveTable(count, entriesArePrefix: prefix) } catch {
            fatalError("section snapshot: \(error) (identifier table for \(count) items)")
        }
    }

    /// Rebuilds the table from the key array.
    /// - Complexity: O(n) expected.
    func rebuildTable() {
        items.removeAllTableEntries()
        reserveTable(count, entriesArePrefix: 0)
        addTableEntries(0..<count)
    }
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
        ids = storage.items.ids.values
        keys = storage.items.keyArray
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
        ids = ContiguousArray(storage.items.ids.values[range])
        keys = storage.items.withKeys { ContiguousArray($0[range]) }
        levels = ContiguousArray(storage.levels[range].lazy.map { $0 - baseLevel })
        parents = ContiguousArray(storage.parents[range].lazy.map { $0 < offset ? -1 : $0 - offset })
        sizes = ContiguousArray(storage.sizes[range])
        expanded = storage.expanded.extracting(range)
    }
}
