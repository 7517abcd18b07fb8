extension DiffableDataSourceSectionSnapshot {
    /// Expands items, with or without children (an expanded item stays expanded when
    /// children arrive later). Items not in the snapshot are ignored.
    /// - Complexity: O(k) expected; O(1) per item when `items` follows outline order
    ///   (each is checked at the place after the previous one before any hashing).
    @inlinable
    public mutating func expand(_ items: [ItemIdentifierType]) { setExpanded(items, true) }

    /// Collapses items; their descendants keep their own state. Items not in the
    /// snapshot are ignored.
    /// - Complexity: as ``expand(_:)``.
    @inlinable
    public mutating func collapse(_ items: [ItemIdentifierType]) { setExpanded(items, false) }

    /// Inlined into the caller with `expand` and `collapse`, and handing on the identifiers'
    /// buffer rather than the array, so that the one-element array of a tap on a disclosure row
    /// never leaves the caller: the compiler keeps it on the stack, and no release follows the
    /// call (an atomic instruction, which waits for the lookup's cache misses). `Int` and
    /// `String` identifiers go straight to concrete functions: a generic call from inlined code
    /// takes the unspecialized entry, not the exported specializations.
    @inlinable
    mutating func setExpanded(_ items: [ItemIdentifierType], _ value: Bool) {
        if ItemIdentifierType.self == Int.self {
            items.withUnsafeBufferPointer { items in
                withUnsafeMutablePointer(to: &self) {
                    $0.withMemoryRebound(to: DiffableDataSourceSectionSnapshot<Int>.self, capacity: 1) {
                        $0.pointee.setExpanded(ints: UnsafeRawBufferPointer(items).assumingMemoryBound(to: Int.self), value)
                    }
                }
            }
        } else if ItemIdentifierType.self == String.self {
            items.withUnsafeBufferPointer { items in
                withUnsafeMutablePointer(to: &self) {
                    $0.withMemoryRebound(to: DiffableDataSourceSectionSnapshot<String>.self, capacity: 1) {
                        $0.pointee.setExpanded(strings: UnsafeRawBufferPointer(items).assumingMemoryBound(to: String.self), value)
                    }
                }
            }
        } else {
            items.withUnsafeBufferPointer { setExpanded(any: $0, value) }
        }
    }

    @usableFromInline
    mutating func setExpanded(any items: UnsafeBufferPointer<ItemIdentifierType>, _ value: Bool) {
        if items.count == 1 {
            // One item: one table lookup, then the bit.
            guard let position = storage.position(of: items[0]), storage.expanded[position] != value else { return }
            makeUnique()
            storage.setExpanded(value, at: position)
            return
        }
        // Find first (reads only), so a call that changes nothing never copies shared storage.
        let changes = storage.withKeys(of: items) { storage.positions(of: items, keys: $0, expandedOtherThan: value) }
        guard !changes.isEmpty else { return }
        makeUnique()
        storage.setExpanded(value, atPositions: changes)
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
        storage.expanded.forEachSetPosition { result.append(storage.id(at: $0)) }
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
    /// - Complexity: O(1) when every item is visible: the result shares the outline's
    ///   identifiers, as ``items`` does, until either of them changes. Otherwise O(visible
    ///   items): a collapsed item's subtree is skipped in one step; one allocation, for the
    ///   result.
    public var visibleItems: [ItemIdentifierType] {
        let visibleCount = storage.visibleCount
        guard visibleCount > 0 else { return [] }
        if visibleCount == storage.count { return items }
        return storage.items.ids.values.withUnsafeBufferPointer { ids in
            [ItemIdentifierType](filling: visibleCount) { buffer, initialized in
                storage.forEachVisibleRun { run in
                    (buffer.baseAddress! + initialized).initialize(from: ids.baseAddress! + run.lowerBound, count: run.count)
                    initialized += run.count
                }
            }
        }
    }
}

extension DiffableDataSourceSectionSnapshot where ItemIdentifierType == Int {
    /// ``setExpanded(_:_:)`` for `Int` identifiers: concrete, so inlined callers reach it directly.
    @usableFromInline
    mutating func setExpanded(ints items: UnsafeBufferPointer<Int>, _ value: Bool) { setExpanded(any: items, value) }
}

extension DiffableDataSourceSectionSnapshot where ItemIdentifierType == String {
    /// ``setExpanded(_:_:)`` for `String` identifiers.
    @usableFromInline
    mutating func setExpanded(strings items: UnsafeBufferPointer<String>, _ value: Bool) { setExpanded(any: items, value) }
}
