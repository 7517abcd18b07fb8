extension DiffableDataSourceSectionSnapshot {
    /// Every item, depth-first: each item followed by its children's subtrees, in order.
    /// - Complexity: O(1): the result shares the outline's identifiers until either of them
    ///   changes (the first structural change of the outline while the result is kept then
    ///   copies them, O(n)).
    public var items: [ItemIdentifierType] { Array(storage.items.ids.values) }

    /// The items at level 0, in order.
    /// - Complexity: O(root items): each step jumps over a whole subtree.
    public var rootItems: [ItemIdentifierType] {
        var result: [ItemIdentifierType] = []
        var position = 0
        while position < storage.count {
            result.append(storage.id(at: position))
            position += Int(storage.sizes[position])
        }
        return result
    }

    /// Whether the outline holds `item`.
    /// - Complexity: O(1) expected.
    @_specialize(exported:true,where ItemIdentifierType == Int)
    @_specialize(exported:true,where ItemIdentifierType == String)
    public func contains(_ item: ItemIdentifierType) -> Bool { storage.position(of: item) != nil }

    /// The position of `item` in ``items``, or nil when it is not in the snapshot.
    /// - Complexity: O(1) expected.
    @_specialize(exported:true,where ItemIdentifierType == Int)
    @_specialize(exported:true,where ItemIdentifierType == String)
    public func index(of item: ItemIdentifierType) -> Int? { storage.position(of: item) }

    /// The depth of `item`: 0 for a root item. Traps when `item` is not in the snapshot
    /// (check with ``contains(_:)`` or ``index(of:)`` first).
    /// - Complexity: O(1) expected.
    public func level(of item: ItemIdentifierType) -> Int {
        guard let position = storage.position(of: item) else {
            fatalError("Diffable: level(of:): \(String(reflecting: item)) is not in the snapshot")
        }
        return Int(storage.levels[position])
    }

    /// The parent of `child`, or nil for a root item or an item not in the snapshot.
    /// - Complexity: O(1) expected.
    public func parent(of child: ItemIdentifierType) -> ItemIdentifierType? {
        guard let position = storage.position(of: child) else { return nil }
        let parent = Int(storage.parents[position])
        return parent < 0 ? nil : storage.id(at: parent)
    }
}
