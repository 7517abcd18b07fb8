extension FlatSnapshot {
    /// The flat form of the snapshot `storage` holds, for the engine.
    /// - Parameters:
    ///   - slots: whether to record each position's slot (needed to reach the identifiers
    ///     when keys are hashes; integer keys are the identifiers); slots that run in display
    ///     order are recorded as that fact alone (``itemSlotsRunInOrder``).
    ///   - other: the flat form of the snapshot this one is diffed against. Where both list
    ///     the same section keys, item keys or section sizes, the arrays are `other`'s own
    ///     (shared, not copied): a reload of 10^6 items then writes no key array, and the
    ///     core sees one array on both sides.
    /// - Complexity: O(n + s).
    init<S, I>(_ storage: SnapshotStorage<S, I>, slots: Bool, sharingWith other: FlatSnapshot? = nil) {
        let order = storage.sectionOrder
        sectionSlots = slots ? Array(order) : []
        let sectionKeys = order.map { storage.sectionKeys[Int($0)] }
        self.sectionKeys = other.map { $0.sectionKeys == sectionKeys ? $0.sectionKeys : sectionKeys } ?? sectionKeys
        var slotArray: [Int32] = []
        var runsInOrder: Bool? = nil
        // Everything is read through borrowed buffers and written in place: no per-section
        // access check or retain, no per-element append (which checks capacity and
        // uniqueness). A 10^6-item snapshot is gathered in a few milliseconds.
        (itemKeys, starts) = storage.sectionItems.withUnsafeBufferPointer { sectionItems in
            let total = order.reduce(0) { $0 + sectionItems[Int($1)].count }
            // Slots that run in display order (a snapshot built by appends, the usual case)
            // are not written out: position p is slot p.
            if slots {
                runsInOrder = Self.slotsRunInDisplayOrder(order, sectionItems, count: storage.itemCount)
                if runsInOrder == false { slotArray = Self.displaySlots(order, sectionItems, total: total) }
            }
            // Such a snapshot also holds its keys in display order: the flat form borrows the
            // array (an O(1) conversion sharing the buffer, the identifiers' own for 64-bit
            // integers) instead of copying n keys.
            let borrowed = { () -> [UInt64]? in
                (runsInOrder ?? Self.slotsRunInDisplayOrder(order, sectionItems, count: storage.itemCount)) ? storage.itemKeyArray : nil
            }
            return storage.withItemKeys { keys in
                Self.gatherKeys(order: order, sectionItems: sectionItems, keys: keys, total: total, sharingWith: other, borrowed: borrowed)
            }
        }
        itemSlots = slotArray
        itemSlotsRunInOrder = runsInOrder ?? false
    }

    /// The flat form of the snapshot `storage` holds with keys that `itemKeys` makes, in
    /// place of its own: given the items' slots in display order, one key per slot (the keys
    /// of the `id`s of values matched by `id`). Slots are recorded (the keys are hashes of
    /// something other than the items).
    /// - Complexity: O(n + s) plus `itemKeys`.
    init<S, I>(_ storage: SnapshotStorage<S, I>, itemKeys: (UnsafeBufferPointer<Int32>) -> [UInt64]) {
        let order = storage.sectionOrder
        sectionSlots = Array(order)
        sectionKeys = order.map { storage.sectionKeys[Int($0)] }
        (itemSlots, starts) = storage.sectionItems.withUnsafeBufferPointer { sectionItems in
            (Self.displaySlots(order, sectionItems, total: storage.itemCount), Self.starts(order, sectionItems))
        }
        self.itemKeys = itemSlots.withUnsafeBufferPointer(itemKeys)
        precondition(self.itemKeys.count == itemSlots.count, "Diffable: \(self.itemKeys.count) item keys for \(itemSlots.count) items")
    }

    /// The items' slots in display order (`total` of them).
    /// - Complexity: O(n + s).
    fileprivate static func displaySlots(
        _ order: ContiguousArray<Int32>, _ sectionItems: UnsafeBufferPointer<ContiguousArray<Int32>>, total: Int
    ) -> [Int32] {
        [Int32](filling: total) { buffer, initialized in
            for section in order {
                sectionItems[Int(section)].withUnsafeBufferPointer { sectionSlots in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[initialized...]).initialize(fromContentsOf: sectionSlots)
                    initialized += sectionSlots.count
                }
            }
        }
    }

    /// Whether the sections' slot lists, in `order`, are exactly 0, 1, …, `count` − 1.
    /// Each section's slots are checked without an exit per slot (their differences from the
    /// run are OR-ed together), a loop the compiler vectorizes: about 1 instruction a slot
    /// where an early exit per slot cost 7.
    /// - Complexity: O(n + s), stopping at the first section out of order.
    static func slotsRunInDisplayOrder(
        _ order: ContiguousArray<Int32>, _ sectionItems: UnsafeBufferPointer<ContiguousArray<Int32>>, count: Int
    ) -> Bool {
        var next: Int32 = 0
        for section in order {
            let inOrder = sectionItems[Int(section)].withUnsafeBufferPointer { slots in
                var mismatch: Int32 = 0
                for offset in 0..<slots.count { mismatch |= slots[offset] ^ (next &+ Int32(truncatingIfNeeded: offset)) }
                next &+= Int32(truncatingIfNeeded: slots.count)
                return mismatch == 0
            }
            guard inOrder else { return false }
        }
        return Int(next) == count
    }

    /// The item keys in display order and the section starts, `other`'s arrays where they are
    /// equal. The common part is found by comparing in place; from the first difference on,
    /// the snapshot's own key array when `borrowed` gives it, otherwise keys are copied (the
    /// equal part with one memory copy).
    /// - Complexity: O(n + s).
    private static func gatherKeys(
        order: ContiguousArray<Int32>, sectionItems: UnsafeBufferPointer<ContiguousArray<Int32>>, keys: UnsafeBufferPointer<UInt64>,
        total: Int, sharingWith other: FlatSnapshot?, borrowed: () -> [UInt64]?
    ) -> (keys: [UInt64], starts: [UInt32]) {
        // How many leading sections have other's sizes, and how many leading items other's keys.
        var sameSections = 0, sameItems = 0
        if let other {
            other.itemKeys.withUnsafeBufferPointer { otherKeys in
                other.starts.withUnsafeBufferPointer { otherStarts in
                    for section in order {
                        var whole = true
                        sectionItems[Int(section)].withUnsafeBufferPointer { sectionSlots in
                            for slot in sectionSlots {
                                guard sameItems < otherKeys.count, keys[Int(slot)] == otherKeys[sameItems] else {
                                    whole = false
                                    return
                                }
                                sameItems += 1
                            }
                        }
                        guard whole, sameSections + 1 < otherStarts.count, Int(otherStarts[sameSections + 1]) == sameItems else { return }
                        sameSections += 1
                    }
                }
            }
        }
        if let other, sameItems == total, other.itemKeys.count == total {
            let sameStarts = sameSections == order.count && other.starts.count == order.count + 1
            return (other.itemKeys, sameStarts ? other.starts : starts(order, sectionItems))
        }
        if let keys = borrowed() { return (keys, starts(order, sectionItems)) }
        let gathered = [UInt64](filling: total) { buffer, initialized in
            if sameItems > 0, let other {
                other.itemKeys.withUnsafeBufferPointer { otherKeys in
                    _ = buffer.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: otherKeys[..<sameItems]))
                }
            }
            initialized = sameItems
            // The section holding the first different key, from that key on; then the rest.
            var skip = sameItems - (other.map { Int($0.starts[sameSections]) } ?? 0)
            for section in order.dropFirst(sameSections) {
                sectionItems[Int(section)].withUnsafeBufferPointer { sectionSlots in
                    for slot in sectionSlots.dropFirst(skip) {
                        buffer[initialized] = keys[Int(slot)]
                        initialized += 1
                    }
                }
                skip = 0
            }
        }
        return (gathered, starts(order, sectionItems))
    }

    /// Section starts: 0, then the running item count after each section in `order`.
    /// - Complexity: O(s).
    private static func starts(_ order: ContiguousArray<Int32>, _ sectionItems: UnsafeBufferPointer<ContiguousArray<Int32>>) -> [UInt32] {
        var starts: [UInt32] = [0]
        starts.reserveCapacity(order.count + 1)
        var total: UInt32 = 0
        for section in order {
            total += UInt32(sectionItems[Int(section)].count)
            starts.append(total)
        }
        return starts
    }

    /// The flat positions of those of `ids` that `storage` (the snapshot this is the flat form
    /// of) holds, in the order given. The identifier table is probed for every id first, then
    /// the positions are read in one tight pass from the section starts gathered here: the
    /// cache misses of consecutive ids overlap instead of queueing behind a per-id walk of
    /// the section-size tree.
    /// - Complexity: O(k) expected for k ids.
    func positions<S, I>(of ids: [I], in storage: SnapshotStorage<S, I>) -> [UInt32] {
        guard !ids.isEmpty else { return [] }
        // A loop over the buffer, not `compactMap`: no allocation per element in unspecialized
        // code (see `mapped(_:)`).
        var slots: [Int32] = []
        slots.reserveCapacity(ids.count)
        ids.withUnsafeBufferPointer { ids in
            for id in ids {
                if let slot = storage.itemSlot(id) { slots.append(slot) }
            }
        }
        return storage.itemPlace.withUnsafeBufferPointer { itemPlace in
            storage.sectionPosition.withUnsafeBufferPointer { sectionPosition in
                starts.withUnsafeBufferPointer { starts in
                    slots.map { slot in
                        let place = itemPlace[Int(slot)]
                        return starts[Int(sectionPosition[Int(place.section)])] &+ UInt32(place.index)
                    }
                }
            }
        }
    }
}

