/// The copy-on-write storage of ``DiffableDataSourceSnapshot``.
///
/// Items and sections live in *slots*: flat arrays indexed by a slot number that
/// does not change when other items move, so the identifier tables (key → slot,
/// in C) never need rebuilding. Each section keeps the slots of its items in
/// order; each item knows its section slot and its index in that section. A
/// deleted item slot is refilled by the last slot (swap-remove), so item arrays
/// stay dense; section slots go to a free list.
///
/// Flat positions (`indexOfItem`) come from prefix sums of the section sizes (a Fenwick
/// tree) that every mutation keeps exact: O(log s) per section whose size changed, and a
/// query is O(log s). A snapshot's storage is shared by its copies across threads, so the
/// one cache a query fills, the sums as a plain array once lookups outnumber changes
/// (``SectionStartsCache``), is published atomically; nothing else a read touches is written.
///
/// The item and section arrays opt out of run-time exclusivity checks, as the outline's
/// storage does and for the same reason: each access to a class's stored property otherwise
/// registers with the runtime (a thread-local lookup and a set insert), ~7% of building and
/// diffing two 100-item snapshots in a profile. Only the storage's owner touches them, no
/// access to one is open while code that could reach the same storage runs (identifiers'
/// `==` and `hash` see identifiers only), and the debug test suite ran with the checks on
/// until they were turned off.
///
/// The arrays and the column are plain stored properties, read in place by the snapshot's
/// code (a `private(set)` one read from another file would go through its getter, a retained
/// copy per read); only this storage's methods write them, which `make lint` checks
/// (docs/ARCHITECTURE.md, "How the column is read").
@usableFromInline
final class SnapshotStorage<S: Hashable, I: Hashable>: SnapshotStorageClass {
    let sectionStrategy = KeyStrategy.of(S.self)

    /// The items' identifiers and keys by slot, and the table from key to slot (this
    /// storage's own: ``copy()`` copies it).
    @exclusivity(unchecked) @usableFromInline var items = IdentifierColumn<I>()
    /// Each item's section slot and index in it, side by side: read together (a position is
    /// both), and 8 bytes like the identifiers, so that every item array grows through the
    /// same sizes (see ``reserveItems(_:)``).
    @exclusivity(unchecked) var itemPlace: ContiguousArray<ItemPlace> = []

    // Sections, by slot. A free slot has position -1 and holds a displayed section's
    // identifier (see ``releaseRemovedSectionIDs()``): not an optional, whose metadata code not
    // specialized for `S` looks up at run time (about 330 instructions) in every section
    // lookup, insert and diff.
    @exclusivity(unchecked) @usableFromInline var sectionIDs: ContiguousArray<S> = []
    @exclusivity(unchecked) var sectionKeys: ContiguousArray<UInt64> = []
    @exclusivity(unchecked) var sectionItems: ContiguousArray<ContiguousArray<Int32>> = []
    @exclusivity(unchecked) var sectionPosition: ContiguousArray<Int32> = [] {
        didSet { sectionStarts.invalidate() }  // the cached starts are by section slot
    }
    @exclusivity(unchecked) private var freeSectionSlots: [Int32] = []
    let sectionTable: IdentifierTable
    /// Scratch marks per section slot for ``detachItems(_:)`` (equal to `markEpoch` when marked).
    @exclusivity(unchecked) private var sectionMarks: ContiguousArray<UInt32> = []
    @exclusivity(unchecked) private var markEpoch: UInt32 = 0
    /// Section slots in display order.
    @exclusivity(unchecked) var sectionOrder: ContiguousArray<Int32> = []

    // Pending refreshes of this snapshot only. Unchecked like the arrays above: every diff and
    // apply asks whether there are any (each checked read registered with the runtime, about
    // 80 instructions).
    @exclusivity(unchecked) var reloadedItems: [I] = []
    @exclusivity(unchecked) var reloadedItemSet: Set<I> = []
    @exclusivity(unchecked) var reconfiguredItems: [I] = []
    @exclusivity(unchecked) var reconfiguredItemSet: Set<I> = []
    @exclusivity(unchecked) var reloadedSections: [S] = []
    @exclusivity(unchecked) var reloadedSectionSet: Set<S> = []

