/// Checks of the user's `Hashable` conformances. The engine stores each identifier's 64-bit
/// key when it is added and finds it again by that key confirmed with `==`; an identifier
/// whose hash value changed since (or that equals another one stored under another key) is
/// what "equal but different hash values" means to it.
extension SnapshotStorage {
    /// Whether an identifier type is keyed by its own code (its `hashValue`, its
    /// `identifierKey`, or a ``KeyedByID`` value's `id`). Integers, strings, UUIDs and byte
    /// arrays are keyed by Diffable and hash soundly, so they are never checked.
    var hashesNeedChecking: Bool { items.strategy.isUserKeyed || sectionStrategy.isUserKeyed }

    /// ``hashMismatches()`` of the levels whose stored keys can change (``KeyStability``):
    /// what the data source checks on every apply.
    /// - Complexity: O(1) when neither level's keys can change; otherwise as ``hashMismatches()``.
    func hashMismatchesWhereKeysCanChange() -> (sections: [SnapshotError.HashMismatch], items: [SnapshotError.HashMismatch]) {
        let checkSections = sectionStrategy.isUserKeyed && KeyStability.keyCanChange(S.self)
        let checkItems = items.strategy.isUserKeyed && KeyStability.keyCanChange(I.self)
        guard checkSections || checkItems else { return ([], []) }
        return hashMismatches(checkingSections: checkSections, items: checkItems)
    }

    /// Every stored identifier that is equal to itself but that its own lookup does not find
    /// at its own slot: sections as `[section]`, items as `[section, item]`, in display order.
    /// Identifiers unequal to themselves (`Double.nan`) are distinct by design and skipped.
    /// - Complexity: O(n + s) expected hash-and-compare operations, for the types keyed by `hashValue`; O(1) otherwise.
    func hashMismatches() -> (sections: [SnapshotError.HashMismatch], items: [SnapshotError.HashMismatch]) {
        hashMismatches(checkingSections: sectionStrategy.isUserKeyed, items: items.strategy.isUserKeyed)
    }

    /// ``hashMismatches()`` of the levels asked for.
    private func hashMismatches(checkingSections checkSections: Bool, items checkItems: Bool)
        -> (sections: [SnapshotError.HashMismatch], items: [SnapshotError.HashMismatch])
    {
        var sections: [SnapshotError.HashMismatch] = []
        var mismatchedItems: [SnapshotError.HashMismatch] = []
        for (position, section) in sectionOrder.enumerated() {
            if checkSections {
                let id = sectionIDs[Int(section)]
                if let found = Self.mismatch(id, at: section, key: sectionKey, lookUp: sectionSlot) {
                    let other = found.other.map { [[Int(sectionPosition[Int($0)])]] } ?? []
                    sections.append(.init(identifier: found.identifier, positions: [[position]] + other))
                }
            }
            guard checkItems else { continue }
            for (index, slot) in sectionItems[Int(section)].enumerated() {
                let id = itemID(atSlot: slot)
                if let found = Self.mismatch(id, at: slot, key: itemKey, lookUp: itemSlot) {
                    let other = found.other.map { [itemPosition($0)] } ?? []
                    mismatchedItems.append(.init(identifier: found.identifier, positions: [[position, index]] + other))
                }
            }
        }
        return (sections, mismatchedItems)
    }

    /// `[section, item]` of an item slot.
    func itemPosition(_ slot: Int32) -> [Int] {
        let place = itemPlace[Int(slot)]
        return [Int(sectionPosition[Int(place.section)]), Int(place.index)]
    }

    /// The slots of stored items equal to `identifier` (error paths only: a lookup missed it, so
    /// any found is stored under another hash value).
    /// - Complexity: O(n) `==` calls, for the types keyed by `hashValue`; O(1) otherwise.
    func itemsEqual(to identifier: I) -> [Int32] {
        guard items.strategy.isUserKeyed else { return [] }
        let ids = items.ids
        return ids.indices.filter { ids[$0] == identifier }.map { Int32($0) }
    }

    /// The displayed section slots equal to `identifier` (see ``itemsEqual(to:)``).
    /// - Complexity: O(s) `==` calls, for the types keyed by `hashValue`; O(1) otherwise.
    func sectionsEqual(to identifier: S) -> [Int32] {
        guard sectionStrategy.isUserKeyed else { return [] }
        return sectionOrder.filter { sectionIDs[Int($0)] == identifier }
    }

    /// Whether the identifier stored at `slot` is found there again by its current hash value: nil when it
    /// is (or cannot be: unequal to itself); otherwise its text and the slot of the stored
    /// identifier equal to it that the lookup found instead, if any (a copy added since, under the new hash value).
    private static func mismatch<T: Hashable>(
        _ identifier: T, at slot: Int32, key: (T) -> UInt64, lookUp: (T, UInt64) -> Int32?
    ) -> (identifier: String, other: Int32?)? {
        guard identifier == identifier else { return nil }
        let found = lookUp(identifier, key(identifier))
        if found == slot { return nil }
        return (String(reflecting: identifier), found)
    }
}

extension DiffableDataSourceSnapshot {
    /// The error for item identifiers that lookups did not find: ``SnapshotError/unknownItems(_:)``,
    /// unless the snapshot holds an identifier equal to one of them (so stored under another
    /// hash value): then ``SnapshotError/inconsistentHashing(sections:items:)`` naming it where it is.
    /// - Complexity: O(n · k) `==` calls for items keyed by `hashValue` (an error path); O(k) otherwise.
    func missingItemsError(_ identifiers: [ItemIdentifierType]) -> SnapshotError {
        let identifiers = Self.firstOccurrences(identifiers)  // a move onto itself names its item twice
        let stored = identifiers.flatMap { identifier in storage.itemsEqual(to: identifier).map { (identifier, $0) } }
        if stored.isEmpty { return .unknownItems(identifiers.map { String(reflecting: $0) }) }
        return .inconsistentHashing(
            sections: [], items: stored.map { .init(identifier: String(reflecting: $0.0), positions: [storage.itemPosition($0.1)]) })
    }

    /// `identifiers` without repeats, each at its first place: an error names each identifier once.
    /// - Complexity: O(k) expected.
    static func firstOccurrences<T: Hashable>(_ identifiers: [T]) -> [T] {
        guard identifiers.count > 1 else { return identifiers }
        var seen = Set<T>(minimumCapacity: identifiers.count)
        return identifiers.filter { seen.insert($0).inserted }
    }

    /// ``missingItemsError(_:)`` for sections: ``SnapshotError/unknownSection(_:)`` (`single`) or
    /// ``SnapshotError/unknownSections(_:)`` when no equal section is stored.
    /// - Complexity: O(s · k) `==` calls for sections keyed by `hashValue`; O(k) otherwise.
    func missingSectionsError(_ identifiers: [SectionIdentifierType], single: Bool) -> SnapshotError {
        let identifiers = Self.firstOccurrences(identifiers)
        let stored = identifiers.flatMap { identifier in storage.sectionsEqual(to: identifier).map { (identifier, $0) } }
        if stored.isEmpty {
            let names = identifiers.map { String(reflecting: $0) }
            return single ? .unknownSection(names[0]) : .unknownSections(names)
        }
        return .inconsistentHashing(
            sections: stored.map { .init(identifier: String(reflecting: $0.0), positions: [[Int(storage.sectionPosition[Int($0.1)])]]) },
            items: [])
    }
}