extension DiffContext.FlatRefresh {
    /// `newStorage`'s requests, positioned through its flat form's section starts.
    /// - Complexity: O(r + s) for r requests.
    init<S, I>(_ newStorage: SnapshotStorage<S, I>, flat newFlat: FlatSnapshot) {
        self.init()
        // Most snapshots request no refresh: the generic reads below look up the metadata
        // of their arrays and closures even when they are empty. The lists are counted in
        // place, not asked `isEmpty`: on an array of a type this code is not specialized for,
        // that runs `Collection`'s generic default (the array's metadata looked up, about 330
        // instructions a list).
        if newStorage.reloadedItems.count != 0 { reloadItems = newFlat.positions(of: newStorage.reloadedItems, in: newStorage) }
        if newStorage.reconfiguredItems.count != 0 {
            reconfigureItems = newFlat.positions(of: newStorage.reconfiguredItems, in: newStorage)
        }
        if newStorage.reloadedSections.count != 0 {
            reloadSections = newStorage.reloadedSections.compactMap { newStorage.sectionSlot($0) }.map {
                UInt32(newStorage.sectionPosition[Int($0)])
            }
        }
    }
}

extension SnapshotStorage {
    /// The items' slots in display order.
    /// - Complexity: O(n + s).
    var displaySlots: [Int32] {
        sectionItems.withUnsafeBufferPointer { FlatSnapshot.displaySlots(sectionOrder, $0, total: itemCount) }
    }
}