    /// Items per displayed section as prefix sums, exact after every mutation (reads never
    /// rebuild it, so copies sharing storage can be read from any thread): a section's size
    /// change is O(log s), where a plain array of starts would cost O(s) per append. Unchecked
    /// like the arrays above: every `indexOfItem` reads it, and a checked read registered the
    /// access with the runtime (a sixth of a lookup among 10^4 items).
    @exclusivity(unchecked) private(set) var sectionOffsets = FenwickTree() {
        didSet { sectionStarts.invalidate() }
    }
    /// Each displayed section's first flat index by section slot (so a lookup skips the
    /// section's position), built by lookups while the sections do not change (see
    /// ``SectionStartsCache``): dropped on every change of ``sectionOffsets`` or
    /// ``sectionPosition``, never copied.
    let sectionStarts = SectionStartsCache()

    @usableFromInline
    init() {
        sectionTable = IdentifierTable()
    }

    /// Copies eagerly: a copy is made only right before a mutation, which would
    /// otherwise copy each array on its first write anyway.
    private init(copying other: SnapshotStorage) {
        func own<T>(_ array: ContiguousArray<T>) -> ContiguousArray<T> {
            array.withUnsafeBufferPointer { ContiguousArray($0) }
        }
        items = other.items.ownedCopy()
        itemPlace = own(other.itemPlace)
        sectionIDs = other.sectionIDs
        sectionKeys = other.sectionKeys
        sectionItems = other.sectionItems
        sectionPosition = other.sectionPosition
        freeSectionSlots = other.freeSectionSlots
        sectionTable = other.sectionTable.copy()
        sectionOrder = other.sectionOrder
        reloadedItems = other.reloadedItems
        reloadedItemSet = other.reloadedItemSet
        reconfiguredItems = other.reconfiguredItems
        reconfiguredItemSet = other.reconfiguredItemSet
        reloadedSections = other.reloadedSections
        reloadedSectionSet = other.reloadedSectionSet
        sectionOffsets = other.sectionOffsets
    }

    /// - Complexity: O(n + s) (array copies share buffers until written; tables are copied).
    @usableFromInline
    func copy() -> SnapshotStorage { SnapshotStorage(copying: self) }

    var itemCount: Int {
        @inline(__always) get { items.ids.count }
    }
    var sectionCount: Int { sectionOrder.count }

    // MARK: Lookups

    @inline(__always)
    func itemKey(_ id: I) -> UInt64 { items.strategy.key(id) }  // the strategy read in place: a call on the column would copy it

    /// The identifier of the item at `slot`.
    /// - Complexity: O(1).
    @inline(__always)
    func itemID(atSlot slot: Int32) -> I {
        // Plain bytes: the array's values read in place. A call on the identifier array (its
        // subscript) from the library's unspecialized code copies its two fields, a retain and
        // a release each per read.
        IdentifierArray<I>.mayStoreBits ? items.ids[Int(slot)] : items.ids.values[Int(slot)]
    }

    /// The keys of `ids`, in order.
    /// - Complexity: O(k) (plus string and byte lengths).
    func itemKeys(of ids: [I]) -> [UInt64] { items.strategy.keys(ids) }

    /// The stored item keys by slot, valid inside `body` (see ``IdentifierColumn/withKeys(_:)``).
    /// The column's fields read in place, not through ``IdentifierColumn/withKeys(_:)``: every
    /// diff reads both snapshots' keys, and a call on the column would copy it (two more
    /// retains and releases per read in code not specialized for the identifier type).
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    func withItemKeys<R, E: Error>(_ body: (UnsafeBufferPointer<UInt64>) throws(E) -> R) throws(E) -> R {
        guard items.isOwnKey else { return try items.storedKeys.withUnsafeBufferPointer(body) }
        return try items.ids.withUnsafeBufferPointer { ids throws(E) in try IdentifierColumn.ownKeys(ids, body) }
    }

    /// The item keys by slot as an array sharing the column's buffer, not a copy (the fields
    /// read in place, as in ``withItemKeys(_:)``).
    /// - Complexity: O(1).
    var itemKeyArray: [UInt64] {
        items.isOwnKey ? Array(IdentifierColumn.ownKeyArray(items.ids.values)) : Array(items.storedKeys)
    }

