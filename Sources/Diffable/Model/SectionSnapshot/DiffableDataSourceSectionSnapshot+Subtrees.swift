extension DiffableDataSourceSectionSnapshot {
    // MARK: Taking a subtree out

    /// The descendants of `parent` as an outline of their own (its children become
    /// root items), with `parent` as the single root when `includingParent` is true.
    /// Expansion states come along. Traps when `parent` is not in the snapshot;
    /// ``trySnapshot(of:includingParent:)`` throws instead.
    /// - Complexity: O(size of the subtree).
    public func snapshot(of parent: ItemIdentifierType, includingParent: Bool = false) -> Self {
        do {
            return try trySnapshot(of: parent, includingParent: includingParent)
        } catch {
            fatalError("Diffable: \(error)")
        }
    }

    /// ``snapshot(of:includingParent:)`` that throws instead of trapping.
    /// - Complexity: O(size of the subtree).
    public func trySnapshot(of parent: ItemIdentifierType, includingParent: Bool = false) throws(SectionSnapshotError) -> Self {
        guard let position = storage.position(of: parent) else {
            throw SectionSnapshotError(
                operation: "snapshot(of:includingParent:)", problems: [.notInSnapshot(String(reflecting: parent))])
        }
        let end = position + Int(storage.sizes[position])
        let block = OutlineBlock(storage, range: (includingParent ? position : position + 1)..<end)
        let result = SectionSnapshotStorage<ItemIdentifierType>()
        result.replaceSubtrees(0..<0, parent: -1, with: .subtrees(block))
        return Self(storage: result)
    }

    // MARK: Putting subtrees in

    /// Appends the root items of `snapshot`, with their descendants and expansion states,
    /// as the last children of `parent` (or as the last root items when nil).
    /// Traps when `parent` is not in this snapshot or is in `snapshot`, or when any
    /// item of `snapshot` is already here; ``tryAppend(_:to:)-(DiffableDataSourceSectionSnapshot<ItemIdentifierType>,_)`` throws instead.
    /// - Complexity: O(k) amortized (plus O(depth)) at the end of the outline, else O(n + k).
    public mutating func append(_ snapshot: Self, to parent: ItemIdentifierType? = nil) {
        trapping { try $0.tryAppend(snapshot, to: parent) }
    }

    /// Inserts the root items of `snapshot`, with their descendants and expansion states,
    /// just before `item`, as its siblings. Traps as ``append(_:to:)-(DiffableDataSourceSectionSnapshot<ItemIdentifierType>,_)``.
    /// - Complexity: O(n + k).
    public mutating func insert(_ snapshot: Self, before item: ItemIdentifierType) {
        trapping { try $0.tryInsert(snapshot, before: item) }
    }

    /// Inserts the root items of `snapshot`, with their descendants and expansion states,
    /// just after `item` and its descendants, as its siblings. Traps as ``append(_:to:)-(DiffableDataSourceSectionSnapshot<ItemIdentifierType>,_)``.
    /// - Complexity: O(n + k); O(k) amortized when `item`'s subtree ends the outline.
    public mutating func insert(_ snapshot: Self, after item: ItemIdentifierType) {
        trapping { try $0.tryInsert(snapshot, after: item) }
    }

    /// ``append(_:to:)-(DiffableDataSourceSectionSnapshot<ItemIdentifierType>,_)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: as ``append(_:to:)-(DiffableDataSourceSectionSnapshot<ItemIdentifierType>,_)``.
    public mutating func tryAppend(_ snapshot: Self, to parent: ItemIdentifierType? = nil) throws(SectionSnapshotError) {
        try add(.subtrees(OutlineBlock(snapshot.storage)), operation: "append(_:to:)", anchor: parent) { storage in
            guard let parent else { return (storage.count, -1) }
            return storage.position(of: parent).map { ($0 + Int(storage.sizes[$0]), $0) }
        }
    }

    /// ``insert(_:before:)-(DiffableDataSourceSectionSnapshot<ItemIdentifierType>,_)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: as ``insert(_:before:)-(DiffableDataSourceSectionSnapshot<ItemIdentifierType>,_)``.
    public mutating func tryInsert(_ snapshot: Self, before item: ItemIdentifierType) throws(SectionSnapshotError) {
        try add(.subtrees(OutlineBlock(snapshot.storage)), operation: "insert(_:before:)", anchor: item) {
            $0.siblingPlace(of: item, after: false)
        }
    }

    /// ``insert(_:after:)-(DiffableDataSourceSectionSnapshot<ItemIdentifierType>,_)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: as ``insert(_:after:)-(DiffableDataSourceSectionSnapshot<ItemIdentifierType>,_)``.
    public mutating func tryInsert(_ snapshot: Self, after item: ItemIdentifierType) throws(SectionSnapshotError) {
        try add(.subtrees(OutlineBlock(snapshot.storage)), operation: "insert(_:after:)", anchor: item) {
            $0.siblingPlace(of: item, after: true)
        }
    }

    // MARK: Replacing children

    /// Replaces every descendant of `parent` by the items of `snapshot` (its root items
    /// become `parent`'s children). Items of `snapshot` that were descendants of `parent`
    /// before may stay; an item is expanded afterwards when it is expanded in `snapshot`
    /// or was expanded here before (so rebuilding children does not collapse them).
    /// Traps when `parent` is not in the snapshot or is in `snapshot`, or when an item of
    /// `snapshot` is elsewhere in this outline; ``tryReplace(childrenOf:using:)`` throws instead.
    /// - Complexity: O(k + removed descendants + depth) at the end of the outline, else O(n + k).
    public mutating func replace(childrenOf parent: ItemIdentifierType, using snapshot: Self) {
        trapping { try $0.tryReplace(childrenOf: parent, using: snapshot) }
    }

    /// ``replace(childrenOf:using:)`` that throws instead of trapping; on error nothing changes.
    /// - Complexity: as ``replace(childrenOf:using:)``.
    public mutating func tryReplace(childrenOf parent: ItemIdentifierType, using snapshot: Self) throws(SectionSnapshotError) {
        let position = storage.position(of: parent)
        var problems: [Problem] = []
        if position == nil { problems.append(.notInSnapshot(String(reflecting: parent))) }
        if snapshot.contains(parent) { problems.append(.anchorIsInserted(String(reflecting: parent))) }
        var block = OutlineBlock(snapshot.storage)
        if let position {
            let descendants = (position + 1)..<(position + Int(storage.sizes[position]))
            for (index, (item, key)) in zip(block.ids, block.keys).enumerated() {
                guard let existing = storage.position(of: item, key: key), existing != position else { continue }
                if !descendants.contains(existing) {
                    problems.append(.alreadyInSnapshot(String(reflecting: item)))
                } else if storage.expanded[existing] {
                    block.expanded[index] = true
                }
            }
        }
        guard let position, problems.isEmpty else {
            throw SectionSnapshotError(operation: "replace(childrenOf:using:)", problems: problems)
        }
        makeUnique()
        storage.replaceSubtrees((position + 1)..<(position + Int(storage.sizes[position])), parent: position, with: .subtrees(block))
        checkInvariants()
    }
}
