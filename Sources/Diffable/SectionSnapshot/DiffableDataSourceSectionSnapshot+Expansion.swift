extension DiffableDataSourceSectionSnapshot {
    /// Expands items, with or without children (an expanded item stays expanded when
    /// children arrive later). Items not in the snapshot are ignored.
    /// - Complexity: O(k) expected; O(1) per item when `items` follows outline order
    ///   (each is checked at the place after the previous one before any hashing).
    @_specialize(exported:true,where ItemIdentifierType == Int)
    @_specialize(exported:true,where ItemIdentifierType == String)
    public mutating func expand(_ items: [ItemIdentifierType]) { setExpanded(items, true) }

    /// Collapses items; their descendants keep their own state. Items not in the
    /// snapshot are ignored.
    /// - Complexity: as ``expand(_:)``.
    @_specialize(exported:true,where ItemIdentifierType == Int)
    @_specialize(exported:true,where ItemIdentifierType == String)
    public mutating func collapse(_ items: [ItemIdentifierType]) { setExpanded(items, false) }

    private mutating func setExpanded(_ items: [ItemIdentifierType], _ value: Bool) {
        if items.count == 1 {
            // One item (a tap on a disclosure row): no key or position arrays.
            guard let position = storage.position(of: items[0]), storage.expanded[position] != value else { return }
            makeUnique()
            storage.expanded[position] = value
            return
        }
        // Find first (reads only), so a call that changes nothing never copies shared storage.
        let changes = storage.positions(of: items, keys: storage.strategy.keys(items), expandedOtherThan: value)
        guard !changes.isEmpty else { return }
        makeUnique()
        storage.expanded.set(changes, to: value)
    }

    /// Whether `item` is expanded (false for an item not in the snapshot).
    /// - Complexity: O(1) expected.
    @_specialize(exported:true,where ItemIdentifierType == Int)
    @_specialize(exported:true,where ItemIdentifierType == String)
    public func isExpanded(_ item: ItemIdentifierType) -> Bool {
        storage.position(of: item).map { storage.expanded[$0] } ?? false
    }

    /// Every expanded item, in outline order (childless ones included).
    /// - Complexity: O(n / 64 + expanded items).
    public var expandedItems: [ItemIdentifierType] {
        var result: [ItemIdentifierType] = []
        result.reserveCapacity(storage.expanded.setCount)
        storage.expanded.forEachSetPosition { result.append(storage.ids[$0]) }
        return result
    }

    /// Whether `item` is shown: every ancestor is expanded (root items always are).
    /// False for an item not in the snapshot.
    /// - Complexity: O(depth) expected.
    @_specialize(exported:true,where ItemIdentifierType == Int)
    @_specialize(exported:true,where ItemIdentifierType == String)
    public func isVisible(_ item: ItemIdentifierType) -> Bool {
        guard let position = storage.position(of: item) else { return false }
        return storage.isVisible(at: position)
    }

    /// The rows a list shows: the visible items, in outline order.
    /// - Complexity: O(visible items): a collapsed item's subtree is skipped in one
    ///   step; one allocation, for the result.
    public var visibleItems: [ItemIdentifierType] {
        let visibleCount = storage.visibleCount
        guard visibleCount > 0 else { return [] }
        return storage.ids.withUnsafeBufferPointer { ids in
            [ItemIdentifierType](filling: visibleCount) { buffer, initialized in
                storage.forEachVisibleRun { run in
                    (buffer.baseAddress! + initialized).initialize(from: ids.baseAddress! + run.lowerBound, count: run.count)
                    initialized += run.count
                }
            }
        }
    }
}