    /// Enters `keys` → `firstSlot + i` in the item table in one prefetched batch, before the
    /// items are appended (``appendUnattachedItems(_:keys:)``); see
    /// ``IdentifierColumn/enterBatch(_:first:conflicts:)`` for what `conflicts` reports.
    /// - Returns: The number of keys entered.
    /// - Complexity: O(k) expected.
    func insertItemKeys(_ keys: [UInt64], firstSlot: Int32, conflicts: inout [UInt8]) -> Int {
        precondition(conflicts.count >= keys.count, "item table batch insert: fewer conflict flags than keys")
        if keys.isEmpty { return 0 }
        return keys.withUnsafeBufferPointer { keys in
            conflicts.withUnsafeMutableBufferPointer { items.enterBatch(keys, first: Int(firstSlot), conflicts: $0.baseAddress!) }
        }
    }

    /// Takes back every item table entry, for a storage that has no items yet and whose
    /// batch ``insertItemKeys(_:firstSlot:conflicts:)`` met a conflict.
    /// - Complexity: O(table capacity).
    func removeAllItemKeys() {
        precondition(items.ids.count == 0, "item table entries removed under stored items")
        items.removeAllTableEntries()
    }

    @inline(__always)
    func sectionKey(_ id: S) -> UInt64 { sectionStrategy.key(id) }

    /// - Complexity: O(1) expected.
    @inline(__always)
    func itemSlot(_ id: I, key: UInt64) -> Int32? {
        // The column's fields read in place, not through a call on it, and the table borrowed,
        // not retained (see IdentifierColumn).
        // Compared in place: a copy of an identifier kept as bits costs a retain and a release.
        // Plain bytes compare the array's values in place (see ``itemID(atSlot:)``).
        Unmanaged.passUnretained(items.table)._withUnsafeGuaranteedRef {
            IdentifierArray<I>.mayStoreBits
                ? $0.find(key) { items.ids.identifier(at: Int($0), equals: id) } : $0.find(key) { items.ids.values[Int($0)] == id }
        }
    }

    @inline(__always)
    func itemSlot(_ id: I) -> Int32? { itemSlot(id, key: itemKey(id)) }

    /// The slots of the identifiers present, in their order (a prefetched batch, see
    /// ``IdentifierColumn/slots(of:)``).
    /// - Complexity: O(k) expected.
    func itemSlots(of identifiers: [I]) -> [Int32] { items.slots(of: identifiers) }

    /// - Complexity: O(1) expected.
    @inline(__always)
    func sectionSlot(_ id: S, key: UInt64) -> Int32? {
        // The table holds live slots only, so a free slot's stale identifier is never compared.
        sectionTable.find(key) { slot in sectionIDs[Int(slot)] == id }
    }

    /// - Complexity: O(1) expected.
    @usableFromInline
    func sectionSlot(_ id: S) -> Int32? { sectionSlot(id, key: sectionKey(id)) }

    /// Brings the item counts of the sections at display positions `position...` up to date
    /// (those before it are unchanged by the mutation that calls this).
    /// - Complexity: O((s − position) log s), O(s) when most of the sections moved.
    private func refreshSectionOffsets(from position: Int) {
        let count = sectionOrder.count
        let first = Swift.min(Swift.max(position, 0), count, sectionOffsets.count)
        if first < count / 2 {
            sectionOffsets = FenwickTree(sectionOrder.lazy.map { self.sectionItems[Int($0)].count })
            return
        }
        sectionOffsets.removeSuffix(from: first)
        for index in first..<count { sectionOffsets.append(sectionItems[Int(sectionOrder[index])].count) }
    }

    /// Records a size change of one section (nothing while it is not displayed).
    /// - Complexity: O(log s).
    func refreshSectionOffset(ofSlot section: Int32) {
        let position = Int(sectionPosition[Int(section)])
        if position >= 0 { sectionOffsets.set(sectionItems[Int(section)].count, at: position) }
    }

