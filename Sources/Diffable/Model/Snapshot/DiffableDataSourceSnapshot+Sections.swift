import Foundation

extension DiffableDataSourceSnapshot {
    /// Appends sections at the end. Traps when one already exists or `identifiers` repeats one;
    /// ``tryAppendSections(_:)`` throws instead.
    /// - Complexity: O(k) amortized.
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == UUID)
    @inlinable
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        // A `do`, not `trapping`'s closure: in a body not specialized for the item type (an
        // app's own), the closure's context costs a generic metadata lookup on every call.
        do { try tryAppendSections(identifiers) } catch { fatalError("Diffable: \(error)") }
    }

    /// ``appendSections(_:)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: O(k) amortized.
    @inlinable
    public mutating func tryAppendSections(_ identifiers: [SectionIdentifierType]) throws(SnapshotError) {
        try insertSections(identifiers, at: numberOfSections)
    }

    /// Inserts sections before `toIdentifier`. Traps when the anchor is unknown, a section
    /// already exists, or `identifiers` repeats one.
    /// - Complexity: O(s + k).
    public mutating func insertSections(_ identifiers: [SectionIdentifierType], beforeSection toIdentifier: SectionIdentifierType) {
        trapping { try $0.tryInsertSections(identifiers, beforeSection: toIdentifier) }
    }

    /// Inserts sections after `toIdentifier`. Traps as ``insertSections(_:beforeSection:)``.
    /// - Complexity: O(s + k).
    public mutating func insertSections(_ identifiers: [SectionIdentifierType], afterSection toIdentifier: SectionIdentifierType) {
        trapping { try $0.tryInsertSections(identifiers, afterSection: toIdentifier) }
    }

    /// ``insertSections(_:beforeSection:)`` that throws instead of trapping.
    /// - Complexity: O(s + k).
    public mutating func tryInsertSections(_ identifiers: [SectionIdentifierType], beforeSection toIdentifier: SectionIdentifierType)
        throws(SnapshotError)
    {
        let anchor = try existingSection(toIdentifier)
        try insertSections(identifiers, at: Int(storage.sectionPosition[Int(anchor)]))
    }

    /// ``insertSections(_:afterSection:)`` that throws instead of trapping.
    /// - Complexity: O(s + k).
    public mutating func tryInsertSections(_ identifiers: [SectionIdentifierType], afterSection toIdentifier: SectionIdentifierType)
        throws(SnapshotError)
    {
        let anchor = try existingSection(toIdentifier)
        try insertSections(identifiers, at: Int(storage.sectionPosition[Int(anchor)]) + 1)
    }

    /// Inserts `identifiers` at display position `position` (which a copy of the storage
    /// keeps: it is read before the storage is made unique). A position, not a closure over
    /// the storage: the closure's context type cost a generic metadata lookup per call in
    /// bodies not specialized for the item type.
    ///
    /// Inlinable, so that an app's section type gets the steps that need its array type made
    /// unique, grown and written specialized in the app's module: in the library's own
    /// unspecialized body each of them looked up run-time metadata (the storage's class, the
    /// identifiers' array and its buffer class: about 330 instructions each, 1,300 for an
    /// append of one section). The checks and the placement run in the library.
    /// - Complexity: O(s + k) (O(k) at the end).
    @inlinable
    mutating func insertSections(_ identifiers: [SectionIdentifierType], at position: Int) throws(SnapshotError) {
        let keys = try keysOfNewSections(identifiers)
        makeStorageUnique()
        try storage.reserveSections(identifiers.count)
        storage.storeSectionIDs(identifiers, inSlots: storage.placeSections(keys: keys, at: position))
        checkStorageInvariants()
    }

    /// The keys of `identifiers`, after checking that none repeats and none is in the
    /// snapshot already.
    /// - Throws: ``SnapshotError/duplicateSections(_:)``, ``SnapshotError/sectionsAlreadyExist(_:)``.
    /// - Complexity: O(k) expected.
    @usableFromInline
    func keysOfNewSections(_ identifiers: [SectionIdentifierType]) throws(SnapshotError) -> [UInt64] {
        let keys = storage.sectionStrategy.keys(identifiers)
        if !Self.isUnique(identifiers, keys: keys) { throw .duplicateSections(Self.duplicates(in: identifiers)) }
        // By index, not through `zip` or `filter`: iterating arrays generically allocates per
        // element in unspecialized code (see `mapped(_:)`), and a filter's range and closure
        // cost metadata lookups on every call. No list of the sections already present is
        // made unless there is one (rare): an array of `S` looks up its metadata even empty.
        for index in 0..<identifiers.count where storage.sectionSlot(identifiers[index], key: keys[index]) != nil {
            throw .sectionsAlreadyExist(existingSections(identifiers, keys: keys))
        }
        return keys
    }

    /// The descriptions of those of `identifiers` (keyed by `keys`) already in the snapshot.
    /// - Complexity: O(k) expected.
    private func existingSections(_ identifiers: [SectionIdentifierType], keys: [UInt64]) -> [String] {
        (0..<identifiers.count).compactMap { index in
            storage.sectionSlot(identifiers[index], key: keys[index]) == nil ? nil : String(reflecting: identifiers[index])
        }
    }

    /// Deletes sections with all their items; unknown identifiers are ignored.
    /// - Complexity: O(s + items of the deleted sections).
    public mutating func deleteSections(_ identifiers: [SectionIdentifierType]) {
        var slots: [Int32] = []
        var seen = Set<Int32>()
        for identifier in identifiers {
            if let slot = storage.sectionSlot(identifier), seen.insert(slot).inserted { slots.append(slot) }
        }
        guard !slots.isEmpty else { return }
        makeUnique()
        storage.removeSections(slots)
        storage.prunePending()
        checkInvariants()
    }

    /// Moves a section just before another. Traps when either is unknown or they are the same.
    /// - Complexity: O(s).
    public mutating func moveSection(_ identifier: SectionIdentifierType, beforeSection toIdentifier: SectionIdentifierType) {
        trapping { try $0.tryMoveSection(identifier, beforeSection: toIdentifier) }
    }

    /// Moves a section just after another. Traps when either is unknown or they are the same.
    /// - Complexity: O(s).
    public mutating func moveSection(_ identifier: SectionIdentifierType, afterSection toIdentifier: SectionIdentifierType) {
        trapping { try $0.tryMoveSection(identifier, afterSection: toIdentifier) }
    }

    /// ``moveSection(_:beforeSection:)`` that throws instead of trapping.
    /// - Complexity: O(s).
    public mutating func tryMoveSection(_ identifier: SectionIdentifierType, beforeSection toIdentifier: SectionIdentifierType)
        throws(SnapshotError)
    {
        try moveSection(identifier, anchor: toIdentifier, after: false)
    }

    /// ``moveSection(_:afterSection:)`` that throws instead of trapping.
    /// - Complexity: O(s).
    public mutating func tryMoveSection(_ identifier: SectionIdentifierType, afterSection toIdentifier: SectionIdentifierType)
        throws(SnapshotError)
    {
        try moveSection(identifier, anchor: toIdentifier, after: true)
    }

    private mutating func moveSection(_ identifier: SectionIdentifierType, anchor: SectionIdentifierType, after: Bool) throws(SnapshotError)
    {
        let unknown = [identifier, anchor].filter { storage.sectionSlot($0) == nil }
        if !unknown.isEmpty { throw missingSectionsError(unknown, single: false) }
        if identifier == anchor { throw .anchorIsMoved(String(reflecting: anchor)) }
        makeUnique()
        let slot = storage.sectionSlot(identifier)!, anchorSlot = storage.sectionSlot(anchor)!
        var position = Int(storage.sectionPosition[Int(anchorSlot)]) + (after ? 1 : 0)
        if storage.sectionPosition[Int(slot)] < storage.sectionPosition[Int(anchorSlot)] { position -= 1 }
        storage.moveSection(slot, to: position)
        checkInvariants()
    }

    private func existingSection(_ identifier: SectionIdentifierType) throws(SnapshotError) -> Int32 {
        guard let slot = storage.sectionSlot(identifier) else { throw missingSectionsError([identifier], single: true) }
        return slot
    }
}
