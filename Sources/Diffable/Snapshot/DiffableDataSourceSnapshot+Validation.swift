extension DiffableDataSourceSnapshot {
    /// Builds a snapshot from untrusted data without ever trapping.
    ///
    /// Throws ``SnapshotError/duplicateSections(_:)`` listing **every** repeated section
    /// identifier with all its positions (`[section]`), else
    /// ``SnapshotError/duplicateItems(_:)`` listing every repeated item identifier
    /// (across all sections) with all its positions (`[section, item]`).
    /// - Complexity: O(n + s) expected.
    public init(validating sections: [(SectionIdentifierType, [ItemIdentifierType])]) throws(SnapshotError) {
        self.init()
        let sectionIdentifiers = sections.map(\.0)
        let sectionDuplicates = Self.duplicates(in: sectionIdentifiers)
        if !sectionDuplicates.isEmpty {
            throw .duplicateSections(sectionDuplicates.map { .init(identifier: $0.identifier, positions: $0.positions) })
        }
        storage.insertSections(sectionIdentifiers, keys: sectionIdentifiers.map(storage.sectionKey), at: 0)
        var repeated = false
        storage.reserveItems(sections.reduce(0) { $0 + $1.1.count })
        for (position, (_, items)) in sections.enumerated() {
            var slots: [Int32] = []
            slots.reserveCapacity(items.count)
            for item in items {
                let key = storage.itemKey(item)
                if storage.itemSlot(item, key: key) != nil {
                    repeated = true
                } else {
                    slots.append(storage.addUnattachedItem(item, key: key))
                }
            }
            storage.attachItems(slots, toSection: storage.sectionOrder[position], at: 0)
        }
        if repeated { throw .duplicateItems(Self.itemDuplicates(in: sections)) }
        checkInvariants()
    }

    /// Every item identifier that occurs more than once, with its `[section, item]` positions.
    static func itemDuplicates(in sections: [(SectionIdentifierType, [ItemIdentifierType])]) -> [SnapshotError.Duplicate] {
        var positions: [ItemIdentifierType: [[Int]]] = [:]
        var order: [ItemIdentifierType] = []
        for (section, (_, items)) in sections.enumerated() {
            for (index, item) in items.enumerated() {
                if positions[item] == nil { order.append(item) }
                positions[item, default: []].append([section, index])
            }
        }
        return order.compactMap { item in
            let at = positions[item]!
            return at.count > 1 ? .init(identifier: String(reflecting: item), positions: at) : nil
        }
    }
}