    /// The identifier of the section at display position `position` (in range).
    /// - Complexity: O(1).
    @inline(__always)
    func sectionID(atPosition position: Int) -> S { sectionIDs[Int(sectionOrder[position])] }

    /// The number of items in the section at display position `position` (in range).
    /// - Complexity: O(1).
    @inline(__always)
    func itemCount(inSectionAt position: Int) -> Int { sectionItems[Int(sectionOrder[position])].count }

    /// The identifier of the item at `index` in the section at display position `section`
    /// (both in range).
    /// - Complexity: O(1).
    @inline(__always)
    func itemID(inSectionAt section: Int, index: Int) -> I { items.ids[Int(sectionItems[Int(sectionOrder[section])][index])] }

    /// The slot of the item at `index` in the section at display position `section` (both in
    /// range).
    /// - Complexity: O(1).
    @inline(__always)
    func itemSlot(inSectionAt section: Int, index: Int) -> Int32 { sectionItems[Int(sectionOrder[section])][index] }

    /// The display position of the item at `slot`: its section's and its index in it.
    /// - Complexity: O(1).
    @inline(__always)
    func displayPlace(ofItemSlot slot: Int32) -> (section: Int, index: Int) {
        let place = itemPlace[Int(slot)]
        return (Int(sectionPosition[Int(place.section)]), Int(place.index))
    }

    /// The item's position counting every item of the sections before its own.
    /// - Complexity: O(1) while the section starts are cached, otherwise O(log s) amortized
    ///   (see ``sectionStart(walkingTo:)``).
    @inline(__always)
    func flatIndex(ofItemSlot slot: Int32) -> Int {
        let place = itemPlace[Int(slot)]
        guard let starts = sectionStarts.starts else { return sectionStart(walkingTo: place.section) + Int(place.index) }
        return starts[Int(place.section)] + Int(place.index)
    }

    /// The flat index of the first item of the displayed section at `section` (a slot), when
    /// the starts are not cached: the tree's prefix sum, or the starts built and published
    /// when enough lookups have walked the tree since the last change.
    /// - Complexity: O(log s), or O(s) for the lookup that builds the starts (once per
    ///   s / 8 lookups after a change, so O(log s) amortized).
    @inline(never)
    func sectionStart(walkingTo section: Int32) -> Int {
        let count = sectionOrder.count
        guard sectionStarts.shouldBuild(sectionCount: count) else {
            return sectionOffsets.prefixSum(Int(sectionPosition[Int(section)]))
        }
        let starts = sectionStarts.publish(count: sectionPosition.count) { starts in
            var start = 0
            for displayed in sectionOrder {
                starts[Int(displayed)] = start
                start += sectionItems[Int(displayed)].count
            }
        }
        return starts[Int(section)]
    }

    // MARK: Sections

    /// Room for `count` more sections in the section table (see ``reserveItems(_:)``).
    /// - Throws: ``SnapshotError/outOfMemory`` (nothing changed).
    /// - Complexity: O(s) when it grows, amortized away.
    @usableFromInline
    func reserveSections(_ count: Int) throws(SnapshotError) {
        // New sections take free slots or slots past the end: all below sectionKeys.count + count.
        let table = sectionTable
        do {
            try sectionKeys.withUnsafeBufferPointer { keys throws(CoreError) in try table.reserve(keys.count + count, keys: keys) }
        } catch { throw .outOfMemory }
    }

    /// Inserts new sections (not yet present) at display position `position`; reserve first.
    /// - Complexity: O(s + k).
    func insertSections(_ ids: [S], keys: [UInt64], at position: Int) {
        storeSectionIDs(ids, inSlots: placeSections(keys: keys, at: position))
    }

