import Foundation

extension DiffableDataSourceSnapshot {
    // MARK: Appending and inserting

    /// Appends items to a section (nil: the last section). Items already in the
    /// snapshot are moved here, as in UIKit (reported through ``DiffableDiagnostics``).
    ///
    /// Traps when no section is given and there are none, when the section is
    /// unknown, or when `identifiers` repeats an identifier; ``tryAppendItems(_:toSection:)``
    /// throws instead.
    /// - Complexity: O(k + log s) amortized when appending new identifiers to any section;
    ///   O(k + size of each section touched + t log s) when t sections lose existing items
    ///   that move here.
    @inlinable
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection sectionIdentifier: SectionIdentifierType? = nil) {
        // The keys are made here, in the caller's module, where the identifier type is known.
        let strategy = KeyStrategy.of(ItemIdentifierType.self)
        // A value holding references, keyed by its `hashValue`, is hashed on the snapshot's own
        // copy (a type without references never takes this branch: it folds away).
        let hashesCopies = strategy == .hashValue && !_isPOD(ItemIdentifierType.self)
        if hashesCopies, appendNewItems(identifiers, keys: nil, toSection: sectionIdentifier) { return }
        // Keys in a temporary buffer, copied once into the column: an array of them would
        // be one allocation, copy and release more per call.
        strategy.withKeys(of: identifiers) { keys in
            // New items of every other type take the inlined path too: an app's own, whose general
            // path below would run unspecialized, and the library's own, whose pre-specialized general path makes
            // a conflict array and a slot array this one does not (`UUID` build + diff at 10^4
            // −1.8%, `String` −1.0%, `Int` −1.2% and +0.5% at 10^2).
            if !hashesCopies, appendNewItems(identifiers, keys: keys, toSection: sectionIdentifier) { return }
            appendItems(identifiers, keys: Array(keys), toSection: sectionIdentifier)
        }
    }

    /// Appends `identifiers` when all of them are new and the section exists, in code
    /// specialized where it is inlined: the library's generic body would look up the generic
    /// metadata of the identifier type's arrays and optionals on every call (about 5,600
    /// instructions per call for an app's 3-field struct, a ninth of appending 100 of them).
    /// The identifiers are copied into the snapshot first (or, with `keys` and an empty
    /// column, the caller's array shared) and their keys entered after. Without `keys`, those
    /// are the `hashValue`s of the snapshot's own copies
    /// (``IdentifierColumn/hashValueKeysOfOwnCopies(from:)``): hashing the caller's values
    /// would copy each one first to pass it to its `hash(into:)` (a retain and a release per
    /// reference it holds: about 85 instructions for a `UUID`, a `String` and a flag).
    /// Returns false, with nothing changed but the storage made unshared, for every other
    /// case, which the general path handles (and reports).
    /// - Complexity: O(k + log s) amortized.
    @inlinable
    mutating func appendNewItems(
        _ identifiers: [ItemIdentifierType], keys: UnsafeBufferPointer<UInt64>?, toSection sectionIdentifier: SectionIdentifierType?
    ) -> Bool {
        guard !identifiers.isEmpty, let section = storage.appendTarget(sectionIdentifier) else { return false }
        makeStorageUnique()
        guard let first = storage.reserveNewItems(identifiers.count) else { return false }
        // Keys made without the column's copies (not `hashValue`s computed on them below): the
        // column may share the caller's array, even when the keys are that array's own bytes
        // (64-bit integers), since nothing writes to it while they are read.
        storage.items.appendIdentifiers(identifiers, sharing: keys != nil)
        if let keys { return enterNewItems(keys: keys, from: first, toSection: section) }
        return storage.items.hashValueKeysOfOwnCopies(from: Int(first)).withUnsafeBufferPointer {
            enterNewItems(keys: $0, from: first, toSection: section)
        }
    }

    /// The rest of ``appendNewItems(_:keys:toSection:)`` once the identifiers are in the column.
    /// - Complexity: O(k + log s) amortized.
    @inlinable @inline(__always)
    mutating func enterNewItems(keys: UnsafeBufferPointer<UInt64>, from first: Int32, toSection section: Int32) -> Bool {
        guard storage.claimAppendedItems(keys, from: first) else { return false }
        storage.attachNewItems(keys: keys, from: first, toSection: section)
        checkStorageInvariants()
        return true
    }

    /// ``CopyOnWriteSnapshot/makeUnique()`` for inlined code, inlined itself: a call into the
    /// library's unspecialized body looked up the storage class's generic metadata (about 300
    /// instructions) for the uniqueness check.
    /// - Complexity: O(1), or a copy of the storage when it is shared.
    @inlinable
    mutating func makeStorageUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// ``CopyOnWriteSnapshot/checkInvariants()`` for inlined code (checked builds only).
    /// - Complexity: O(n + s) in checked builds, else O(1).
    @usableFromInline
    func checkStorageInvariants() { checkInvariants() }

    /// ``appendItems(_:toSection:)`` with the identifiers' keys made: the general path, for what
    /// `appendNewItems` leaves (items present or repeated, shared keys, no such section).
    // `@specialized`, not an exported `@_specialize`: the call comes from code inlined into the
    // caller's module, which never picks an exported specialization; this generic entry point
    // checks the types itself and runs the specialized body.
    @usableFromInline
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == UUID)
    mutating func appendItems(_ identifiers: [ItemIdentifierType], keys: [UInt64], toSection sectionIdentifier: SectionIdentifierType?) {
        trapping { try $0.tryAppendItems(identifiers, keys: keys, toSection: sectionIdentifier) }
    }

    /// ``appendItems(_:toSection:)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: as ``appendItems(_:toSection:)``.
    public mutating func tryAppendItems(
        _ identifiers: [ItemIdentifierType], toSection sectionIdentifier: SectionIdentifierType? = nil
    ) throws(SnapshotError) {
        try tryAppendItems(identifiers, keys: storage.itemKeys(of: identifiers), toSection: sectionIdentifier)
    }

    private mutating func tryAppendItems(
        _ identifiers: [ItemIdentifierType], keys: [UInt64], toSection sectionIdentifier: SectionIdentifierType?
    ) throws(SnapshotError) {
        let section: Int32
        if let sectionIdentifier {
            guard let slot = storage.sectionSlot(sectionIdentifier) else {
                throw missingSectionsError([sectionIdentifier], single: true)
            }
            section = slot
        } else {
            guard let last = storage.sectionOrder.last else { throw .noSections }
            section = last
        }
        makeUnique()
        try place(identifiers, keys: keys, operation: "appendItems(_:toSection:)") { storage in
            (section, storage.sectionItems[Int(section)].count)
        }
    }

    /// Inserts items just before `beforeIdentifier`, in its section. Existing items are moved.
    /// Traps when the anchor is unknown or among `identifiers`, or on repeated identifiers.
    /// - Complexity: O(k + size of each section touched + t log s) expected, t the number of sections touched.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], beforeItem beforeIdentifier: ItemIdentifierType) {
        trapping { try $0.tryInsertItems(identifiers, beforeItem: beforeIdentifier) }
    }

    /// Inserts items just after `afterIdentifier`, in its section. Existing items are moved.
    /// Traps when the anchor is unknown or among `identifiers`, or on repeated identifiers.
    /// - Complexity: O(k + size of each section touched + t log s) expected, t the number of sections touched.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], afterItem afterIdentifier: ItemIdentifierType) {
        trapping { try $0.tryInsertItems(identifiers, afterItem: afterIdentifier) }
    }

    /// ``insertItems(_:beforeItem:)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: O(k + size of each section touched + t log s) expected, t the number of sections touched.
    public mutating func tryInsertItems(_ identifiers: [ItemIdentifierType], beforeItem beforeIdentifier: ItemIdentifierType)
        throws(SnapshotError)
    {
        try insertItems(identifiers, anchor: beforeIdentifier, after: false, operation: "insertItems(_:beforeItem:)")
    }

    /// ``insertItems(_:afterItem:)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: O(k + size of each section touched + t log s) expected, t the number of sections touched.
    public mutating func tryInsertItems(_ identifiers: [ItemIdentifierType], afterItem afterIdentifier: ItemIdentifierType)
        throws(SnapshotError)
    {
        try insertItems(identifiers, anchor: afterIdentifier, after: true, operation: "insertItems(_:afterItem:)")
    }

    private mutating func insertItems(
        _ identifiers: [ItemIdentifierType], anchor: ItemIdentifierType, after: Bool, operation: String
    ) throws(SnapshotError) {
        guard let anchorSlot = storage.itemSlot(anchor) else { throw missingItemsError([anchor]) }
        if identifiers.contains(anchor) { throw .anchorIsMoved(String(reflecting: anchor)) }
        makeUnique()
        try place(identifiers, keys: storage.itemKeys(of: identifiers), operation: operation) { storage in
            // Evaluated after existing items were detached, so the anchor's index is current.
            let index = Int(storage.itemPlace[Int(anchorSlot)].index) + (after ? 1 : 0)
            return (storage.itemPlace[Int(anchorSlot)].section, index)
        }
    }

    /// Puts `identifiers` (new or existing, with their `keys`) at one place, in call order.
    /// `destination` runs after existing items have been detached.
    private mutating func place(
        _ identifiers: [ItemIdentifierType], keys: [UInt64], operation: String,
        destination: (SnapshotStorage<SectionIdentifierType, ItemIdentifierType>) -> (section: Int32, index: Int)
    ) throws(SnapshotError) {
        let storage = self.storage
        let firstNew = Int32(storage.itemCount)
        // New identifiers go into the table in one prefetched C pass; the rest (already
        // present, repeated in this call, or a hash collision) are resolved one by one.
        var conflicts = [UInt8](repeating: 0, count: keys.count)
        try storage.reserveItems(identifiers.count)
        let inserted = storage.insertItemKeys(keys, firstSlot: firstNew, conflicts: &conflicts)
        var slots: [Int32] = []
        var existing: [Int32] = []
        if inserted == identifiers.count {
            storage.appendUnattachedItems(identifiers, keys: keys)
            slots = [Int32](consecutiveFrom: firstNew, count: inserted)
        } else {
            storage.appendUnattachedItems(
                zip(identifiers, conflicts).lazy.filter { $0.1 == 0 }.map(\.0),
                keys: zip(keys, conflicts).lazy.filter { $0.1 == 0 }.map(\.0))
            slots.reserveCapacity(identifiers.count)
            var nextNew = firstNew
            for (position, identifier) in identifiers.enumerated() {
                guard conflicts[position] != 0 else {
                    slots.append(nextNew)
                    nextNew += 1
                    continue
                }
                if let slot = storage.itemSlot(identifier, key: keys[position]) {
                    if slot >= firstNew {  // a new identifier given twice in this call
                        storage.discardUnattachedItems(from: firstNew)
                        throw .duplicateItems(Self.duplicates(in: identifiers))
                    }
                    existing.append(slot)
                    slots.append(slot)
                } else {
                    slots.append(storage.addUnattachedItem(identifier, key: keys[position]))
                }
            }
        }
        if !existing.isEmpty {
            if Set(existing).count != existing.count {
                storage.discardUnattachedItems(from: firstNew)
                throw .duplicateItems(Self.duplicates(in: identifiers))
            }
            DiffableDiagnostics.report(
                .init(
                    kind: .identifierAlreadyExists, operation: operation,
                    identifiers: existing.map { String(reflecting: storage.itemID(atSlot: $0)) }))
            storage.detachItems(existing)
        }
        let (section, index) = destination(storage)
        storage.attachItems(slots, toSection: section, at: index)
        checkInvariants()
    }

    /// Whether no identifier repeats, checked on keys first (sorting; equal keys confirmed with `==`).
    /// - Complexity: O(k log k).
    static func isUnique<T: Hashable>(_ identifiers: [T], keys: [UInt64]) -> Bool {
        guard identifiers.count > 1 else { return true }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        var runStart = 0
        for position in 1...order.count {
            if position < order.count && keys[order[position]] == keys[order[runStart]] { continue }
            // order[runStart..<position] share a key: any equal pair among them is a repeat.
            if position - runStart > 1 {
                let run = order[runStart..<position].map { identifiers[$0] }
                if Set(run).count != run.count { return false }
            }
            runStart = position
        }
        return true
    }

    /// Every identifier that occurs more than once in `identifiers`, with its argument positions.
    /// - Complexity: O(k) expected.
    static func duplicates<T: Hashable>(in identifiers: [T]) -> [SnapshotError.Duplicate] {
        Occurrences.repeated(identifiers.enumerated().lazy.map { ($1, [$0]) }).map {
            .init(identifier: String(reflecting: $0.value), positions: $0.positions)
        }
    }

    // MARK: Deleting

    /// Deletes items; identifiers not in the snapshot are ignored (as in UIKit).
    /// - Complexity: O(k log k + size of each section touched + t log s) expected, t the number of sections touched.
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == UUID)
    public mutating func deleteItems(_ identifiers: [ItemIdentifierType]) {
        var slots = storage.itemSlots(of: identifiers)
        guard !slots.isEmpty else { return }
        // Sorting drops repeated identifiers for less than a Set costs (no hashing, one allocation).
        slots.sort()
        var distinct = 1
        for index in 1..<slots.count where slots[index] != slots[distinct - 1] {
            slots[distinct] = slots[index]
            distinct += 1
        }
        slots.removeLast(slots.count - distinct)
        makeUnique()
        storage.removeItems(slots)
        storage.prunePending()
        checkInvariants()
    }

    /// Deletes every item **and every section**, as UIKit does.
    /// - Complexity: O(n + s).
    public mutating func deleteAllItems() {
        if isKnownUniquelyReferenced(&storage) { storage.removeAll() } else { storage = SnapshotStorage() }
    }

    // MARK: Moving

    /// Moves an item just before another. Traps when either is unknown or they are the same.
    /// - Complexity: O(size of the sections touched + t log s) expected, t the number of sections touched.
    public mutating func moveItem(_ identifier: ItemIdentifierType, beforeItem toIdentifier: ItemIdentifierType) {
        trapping { try $0.tryMoveItem(identifier, beforeItem: toIdentifier) }
    }

    /// Moves an item just after another. Traps when either is unknown or they are the same.
    /// - Complexity: O(size of the sections touched + t log s) expected, t the number of sections touched.
    public mutating func moveItem(_ identifier: ItemIdentifierType, afterItem toIdentifier: ItemIdentifierType) {
        trapping { try $0.tryMoveItem(identifier, afterItem: toIdentifier) }
    }

    /// ``moveItem(_:beforeItem:)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: O(size of the sections touched + t log s) expected, t the number of sections touched.
    public mutating func tryMoveItem(_ identifier: ItemIdentifierType, beforeItem toIdentifier: ItemIdentifierType) throws(SnapshotError) {
        try moveItem(identifier, anchor: toIdentifier, after: false)
    }

    /// ``moveItem(_:afterItem:)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: O(size of the sections touched + t log s) expected, t the number of sections touched.
    public mutating func tryMoveItem(_ identifier: ItemIdentifierType, afterItem toIdentifier: ItemIdentifierType) throws(SnapshotError) {
        try moveItem(identifier, anchor: toIdentifier, after: true)
    }

    private mutating func moveItem(_ identifier: ItemIdentifierType, anchor: ItemIdentifierType, after: Bool) throws(SnapshotError) {
        let unknown = [identifier, anchor].filter { storage.itemSlot($0) == nil }
        if !unknown.isEmpty { throw missingItemsError(unknown) }
        if identifier == anchor { throw .anchorIsMoved(String(reflecting: anchor)) }
        makeUnique()
        let slot = storage.itemSlot(identifier)!, anchorSlot = storage.itemSlot(anchor)!
        storage.detachItems([slot])
        let index = Int(storage.itemPlace[Int(anchorSlot)].index) + (after ? 1 : 0)
        storage.attachItems([slot], toSection: storage.itemPlace[Int(anchorSlot)].section, at: index)
        checkInvariants()
    }
}
