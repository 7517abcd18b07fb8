extension DiffableDataSourceSectionSnapshot {
    /// Builds an outline from untrusted `(item, parent)` pairs given in any order
    /// (nil parent: a root item); all items start collapsed. See
    /// `init(validating:)` (with `isExpanded`).
    /// - Complexity: O(k) expected.
    public init(validating entries: [(item: ItemIdentifierType, parent: ItemIdentifierType?)]) throws(SectionSnapshotError) {
        try self.init(validating: entries.mapped { ($0.item, $0.parent, false) })
    }

    /// Builds an outline from untrusted `(item, parent, isExpanded)` entries given in
    /// any order (nil parent: a root item). Siblings keep the order in which they
    /// appear among the entries; a parent may come after its children.
    ///
    /// Never traps. Throws one ``SectionSnapshotError`` (operation `init(validating:)`)
    /// listing **every** problem: each identifier given more than once with all its
    /// entry indices, each entry whose parent is not among the items, and each cycle
    /// of parents (items under a cycle or under an unknown parent are not reported
    /// again: fixing those problems places them), and, for identifier types keyed by their own
    /// `hashValue`, each entry whose identifier hashes differently when hashed again.
    /// - Complexity: O(k) expected (twice the hashing for types keyed by `hashValue`).
    public init(
        validating entries: [(item: ItemIdentifierType, parent: ItemIdentifierType?, isExpanded: Bool)]
    ) throws(SectionSnapshotError) {
        let items = entries.mapped { $0.item }
        let (parents, keys, problems) = Self.entryProblems(entries, items: items)
        if !problems.isEmpty { throw SectionSnapshotError(operation: "init(validating:)", problems: problems) }
        self.init(storage: Self.build(items: items, keys: keys, parents: parents, expanded: entries.mapped { $0.isExpanded }))
        checkInvariants()
    }

    /// The entry index of each entry's parent (-1 for a root; entries are unique when
    /// there are no problems), the keys of the items, and every problem.
    private static func entryProblems(
        _ entries: [(item: ItemIdentifierType, parent: ItemIdentifierType?, isExpanded: Bool)], items: [ItemIdentifierType]
    ) -> (parents: [Int32], keys: [UInt64], problems: [Problem]) {
        let strategy = KeyStrategy.of(ItemIdentifierType.self)
        let keys = strategy.keys(items)
        // Key → index of the first entry with that identifier.
        let firstEntry = IdentifierTable()
        do { try firstEntry.reserveEmpty(items.count) } catch { return ([], [], [.outOfMemory]) }
        func find(_ item: ItemIdentifierType, _ key: UInt64) -> Int? {
            firstEntry.slot(of: item, key: key) { items[Int($0)] }.map { Int($0) }
        }
        var repeats: [Int: [Int]] = [:]
        var isRepeat = [Bool](repeating: false, count: items.count)
        for (index, (item, key)) in zip(items, keys).enumerated() {
            if let first = find(item, key) {
                repeats[first, default: [first]].append(index)
                isRepeat[index] = true
            } else {
                firstEntry.insert(key: key, slot: Int32(index))
            }
        }
        var problems: [Problem] = repeats.keys.sorted().map {
            .duplicate(String(reflecting: items[$0]), positions: repeats[$0]!)
        }
        // Parents as entry indices: -1 root, -2 unknown.
        var parents = [Int32](repeating: -1, count: entries.count)
        for (index, entry) in entries.enumerated() {
            guard let parent = entry.parent else { continue }
            if let found = find(parent, strategy.key(parent)) {
                parents[index] = Int32(found)
            } else {
                parents[index] = -2
                problems.append(.unknownParent(item: String(reflecting: entry.item), parent: String(reflecting: parent)))
            }
        }
        problems += cycles(parents: parents, isFirst: { !isRepeat[$0] }).map { .cycle($0.map { String(reflecting: items[$0]) }) }
        // Identifiers keyed by the user's hashValue are keyed again: a second key that differs
        // is a hash that is not a function of the value (Double.nan, unequal to itself, is exempt).
        if strategy.isUserKeyed {
            problems += items.indices.filter { items[$0] == items[$0] && strategy.key(items[$0]) != keys[$0] }.map {
                .inconsistentHashing(String(reflecting: items[$0]), positions: [$0])
            }
        }
        return (parents, keys, problems)
    }

    /// Every loop in the parent links (each as entry indices, each followed by its parent).
    /// - Complexity: O(k).
    private static func cycles(parents: [Int32], isFirst: (Int) -> Bool) -> [[Int]] {
        var state = [CycleSearchState](repeating: .unseen, count: parents.count)
        var found: [[Int]] = []
        var path: [Int] = []
        for start in parents.indices where state[start] == .unseen && isFirst(start) {
            path.removeAll(keepingCapacity: true)
            var node = start
            var outcome = CycleSearchState.placed
            while true {
                if node == -1 { break }
                if node == -2 {
                    outcome = .unplaced
                    break
                }
                if state[node] == .placed || state[node] == .unplaced {
                    outcome = state[node]
                    break
                }
                if state[node] == .onPath {
                    found.append(Array(path[path.firstIndex(of: node)!...]))
                    outcome = .unplaced
                    break
                }
                state[node] = .onPath
                path.append(node)
                node = Int(parents[node])
            }
            for node in path { state[node] = outcome }
        }
        return found
    }

    /// The depth-first storage of valid entries (unique, parents known, no cycle).
    /// - Complexity: O(k) expected.
    private static func build(
        items: [ItemIdentifierType], keys: [UInt64], parents: [Int32], expanded: [Bool]
    ) -> SectionSnapshotStorage<ItemIdentifierType> {
        let count = items.count
        // Children of each entry in entry order (counting sort), roots last.
        var starts = [Int32](repeating: 0, count: count + 2)
        for parent in parents { starts[Int(parent < 0 ? Int32(count) : parent) + 1] += 1 }
        for index in 0..<(count + 1) { starts[index + 1] += starts[index] }
        var children = [Int32](repeating: 0, count: count)
        var fill = starts
        for (index, parent) in parents.enumerated() {
            let slot = Int(parent < 0 ? Int32(count) : parent)
            children[Int(fill[slot])] = Int32(index)
            fill[slot] += 1
        }
        // Pre-order walk: an explicit stack, children pushed in reverse.
        let storage = SectionSnapshotStorage<ItemIdentifierType>()
        var positionOfEntry = [Int32](repeating: -1, count: count)
        var stack: [Int32] = Array(children[Int(starts[count])..<Int(starts[count + 1])].reversed())
        storage.reserveRows(count)
        while let entry = stack.popLast() {
            let parent = parents[Int(entry)]
            let parentPosition = parent < 0 ? Int32(-1) : positionOfEntry[Int(parent)]
            positionOfEntry[Int(entry)] = Int32(storage.count)
            storage.appendRow(items[Int(entry)], key: keys[Int(entry)], parent: parentPosition, expanded: expanded[Int(entry)])
            stack.append(contentsOf: children[Int(starts[Int(entry)])..<Int(starts[Int(entry) + 1])].reversed())
        }
        storage.computeSubtreeSizes()
        storage.addTableEntries(0..<count)
        return storage
    }
}

/// Where the cycle search stands with an entry: not reached yet, on the parent chain
/// being followed, or known to reach a root (placed) or not (unplaced).
private enum CycleSearchState: UInt8 { case unseen, onPath, placed, unplaced }