    /// The first step of inserting new sections (not yet present) keyed `keys` at display
    /// position `position` (reserve first): everything but their identifiers, which the caller
    /// stores at once with ``storeSectionIDs(_:inSlots:)``, before anything reads the storage.
    /// Free slots are taken first, then slots past the end in order.
    /// - Returns: The sections' slots, in the order of `keys`.
    /// - Complexity: O(s + k).
    @usableFromInline
    func placeSections(keys: [UInt64], at position: Int) -> ContiguousArray<Int32> {
        var slots = ContiguousArray<Int32>()
        slots.reserveCapacity(keys.count)
        for key in keys {
            let slot: Int32
            if let free = freeSectionSlots.popLast() {
                slot = free
                sectionKeys[Int(slot)] = key
                sectionItems[Int(slot)] = []
            } else {
                // Past the end of every section array; the identifier array catches up in
                // storeSectionIDs(_:inSlots:).
                slot = Int32(sectionKeys.count)
                sectionKeys.append(key)
                sectionItems.append([])
                sectionPosition.append(-1)
            }
            sectionTable.insert(key: key, slot: slot)
            slots.append(slot)
        }
        sectionOrder.insert(contentsOf: slots, at: position)
        renumberSections(from: position)
        return slots
    }

    /// The second step: `ids[i]` stored in `slots[i]`, the slots ``placeSections(keys:at:)``
    /// gave (a free slot is overwritten, a new one appended: they come in that order).
    /// Inlinable, so that the array of `S` grows and is written in code specialized for `S`.
    /// - Complexity: O(k) amortized.
    @inlinable
    func storeSectionIDs(_ ids: [S], inSlots slots: ContiguousArray<Int32>) {
        // By index, not through `zip`: in code not specialized for `S` the zipped iterator
        // looks up the metadata of its iterator and tuple types on every step.
        for index in 0..<ids.count {
            let slot = Int(slots[index])
            assert(slot <= sectionIDs.count, "section slot \(slot) past the end of the identifiers")
            if slot < sectionIDs.count { sectionIDs[slot] = ids[index] } else { sectionIDs.append(ids[index]) }
        }
    }

    /// Removes displayed sections and all their items.
    /// - Complexity: O(s + items of the removed sections + moved-slot fix-ups).
    func removeSections(_ slots: [Int32]) {
        var itemSlots: [Int32] = []
        for slot in slots { itemSlots.append(contentsOf: sectionItems[Int(slot)]) }
        removeItemSlotsFromArrays(itemSlots)
        let removing = Set(slots)
        for slot in slots {
            sectionTable.remove(key: sectionKeys[Int(slot)], slot: slot)
            sectionItems[Int(slot)] = []
            sectionPosition[Int(slot)] = -1
            freeSectionSlots.append(slot)
        }
        sectionOrder.removeAll { removing.contains($0) }
        releaseRemovedSectionIDs()
        renumberSections(from: 0)
    }

    /// Lets go of the identifiers of removed sections, as UIKit's snapshot does when a section
    /// is deleted (an identifier that is or holds an object is released then, not when its
    /// slot is next reused): every free slot takes a displayed section's identifier, or, when
    /// none is left, the section arrays are emptied.
    /// - Complexity: O(free slots).
    private func releaseRemovedSectionIDs() {
        if let displayed = sectionOrder.first {
            let filler = sectionIDs[Int(displayed)]
            for slot in freeSectionSlots { sectionIDs[Int(slot)] = filler }
        } else {
            sectionIDs.removeAll(keepingCapacity: true)
            sectionKeys.removeAll(keepingCapacity: true)
            sectionItems.removeAll(keepingCapacity: true)
            sectionPosition.removeAll(keepingCapacity: true)
            freeSectionSlots.removeAll(keepingCapacity: true)
        }
    }

    /// Moves a displayed section to display position `position` (counted after its removal).
    /// - Complexity: O(s).
    func moveSection(_ slot: Int32, to position: Int) {
        let current = Int(sectionPosition[Int(slot)])
        sectionOrder.remove(at: current)
        sectionOrder.insert(slot, at: position)
        renumberSections(from: min(current, position))
    }

    private func renumberSections(from position: Int) {
        for index in position..<sectionOrder.count { sectionPosition[Int(sectionOrder[index])] = Int32(index) }
        refreshSectionOffsets(from: position)
    }

    // MARK: Items

