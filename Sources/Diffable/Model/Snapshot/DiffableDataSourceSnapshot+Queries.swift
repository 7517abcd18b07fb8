import Foundation

extension DiffableDataSourceSnapshot {
    /// The number of items in all sections.
    /// - Complexity: O(1).
    public var numberOfItems: Int { storage.itemCount }

    /// The number of sections.
    /// - Complexity: O(1).
    public var numberOfSections: Int { storage.sectionCount }

    /// The section identifiers, in order.
    /// - Complexity: O(s).
    public var sectionIdentifiers: [SectionIdentifierType] {
        storage.sectionOrder.mapped { storage.sectionIDs[Int($0)] }
    }

    /// Every item identifier, section after section.
    /// - Complexity: O(n).
    public var itemIdentifiers: [ItemIdentifierType] {
        var result: [ItemIdentifierType] = []
        result.reserveCapacity(storage.itemCount)
        for section in storage.sectionOrder {
            for slot in storage.sectionItems[Int(section)] { result.append(storage.itemID(atSlot: slot)) }
        }
        return result
    }

    /// The number of items in `identifier`'s section. Traps when the section is unknown.
    /// - Complexity: O(1) expected hash-and-compare operations.
    public func numberOfItems(inSection identifier: SectionIdentifierType) -> Int {
        storage.sectionItems[Int(requireSection(identifier, in: "numberOfItems(inSection:)"))].count
    }

    /// The items of one section, in order. Traps when the section is unknown.
    /// - Complexity: O(items in the section).
    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] {
        storage.sectionItems[Int(requireSection(identifier, in: "itemIdentifiers(inSection:)"))].mapped {
            storage.itemID(atSlot: $0)
        }
    }

    /// The section that contains `identifier`, or nil when the item is not in the snapshot.
    /// - Complexity: O(1) expected hash-and-compare operations.
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == UUID)
    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        guard let slot = storage.itemSlot(identifier) else { return nil }
        return storage.sectionIDs[Int(storage.itemPlace[Int(slot)].section)]
    }

    /// The flat index of `identifier` across all sections (as in ``itemIdentifiers``), or nil.
    /// - Complexity: O(1) expected hash-and-compare operations plus O(log s) for the items of the sections before (prefix sums kept exact by mutations).
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == UUID)
    public func indexOfItem(_ identifier: ItemIdentifierType) -> Int? {
        guard let slot = storage.itemSlot(identifier) else { return nil }
        return storage.flatIndex(ofItemSlot: slot)
    }

    /// The index of a section, or nil when it is not in the snapshot.
    /// - Complexity: O(1) expected hash-and-compare operations.
    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? {
        storage.sectionSlot(identifier).map { Int(storage.sectionPosition[Int($0)]) }
    }

    /// Whether the snapshot holds the item. - Complexity: O(1) expected hash-and-compare operations.
    public func contains(item identifier: ItemIdentifierType) -> Bool { storage.itemSlot(identifier) != nil }

    /// Whether the snapshot holds the section. - Complexity: O(1) expected hash-and-compare operations.
    public func contains(section identifier: SectionIdentifierType) -> Bool { storage.sectionSlot(identifier) != nil }

    /// The (section index, item index) of an item, or nil.
    /// - Complexity: O(1) expected hash-and-compare operations.
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == String)
    @_specialize(exported:true,where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @_specialize(exported:true,where SectionIdentifierType == String, ItemIdentifierType == UUID)
    public func indexPath(ofItem identifier: ItemIdentifierType) -> (section: Int, item: Int)? {
        guard let slot = storage.itemSlot(identifier) else { return nil }
        return (Int(storage.sectionPosition[Int(storage.itemPlace[Int(slot)].section)]), Int(storage.itemPlace[Int(slot)].index))
    }

    func requireSection(_ identifier: SectionIdentifierType, in operation: String) -> Int32 {
        guard let slot = storage.sectionSlot(identifier) else {
            fatalError(
                "Diffable: \(operation): section \(String(reflecting: identifier)) is not in the snapshot "
                    + "(\(numberOfSections) sections)")
        }
        return slot
    }
}
