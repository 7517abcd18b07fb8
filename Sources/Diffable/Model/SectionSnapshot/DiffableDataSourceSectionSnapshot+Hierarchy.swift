extension DiffableDataSourceSectionSnapshot {
    typealias Problem = SectionSnapshotError.Problem

    // MARK: Adding items

    /// Appends childless, collapsed items as the last children of `parent`, or as the
    /// last root items when `parent` is nil.
    ///
    /// Traps when `parent` is not in the snapshot, when an item already is, or when
    /// `items` repeats one; ``tryAppend(_:to:)-([ItemIdentifierType],_)`` throws instead.
    /// - Complexity: O(k) amortized (plus O(depth)) when the new items land at the end of
    ///   the outline: appending roots, or children to the last root or to an item on
    ///   the outline's last branch; otherwise O(n).
    @_specialize(exported:true,where ItemIdentifierType == Int)
    @_specialize(exported:true,where ItemIdentifierType == String)
    public mutating func append(_ items: [ItemIdentifierType], to parent: ItemIdentifierType? = nil) {
        if appendAtEnd(items, to: parent) { return }
        trapping { try $0.appendAnywhere(items, to: parent) }
    }

    /// ``append(_:to:)-([ItemIdentifierType],_)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: as ``append(_:to:)-([ItemIdentifierType],_)``.
    public mutating func tryAppend(_ items: [ItemIdentifierType], to parent: ItemIdentifierType? = nil) throws(SectionSnapshotError) {
        if appendAtEnd(items, to: parent) { return }
        try appendAnywhere(items, to: parent)
    }

    /// The general path of ``tryAppend(_:to:)-([ItemIdentifierType],_)``: any parent, every check.
    private mutating func appendAnywhere(_ items: [ItemIdentifierType], to parent: ItemIdentifierType?) throws(SectionSnapshotError) {
        try add(.leaves(items, keys: storage.items.strategy.keys(items)), operation: "append(_:to:)", anchor: parent) { storage in
            guard let parent else { return (storage.count, -1) }
            return storage.position(of: parent).map { ($0 + Int(storage.sizes[$0]), $0) }
        }
    }

    /// The append of an outline loaded in order: new leaves at the very end (roots, or the
    /// children of an item on the last branch), all of them new. True when done; false when it
    /// changed nothing, and the general path decides (another place, a missing parent, an
    /// identifier present or repeated, or merely a hash collision).
    /// - Complexity: O(k + depth) amortized.
    @inline(__always)
    private mutating func appendAtEnd(_ items: [ItemIdentifierType], to parent: ItemIdentifierType?) -> Bool {
        if items.isEmpty { return false }
        // Shared storage is copied first, as the general path would for an append that succeeds.
        makeUnique()
        guard storage.appendNewLeavesAtEnd(items, to: parent) else { return false }
        checkInvariants()
        return true
    }

    /// Inserts childless, collapsed items just before `item`, as its siblings.
    /// Traps when `item` is not in the snapshot, when an inserted item already is, or
    /// on repeated identifiers; ``tryInsert(_:before:)-([ItemIdentifierType],_)`` throws instead.
    /// - Complexity: O(n).
    public mutating func insert(_ items: [ItemIdentifierType], before item: ItemIdentifierType) {
        trapping { try $0.tryInsert(items, before: item) }
    }

    /// Inserts childless, collapsed items just after `item` and its descendants, as its
    /// siblings. Traps as ``insert(_:before:)-([ItemIdentifierType],_)``; ``tryInsert(_:after:)-([ItemIdentifierType],_)`` throws instead.
    /// - Complexity: O(n); O(k) amortized when `item`'s subtree ends the outline.
    public mutating func insert(_ items: [ItemIdentifierType], after item: ItemIdentifierType) {
        trapping { try $0.tryInsert(items, after: item) }
    }

    /// ``insert(_:before:)-([ItemIdentifierType],_)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: as ``insert(_:before:)-([ItemIdentifierType],_)``.
    public mutating func tryInsert(_ items: [ItemIdentifierType], before item: ItemIdentifierType) throws(SectionSnapshotError) {
        try add(.leaves(items, keys: storage.items.strategy.keys(items)), operation: "insert(_:before:)", anchor: item) {
            $0.siblingPlace(of: item, after: false)
        }
    }

    /// ``insert(_:after:)-([ItemIdentifierType],_)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: as ``insert(_:after:)-([ItemIdentifierType],_)``.
    public mutating func tryInsert(_ items: [ItemIdentifierType], after item: ItemIdentifierType) throws(SectionSnapshotError) {
        try add(.leaves(items, keys: storage.items.strategy.keys(items)), operation: "insert(_:after:)", anchor: item) {
            $0.siblingPlace(of: item, after: true)
        }
    }

    /// Adds new items (leaves or another outline's subtrees) at the position and under the
    /// parent `place` finds (nil: the anchor is missing), after checking that they are new.
    mutating func add(
        _ addition: SectionSnapshotStorage<ItemIdentifierType>.Replacement, operation: String, anchor: ItemIdentifierType?,
        place: (SectionSnapshotStorage<ItemIdentifierType>) -> (position: Int, parent: Int)?
    ) throws(SectionSnapshotError) {
        let placement = place(storage)
        if placement != nil && addition.count == 0 { return }
        let items = addition.identifiers, keys = addition.keys
        if let placement {
            makeUnique()
            // One prefetched pass checks and claims the keys; any conflict (an identifier
            // present or repeated, or a hash collision) leaves the outline as it was.
            let range = placement.position..<placement.position
            if storage.replaceSubtrees(range, parent: placement.parent, with: addition, claimingKeys: true) {
                checkInvariants()
                return
            }
        }
        var problems: [Problem] = []
        if placement == nil, let anchor { problems.append(.notInSnapshot(String(reflecting: anchor))) }
        problems += newItemProblems(items, keys: keys, anchor: anchor)
        if !problems.isEmpty { throw SectionSnapshotError(operation: operation, problems: problems) }
        guard let placement else { return }
        // New after all: keys that merely collide, added one by one.
        storage.replaceSubtrees(placement.position..<placement.position, parent: placement.parent, with: addition)
        checkInvariants()
    }

    /// What is wrong with adding `items`: the anchor among them, repeats, and items already present.
    private func newItemProblems(_ items: [ItemIdentifierType], keys: [UInt64], anchor: ItemIdentifierType?) -> [Problem] {
        var problems: [Problem] = []
        if let anchor, items.contains(anchor) { problems.append(.anchorIsInserted(String(reflecting: anchor))) }
        // Every repeated identifier with all its indices, by first occurrence (one unequal
        // to itself, such as Double.nan, never repeats).
        var group: [ItemIdentifierType: Int] = [:]
        var indices: [[Int]] = []
        for (index, item) in items.enumerated() where item == item {
            if let known = group[item] {
                indices[known].append(index)
            } else {
                group[item] = indices.count
                indices.append([index])
            }
        }
        for positions in indices where positions.count > 1 {
            problems.append(.duplicate(String(reflecting: items[positions[0]]), positions: positions))
        }
        var reported = Set<Int>()
        for (item, key) in zip(items, keys) where item != anchor {
            if let position = storage.position(of: item, key: key), reported.insert(position).inserted {
                problems.append(.alreadyInSnapshot(String(reflecting: item)))
            }
        }
        return problems
    }

    // MARK: Deleting

    /// Deletes items with all their descendants; identifiers not in the snapshot are
    /// ignored (as in UIKit).
    /// - Complexity: O(k + removed items + n) at worst; O(k + removed items) when the
    ///   deleted subtrees end the outline.
    public mutating func delete(_ items: [ItemIdentifierType]) {
        var positions: [Int] = []
        for item in items {
            if let position = storage.position(of: item) { positions.append(position) }
        }
        guard !positions.isEmpty else { return }
        positions.sort()
        // Keep the outermost: a position inside an earlier kept subtree goes with it.
        var roots: [Int] = []
        for position in positions {
            if let last = roots.last, position < last + Int(storage.sizes[last]) { continue }
            roots.append(position)
        }
        makeUnique()
        storage.removeSubtrees(rootedAt: roots)
        checkInvariants()
    }

    /// Deletes every item and all expansion state.
    /// - Complexity: O(n).
    public mutating func deleteAll() {
        if isKnownUniquelyReferenced(&storage) { storage.removeAll() } else { storage = SectionSnapshotStorage() }
    }
}

extension SectionSnapshotStorage {
    /// Where siblings go just before `item`, or just after its subtree.
    func siblingPlace(of item: Item, after: Bool) -> (position: Int, parent: Int)? {
        guard let anchor = position(of: item) else { return nil }
        return (after ? anchor + Int(sizes[anchor]) : anchor, Int(parents[anchor]))
    }
}

extension SectionSnapshotStorage.Replacement {
    /// The identifiers added, in depth-first order.
    var identifiers: [Item] {
        switch self {
        case .leaves(let ids, _): ids
        case .subtrees(let block): Array(block.ids)
        }
    }

    /// Their keys.
    var keys: [UInt64] {
        switch self {
        case .leaves(_, let keys): keys
        case .subtrees(let block): Array(block.keys)
        }
    }
}