    /// Room for `count` more items without regrowing arrays or the table: the one
    /// step of an item insertion that can fail, taken before anything changes. An empty
    /// column gets no room for identifiers, so that an append of a whole array can share it;
    /// the item-by-item paths that follow a failed batch (a repeat, a shared key) grow it as
    /// they append.
    /// - Throws: ``SnapshotError/outOfMemory`` (nothing changed).
    /// - Complexity: O(n) when it grows, amortized away.
    func reserveItems(_ count: Int) throws(SnapshotError) {
        let total = items.ids.count + count
        try reserveItemTable(count)
        if itemPlace.capacity < total {
            // Every item array holds 8 bytes per slot, so a new buffer is larger than any large
            // block freed before it: the arrays' old buffers are half its size, the identifier
            // table's old one (4 bytes a slot, grown once 3/4 full) under 1/3. glibc maps a block
            // only above a threshold it raises to the largest mapped block freed, so these stay
            // mapped and go back to the system when freed. 4-byte arrays fell under it into the
            // heap, where each growth left the old buffer resident (8.5 B more per item, 10^6
            // Int items appended 100 at a time).
            let target = Swift.max(total, itemPlace.capacity * 2)
            // A column that never held identifiers reserves none for them: appending a whole
            // array then shares its storage (``IdentifierColumn/appendIdentifiers(_:sharing:)``).
            items.reserveCapacity(target, identifiers: items.ids.capacity != 0)
            itemPlace.reserveCapacity(target)
        }
    }

    /// Room in the item table for `count` more items (the arrays are the caller's: see
    /// ``reserveItems(_:)``).
    /// - Complexity: O(1), or O(n) when the table grows.
    func reserveItemTable(_ count: Int) throws(SnapshotError) {
        // Item slots are dense (0..<itemCount, see removeItemSlotsFromArrays): a growing table
        // rehashes from the keys in order.
        assert(items.table.count == items.ids.count, "item table and arrays disagree before a reserve")
        do { try items.reserveTable(items.ids.count + count, entriesArePrefix: items.ids.count) } catch { throw .outOfMemory }
    }

    /// A slot for a new item that belongs to no section yet (see ``attachItems(_:toSection:at:)``).
    /// - Complexity: O(1) expected, amortized.
    @inline(__always)
    func addUnattachedItem(_ id: I, key: UInt64) -> Int32 {
        let slot = Int32(items.ids.count)
        items.append(id, key: key)
        itemPlace.append(.unattached)
        items.withTable { $0.insert(key: key, slot: slot) }
        return slot
    }

    /// Appends new items whose table entries (consecutive slots from the current
    /// count) were already made by ``insertItemKeys(_:firstSlot:conflicts:)``.
    /// - Complexity: O(k) amortized.
    func appendUnattachedItems(_ ids: some Collection<I>, keys: some Collection<UInt64>) {
        items.append(contentsOf: ids, keys: keys)
        appendUnattachedPlaces(ids.count)
    }

    /// ``appendUnattachedItems(_:keys:)`` of a whole array, which an empty column shares.
    /// - Complexity: O(k) amortized, the identifiers O(1) when shared.
    func appendUnattachedItems(_ ids: [I], keys: [UInt64]) {
        items.append(contentsOf: ids, keys: keys)
        appendUnattachedPlaces(ids.count)
    }

    /// Appends `ids` (keyed `keys`) to a storage holding no items, their table entries made in
    /// one prefetched batch, when no two of the keys are equal. Otherwise (a repeated
    /// identifier, or two sharing a key) stores nothing, empties the table again and returns
    /// false, for the caller's item-by-item path.
    /// - Complexity: O(k) expected, plus O(table capacity) when it returns false.
    func appendItemsWithDistinctKeys(_ ids: [I], keys: [UInt64]) -> Bool {
        var conflicts = [UInt8](repeating: 0, count: keys.count)
        guard insertItemKeys(keys, firstSlot: 0, conflicts: &conflicts) == keys.count else {
            removeAllItemKeys()
            return false
        }
        appendUnattachedItems(ids, keys: keys)
        return true
    }

    /// Attaches the unattached item slots from 0 on to the sections in display order, in
    /// order: `counts[p]` consecutive slots to the section at display position `p`.
    /// - Complexity: O(n + s).
    func attachSlotsInOrder(counts: some Sequence<Int>) {
        var next: Int32 = 0
        for (position, count) in counts.enumerated() {
            let first = next
            // Filled, not `Array(range)`: that copies a range element by element (15 instructions an item).
            let slots = [Int32](filling: count) { slots, filled in
                for index in 0..<count { slots[index] = first + Int32(index) }
                filled = count
            }
            attachItems(slots, toSection: sectionOrder[position], at: 0)
            next += Int32(count)
        }
    }

