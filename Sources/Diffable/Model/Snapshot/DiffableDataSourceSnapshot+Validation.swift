import Foundation

extension DiffableDataSourceSnapshot {
    /// Builds a snapshot from untrusted data without ever trapping.
    ///
    /// Throws one error that lists **every** problem of the input:
    /// ``SnapshotError/duplicateSections(_:)`` listing every repeated section identifier
    /// with all its positions (`[section]`), ``SnapshotError/duplicateItems(_:)`` listing
    /// every repeated item identifier, or ``SnapshotError/duplicateSectionsAndItems(sections:items:)``
    /// when there are both; items are listed
    /// (across all sections) with all its positions (`[section, item]`); throws
    /// ``SnapshotError/outOfMemory`` when the tables cannot be allocated. For identifier types
    /// keyed by their own code (their `hashValue`, their ``IdentifierKeyConvertible/identifierKey``,
    /// or, for ``KeyedByID`` values, their `id`; not integers, strings, UUIDs or byte arrays),
    /// every identifier is then keyed again and looked up: one whose key differs between the
    /// two calls throws ``SnapshotError/inconsistentHashing(sections:items:)`` naming it and its position.
    /// - Complexity: O(n + s) expected (twice the keying for types keyed by their own code).
    // Pre-specialized: the data source reports repeated `id`s of values matched by `id` through
    // it, from code generic over the identifier types.
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == UUID)
    public init(validating sections: [(SectionIdentifierType, [ItemIdentifierType])]) throws(SnapshotError) {
        self.init()
        let sectionIdentifiers = sections.mapped { $0.0 }
        let sectionDuplicates = Self.duplicates(in: sectionIdentifiers)
        if !sectionDuplicates.isEmpty {
            // Every problem in one report: the items are checked too before throwing.
            let itemDuplicates = Self.itemDuplicates(in: sections)
            if itemDuplicates.isEmpty { throw .duplicateSections(sectionDuplicates) }
            throw .duplicateSectionsAndItems(sections: sectionDuplicates, items: itemDuplicates)
        }
        try storage.reserveSections(sectionIdentifiers.count)
        try storage.reserveItems(sections.reduce(0) { $0 + $1.1.count })
        storage.insertSections(sectionIdentifiers, keys: storage.sectionStrategy.keys(sectionIdentifiers), at: 0)
        // Valid input (every key new) takes one prefetched batch into the table; anything else
        // (a repeated item, or two identifiers sharing a hashed key) is resolved item by item.
        let items = sections.flatMap { $0.1 }
        let keys = storage.itemKeys(of: items)
        var repeated = false
        if storage.appendItemsWithDistinctKeys(items, keys: keys) {
            storage.attachSlotsInOrder(counts: sections.lazy.map { $0.1.count })
        } else {
            var first = 0
            for (position, (_, content)) in sections.enumerated() {
                var slots: [Int32] = []
                slots.reserveCapacity(content.count)
                for (item, key) in zip(content, keys[first..<first + content.count]) {
                    if storage.itemSlot(item, key: key) != nil {
                        repeated = true
                    } else {
                        slots.append(storage.addUnattachedItem(item, key: key))
                    }
                }
                storage.attachItems(slots, toSection: storage.sectionOrder[position], at: 0)
                first += content.count
            }
        }
        if repeated { throw .duplicateItems(Self.itemDuplicates(in: sections)) }
        // A hash value that differs between two calls on one identifier (keyed above, keyed again now).
        if storage.hashesNeedChecking {
            let (sectionMismatches, itemMismatches) = storage.hashMismatches()
            if !sectionMismatches.isEmpty || !itemMismatches.isEmpty {
                throw .inconsistentHashing(sections: sectionMismatches, items: itemMismatches)
            }
        }
        checkInvariants()
    }

    /// Every item identifier that occurs more than once, with its `[section, item]` positions.
    /// - Complexity: O(n) expected.
    static func itemDuplicates(in sections: [(SectionIdentifierType, [ItemIdentifierType])]) -> [SnapshotError.Duplicate] {
        let entries = sections.enumerated().lazy.flatMap { section, content in
            content.1.enumerated().lazy.map { ($1, [section, $0]) }
        }
        return Occurrences.repeated(entries).map { .init(identifier: String(reflecting: $0.value), positions: $0.positions) }
    }
}