    /// The places of `count` items just appended to the column, in no section yet.
    /// - Complexity: O(count) amortized.
    func appendUnattachedPlaces(_ count: Int) {
        itemPlace.append(contentsOf: repeatElement(.unattached, count: count))
    }

    /// Undoes ``addUnattachedItem(_:key:)`` for every slot from `first` on.
    /// - Complexity: O(number of slots discarded).
    func discardUnattachedItems(from first: Int32) {
        items.removeTableEntries(first..<Int32(items.ids.count))
        truncateItemArrays(to: Int(first))
    }

    /// Drops the item slots from `count` on from every item array (capacity stays).
    /// - Complexity: O(number of slots dropped).
    private func truncateItemArrays(to count: Int) {
        items.truncate(to: count)
        itemPlace.removeSubrange(count...)
    }

    /// Puts detached or unattached item slots into a section at `index`, in order.
    /// - Complexity: O(k + size of the section + log s).
    func attachItems(_ slots: [Int32], toSection section: Int32, at index: Int) {
        itemPlace.withUnsafeMutableBufferPointer { places in
            for slot in slots { places[Int(slot)].section = section }
        }
        if index == sectionItems[Int(section)].count {
            sectionItems[Int(section)].append(contentsOf: slots)
        } else {
            sectionItems[Int(section)].insert(contentsOf: slots, at: index)
        }
        renumberItems(inSection: section, from: index)
        refreshSectionOffset(ofSlot: section)
    }

    /// Takes item slots out of their sections (they stay in the table and arrays,
    /// with index -1 until attached again).
    /// - Complexity: O(k + sizes of the sections involved).
    func detachItems(_ slots: [Int32]) {
        if slots.count == 1 {
            let slot = slots[0], section = itemPlace[Int(slot)].section, index = Int(itemPlace[Int(slot)].index)
            sectionItems[Int(section)].remove(at: index)
            itemPlace[Int(slot)].index = -1
            renumberItems(inSection: section, from: index)
            refreshSectionOffset(ofSlot: section)
            return
        }
        // Mark the detached slots (index -1) and the sections they leave, then compact each once.
        var touched: [Int32] = []
        markEpoch &+= 1
        if sectionMarks.count < sectionIDs.count {
            sectionMarks.append(contentsOf: repeatElement(0, count: sectionIDs.count - sectionMarks.count))
        }
        itemPlace.withUnsafeMutableBufferPointer { places in
            for slot in slots {
                let section = places[Int(slot)].section
                if sectionMarks[Int(section)] != markEpoch {
                    sectionMarks[Int(section)] = markEpoch
                    touched.append(section)
                }
                places[Int(slot)].index = -1
            }
        }
        for section in touched {
            // A borrowed view: a copy of `itemPlace` alive across the renumbering would force a full copy.
            itemPlace.withUnsafeBufferPointer { place in
                sectionItems[Int(section)].removeAll { place[Int($0)].index < 0 }
            }
            renumberItems(inSection: section, from: 0)
        }
        for section in touched { refreshSectionOffset(ofSlot: section) }
    }

    /// Deletes items entirely.
    /// - Complexity: O(k + sizes of the sections involved).
    func removeItems(_ slots: [Int32]) {
        detachItems(slots)
        removeItemSlotsFromArrays(slots)
    }

    /// Writes through a borrowed buffer: a struct field written through the array's subscript
    /// costs a call per item (its `_modify` accessor).
    private func renumberItems(inSection section: Int32, from index: Int) {
        sectionItems[Int(section)].withUnsafeBufferPointer { slots in
            itemPlace.withUnsafeMutableBufferPointer { places in
                // A section's positions fit in Int32 (the slot limit): no conversion check.
                for position in index..<slots.count { places[Int(slots[position])].index = Int32(truncatingIfNeeded: position) }
            }
        }
    }

    /// Frees item slots (distinct; already out of their sections' lists, or in sections being
    /// removed): each hole below the new count is refilled by a surviving slot from above
    /// it, so the arrays stay dense. Moves run over borrowed buffers: element by element
    /// through the arrays' generic accessors, 50,000 deletions from 10^6 items took 40 ms.
    /// - Complexity: O(k log k) for k slots, plus one table update per refilled hole.
    private func removeItemSlotsFromArrays(_ slots: [Int32]) {
        guard !slots.isEmpty else { return }
        let ahead = IdentifierColumn<I>.prefetchDistance
        items.removeTableEntries(slots)
        let removed = slots.sorted()
        let count = items.ids.count, remaining = count - removed.count
        // Pair the holes below `remaining` with the survivors at or above it, top down.
        var refills: [(hole: Int, source: Int)] = []
        var source = count - 1, above = removed.count - 1
        for hole in removed where Int(hole) < remaining {
            while above >= 0 && Int(removed[above]) == source {
                above -= 1
                source -= 1
            }
            refills.append((Int(hole), source))
            source -= 1
        }
        // One pass: each refill moves the slot, updates its table entry and fixes its
        // section's list, so that their cache misses overlap (the table in a pass of its own
        // measured ~4% slower deleting 5% of 10^6 items).
        let table = items.table
        items.withUnsafeMutableSlots { ids, keys, storedKeys in
            itemPlace.withUnsafeMutableBufferPointer { places in
                // Keys as 8-byte words: the identifiers themselves when they are their own keys.
                func key(_ slot: Int) -> UInt64 { keys.unsafelyUnwrapped.load(fromByteOffset: slot &* 8, as: UInt64.self) }
                for (refill, (hole, source)) in refills.enumerated() {
                    if refill + ahead < refills.count { table.prefetch(key(refills[refill + ahead].source)) }
                    ids.copy(from: source, to: hole)
                    if !storedKeys.isEmpty { storedKeys[hole] = storedKeys[source] }
                    places[hole] = places[source]
                    table.update(key: key(hole), from: Int32(source), to: Int32(hole))
                    let section = Int(places[hole].section), position = Int(places[hole].index)
                    if section >= 0 && position >= 0 && position < sectionItems[section].count
                        && sectionItems[section][position] == Int32(source)
                    {
                        sectionItems[section][position] = Int32(hole)
                    }
                }
            }
        }
        truncateItemArrays(to: remaining)
    }

    /// Forgets pending refreshes of items that no longer exist.
    func prunePending() {
        // Counted, not asked `isEmpty` (see `DiffableDataSourceSnapshot.hasPendingUpdates`).
        if reloadedItems.count != 0 {
            reloadedItems.removeAll { itemSlot($0) == nil }
            reloadedItemSet = Set(reloadedItems)
        }
        if reconfiguredItems.count != 0 {
            reconfiguredItems.removeAll { itemSlot($0) == nil }
            reconfiguredItemSet = Set(reconfiguredItems)
        }
        if reloadedSections.count != 0 {
            reloadedSections.removeAll { sectionSlot($0) == nil }
            reloadedSectionSet = Set(reloadedSections)
        }
    }

    /// Removes every item and section.
    /// - Complexity: O(n + s).
    func removeAll() {
        items.removeAll()
        itemPlace.removeAll()
        sectionIDs.removeAll()
        sectionKeys.removeAll()
        sectionItems.removeAll()
        sectionPosition.removeAll()
        freeSectionSlots.removeAll()
        sectionTable.removeAll()
        sectionOrder.removeAll()
        reloadedItems.removeAll()
        reloadedItemSet.removeAll()
        reconfiguredItems.removeAll()
        reconfiguredItemSet.removeAll()
        reloadedSections.removeAll()
        reloadedSectionSet.removeAll()
        sectionOffsets = FenwickTree()
    }
}

@available(*, unavailable)
extension SnapshotStorage: Sendable {}

/// Where an item slot is: the slot of its section and its index in that section's list
/// (−1 while it is detached or not yet attached).
struct ItemPlace: Equatable {
    var section: Int32
    var index: Int32

    static var unattached: ItemPlace { ItemPlace(section: -1, index: -1) }
}
