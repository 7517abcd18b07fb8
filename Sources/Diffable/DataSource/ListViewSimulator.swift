import Foundation

/// A headless list view that checks batch updates the way `UITableView` and
/// `UICollectionView` do, replays them, and keeps the rows it would show.
///
/// Use it in tests to prove that a batch (or a whole ``SnapshotDifference``)
/// would not raise `NSInternalInconsistencyException` and would show exactly the
/// target snapshot:
///
/// ```swift
/// var view = ListViewSimulator<String, Int>()
/// view.reloadData(old)
/// try view.apply(new.difference(from: old))   // throws a Violation naming UIKit's message
/// assert(view.visibleSnapshot == new.withoutPendingUpdates())
/// ```
///
/// Every UIKit check reports UIKit's exception text word for word
/// (BATCH_RULES.md §2; `%@` index paths print as `{length = 2, path = S - I}`).
/// ``Mode/strict`` (the default) also rejects what UIKit accepts but gets wrong
/// or handles unreliably (item operations in moved, deleted or inserted sections,
/// section reloads next to other changes, reloads next to moves, raw-index move
/// conflicts, duplicate operations, reconfigures in structural batches), and both
/// modes check the replayed rows against the data source (a wrong move or a
/// stale cell is an error here, not a silent glitch).
public struct ListViewSimulator<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    public typealias Snapshot = DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>

    /// Which view's wording (rows or items) and reload collision rule (E12 or E11) to use.
    public enum Flavor: Sendable { case table, collection }

    /// How much to reject: what UIKit rejects (`compat`), or also what it mishandles (`strict`).
    public enum Mode: Sendable { case strict, compat }

    /// A rejected batch: the rule (E1…E27 from BATCH_RULES.md §2, I1…I9 from §1.2,
    /// B3, V9, R1) and the message (UIKit's exception text for E rules).
    public struct Violation: Error, Equatable, Sendable, CustomStringConvertible {
        /// The rule's tag, e.g. `"E2"`, `"I5"`, `"V9"`.
        public var rule: String
        /// UIKit's exception text for E rules; a sentence naming the problem otherwise.
        public var message: String
        /// `"rule: message"`. - Complexity: O(1).
        public var description: String { "\(rule): \(message)" }
    }

    /// The view whose wording and rules are applied.
    public let flavor: Flavor
    /// Strict (the default) or UIKit-compatible checking.
    public let mode: Mode
    private var sections: [SectionIdentifierType] = []
    private var rows: [[ItemIdentifierType]] = []
    private var loaded = false
    private var refreshed = Set<ItemIdentifierType>()
    private var refreshedSections = Set<SectionIdentifierType>()

    /// Batches accepted since the last ``reloadData(_:)``.
    public private(set) var acceptedBatchCount = 0

    /// - Complexity: O(1).
    public init(flavor: Flavor = .collection, mode: Mode = .strict) {
        self.flavor = flavor
        self.mode = mode
    }

    /// What the view shows, or nil before the first ``reloadData(_:)``.
    /// - Complexity: O(n + s).
    public var visibleSnapshot: Snapshot? {
        guard loaded else { return nil }
        var snapshot = Snapshot()
        snapshot.appendSections(sections)
        for (section, items) in zip(sections, rows) { snapshot.appendItems(items, toSection: section) }
        return snapshot
    }

    /// Loads `snapshot` without animation (UIKit's `reloadData()`).
    /// - Complexity: O(n + s).
    public mutating func reloadData(_ snapshot: Snapshot) {
        sections = snapshot.sectionIdentifiers
        rows = sections.map { snapshot.itemIdentifiers(inSection: $0) }
        loaded = true
        acceptedBatchCount = 0
        refreshed = []
        refreshedSections = []
    }

    /// Applies every batch of `difference` (the data source switching to
    /// `difference.new` inside each), then requires that the view shows
    /// `difference.new` and that every item and section it asks to reload or
    /// reconfigure was refreshed.
    /// - Throws: the first ``Violation``; the view keeps its last accepted state.
    /// - Complexity: O(n + s + operations · log operations) per batch.
    public mutating func apply(_ difference: SnapshotDifference<SectionIdentifierType, ItemIdentifierType>) throws(Violation) {
        refreshed = []
        refreshedSections = []
        for batch in difference.batches { try performBatchUpdates(batch, dataSourceAfter: difference.new) }
        let target = difference.new
        if sections != target.sectionIdentifiers || rows != sections.map({ target.itemIdentifiers(inSection: $0) }) {
            throw Violation(rule: "V9", message: "the view does not show the new snapshot after the update")
        }
        for item in target.reloadedItemIdentifiers + target.reconfiguredItemIdentifiers
        where !refreshed.contains(item) && !refreshedSections.contains(target.sectionIdentifier(containingItem: item)!) {
            throw Violation(rule: "V9", message: "stale content: item \(String(reflecting: item)) was not refreshed")
        }
        for section in target.reloadedSectionIdentifiers where !refreshedSections.contains(section) {
            throw Violation(rule: "V9", message: "stale content: section \(String(reflecting: section)) was not refreshed")
        }
    }

    /// Validates one batch against the rows the view shows and the data source's
    /// state after the batch, then replays it.
    /// - Throws: the first ``Violation``; on error the view is unchanged.
    /// - Complexity: O(n + s + operations · log operations).
    public mutating func performBatchUpdates(_ batch: BatchUpdate, dataSourceAfter snapshot: Snapshot) throws(Violation) {
        guard loaded else {
            throw Violation(rule: "B3", message: "batch update before the view loaded its data (reload first)")
        }
        var check = BatchCheck(view: self, batch: batch, target: snapshot)
        try check.run()
        sections = check.newSections
        rows = check.newRows
        refreshed.formUnion(check.refreshedItems)
        refreshedSections.formUnion(check.refreshedSectionIDs)
        acceptedBatchCount += 1
    }
}

/// The validation and replay of one batch (BATCH_RULES.md §4.7, steps V1–V9).
private struct BatchCheck<S: Hashable, I: Hashable> {
    typealias View = ListViewSimulator<S, I>
    let view: View
    var batch: BatchUpdate
    let target: DiffableDataSourceSnapshot<S, I>
    let strict: Bool
    let table: Bool
    let oldCounts: [Int]
    let newCounts: [Int]
    let targetSections: [S]

    var sectionDeletes = Set<Int>()
    var sectionInserts = Set<Int>()
    var sectionMoveFrom: [Int: Int] = [:]  // old → new
    var sectionMoveTo: [Int: Int] = [:]  // new → old
    var reloadedSectionTargets: [Int: Int] = [:]  // old → derived new
    var itemDeletes = Set<IndexPath>()
    var itemInserts = Set<IndexPath>()
    var reloadPairs: [IndexPath: IndexPath] = [:]  // old → derived new
    var reloadTargets = Set<IndexPath>()
    var moves: [BatchUpdate.ItemMove] = []

    var newSections: [S] = []
    var newRows: [[I]] = []
    var refreshedItems = Set<I>()
    var refreshedSectionIDs = Set<S>()

    init(view: View, batch: BatchUpdate, target: DiffableDataSourceSnapshot<S, I>) {
        self.view = view
        self.batch = batch
        self.target = target
        strict = view.mode == .strict
        table = view.flavor == .table
        oldCounts = view.rowsForCheck.map(\.count)
        targetSections = target.sectionIdentifiers
        newCounts = targetSections.map { target.numberOfItems(inSection: $0) }
    }

    var m: Int { oldCounts.count }
    var n: Int { newCounts.count }
    var unit: String { table ? "row" : "item" }
    var units: String { table ? "rows" : "items" }
    var viewName: String { table ? "table view" : "collection view" }

    static func show(_ path: IndexPath) -> String { "{length = 2, path = \(path.section) - \(path.item)}" }

    func fail(_ rule: String, _ message: String) -> View.Violation { View.Violation(rule: rule, message: message) }

    mutating func run() throws(View.Violation) {
        try checkDuplicates()
        try deriveSectionReloads()
        try deriveItemReloads()
        try checkSectionOperations()
        try checkItemDeletes()
        try checkItemInserts()
        try checkItemMoves()
        let map = try checkCounts()
        if strict { try checkStrictRules(map) }
        try replay(map)
    }

    // V1
    mutating func checkDuplicates() throws(View.Violation) {
        func duplicate<T: Hashable>(_ values: [T]) -> T? {
            var seen = Set<T>()
            return values.first { !seen.insert($0).inserted }
        }
        if strict {
            let lists: [(String, String?)] = [
                ("deleteSections", duplicate(batch.deleteSections).map { "\($0)" }),
                ("insertSections", duplicate(batch.insertSections).map { "\($0)" }),
                ("moveSections", duplicate(batch.moveSections).map { "\($0)" }),
                ("reloadSections", duplicate(batch.reloadSections).map { "\($0)" }),
                ("deleteItems", duplicate(batch.deleteItems).map { Self.show($0) }),
                ("insertItems", duplicate(batch.insertItems).map { Self.show($0) }),
                ("moveItems", duplicate(batch.moveItems).map { "\($0)" }),
                ("reloadItems", duplicate(batch.reloadItems).map { Self.show($0) }),
                ("reconfigureItems", duplicate(batch.reconfigureItems).map { Self.show($0) }),
            ]
            if let (list, value) = lists.first(where: { $0.1 != nil }) {
                throw fail("E25", "duplicate entry \(value!) in \(list)")
            }
        } else {
            var seen = Set<BatchUpdate.ItemMove>()
            batch.moveItems = batch.moveItems.filter { seen.insert($0).inserted }  // E24: exact repeats dropped
        }
    }

    /// B4: where a reload's implied insert goes — shifted by deletes and inserts only, never by moves.
    func derivedSection(_ old: Int, deletes: Set<Int>, inserts: Set<Int>) -> Int {
        var value = old - deletes.filter { $0 <= old }.count
        for inserted in inserts.sorted() where inserted <= value { value += 1 }
        return value
    }

    // V2
    mutating func deriveSectionReloads() throws(View.Violation) {
        let deletes = Set(batch.deleteSections), inserts = Set(batch.insertSections)
        let moveSources = Set(batch.moveSections.map(\.from))
        for section in batch.reloadSections {
            if section >= m || section < 0 {
                throw fail("E7", "attempt to delete section \(section), but there are only \(m) sections before the update")
            }
            if deletes.contains(section) { throw fail("I7", "Request to reload and delete same section (\(section))") }
            if moveSources.contains(section) {
                throw fail("E20", "attempt to perform a delete and a move from the same section (\(section))")
            }
            reloadedSectionTargets[section] = derivedSection(section, deletes: deletes, inserts: inserts)
        }
        sectionDeletes = deletes.union(reloadedSectionTargets.keys)
        sectionInserts = inserts.union(reloadedSectionTargets.values)
    }

    // V3
    mutating func deriveItemReloads() throws(View.Violation) {
        let deletes = Set(batch.deleteItems)
        let moveSources = Set(batch.moveItems.map(\.from))
        let explicitSectionDeletes = Set(batch.deleteSections), explicitSectionInserts = Set(batch.insertSections)
        for path in batch.reloadItems {
            try checkDeleteBounds(path)
            if deletes.contains(path) { throw fail("E9", "attempt to delete and reload the same index path (\(Self.show(path)))") }
            if moveSources.contains(path) {
                throw fail("E10", "attempt to perform a delete and a move from the same index path (\(Self.show(path)))")
            }
            if sectionDeletes.contains(path.section) {
                throw fail("E26", "attempt to reload index path (\(Self.show(path))) in a deleted section")
            }
            let section = derivedSection(path.section, deletes: explicitSectionDeletes, inserts: explicitSectionInserts)
            var item = path.item
            for deleted in batch.deleteItems.filter({ $0.section == path.section }).map(\.item).sorted(by: >)
            where deleted <= item { item -= 1 }
            for inserted in batch.insertItems.filter({ $0.section == section }).map(\.item).sorted()
            where inserted <= item { item += 1 }
            let derived = IndexPath(item: item, section: section)
            reloadPairs[path] = derived
            reloadTargets.insert(derived)
        }
        itemDeletes = deletes.union(reloadPairs.keys)
        itemInserts = Set(batch.insertItems).union(reloadPairs.values)
    }

    // V4
    mutating func checkSectionOperations() throws(View.Violation) {
        for section in batch.deleteSections where section >= m || section < 0 {
            throw fail("E7", "attempt to delete section \(section), but there are only \(m) sections before the update")
        }
        for section in batch.insertSections where section >= n || section < 0 {
            throw fail("E8", "attempt to insert section \(section) but there are only \(n) sections after the update")
        }
        for move in batch.moveSections {
            if move.from >= m || move.from < 0 {
                throw fail("E21", "attempt to move section \(move.from), but there are only \(m) sections before the update")
            }
            if move.to >= n || move.to < 0 {
                throw fail(
                    "E21",
                    "attempt to to move section \(move.from) to section \(move.to), but there are only \(n) sections after the update")
            }
            if sectionDeletes.contains(move.from) {
                throw fail("E20", "attempt to perform a delete and a move from the same section (\(move.from))")
            }
            if sectionInserts.contains(move.to) {
                throw fail("E20", "attempt to perform an insert and a move to the same section (\(move.to))")
            }
            if let other = sectionMoveFrom[move.from] {
                throw fail("E22", "attempt to move section \(move.from) to both section \(other) and section \(move.to)")
            }
            if let other = sectionMoveTo[move.to] {
                throw fail("E22", "attempt to move both section \(other) and section \(move.from) to section \(move.to)")
            }
            sectionMoveFrom[move.from] = move.to
            sectionMoveTo[move.to] = move.from
        }
    }

    /// E4/E3: a delete (explicit or implied by a reload) must name an existing old row.
    func checkDeleteBounds(_ path: IndexPath) throws(View.Violation) {
        if path.section >= m {
            throw fail(
                "E4",
                "attempt to delete \(unit) \(path.item) from section \(path.section), but there are only \(m) sections before the update"
            )
        }
        if path.item >= oldCounts[path.section] {
            throw fail(
                "E3",
                "attempt to delete \(unit) \(path.item) from section \(path.section) which only contains \(oldCounts[path.section]) \(units) before the update"
            )
        }
    }

    // V5
    mutating func checkItemDeletes() throws(View.Violation) {
        for path in batch.deleteItems {
            try checkDeleteBounds(path)
        }
        // I1: UIKit drops item deletes inside deleted sections (strict rejects them later).
        itemDeletes = itemDeletes.filter { !sectionDeletes.contains($0.section) || reloadPairs[$0] != nil }
    }

    // V6
    mutating func checkItemInserts() throws(View.Violation) {
        for path in batch.insertItems {
            if path.section >= n {
                throw fail(
                    "E6",
                    "attempt to insert \(unit) \(path.item) into section \(path.section), but there are only \(n) sections after the update"
                )
            }
            if path.item >= newCounts[path.section] {
                throw fail(
                    "E5",
                    "attempt to insert \(unit) \(path.item) into section \(path.section), but there are only \(newCounts[path.section]) \(units) in section \(path.section) after the update"
                )
            }
        }
        for path in reloadTargets where path.section >= n || path.item >= newCounts[path.section] {
            throw fail(
                "E5",
                "attempt to insert \(unit) \(path.item) into section \(path.section), but there are only \(path.section < n ? newCounts[path.section] : 0) \(units) in section \(path.section) after the update"
            )
        }
        // I2: UIKit drops item inserts inside inserted sections.
        itemInserts = itemInserts.filter { !sectionInserts.contains($0.section) || reloadTargets.contains($0) }
    }

    // V7
    mutating func checkItemMoves() throws(View.Violation) {
        var sources: [IndexPath: IndexPath] = [:], targets: [IndexPath: IndexPath] = [:]
        for move in batch.moveItems {
            let (from, to) = (move.from, move.to)
            if from.section >= m {
                throw fail(
                    "E15",
                    "attempt to move index path (\(Self.show(from))) from a section that does not exist - there are only \(m) sections before the update"
                )
            }
            if to.section >= n {
                throw fail(
                    "E15",
                    "attempt to move index path (\(Self.show(from))) to index path (\(Self.show(to))) in section that does not exist - there are only \(n) sections after the update"
                )
            }
            if from.item >= oldCounts[from.section] {
                throw fail(
                    "E13",
                    "attempt to move index path (\(Self.show(from))) that does not exist - there are only \(oldCounts[from.section]) \(units) in section \(from.section) before the update"
                )
            }
            if to.item >= newCounts[to.section] {
                throw fail(
                    "E14",
                    "attempt to move index path (\(Self.show(from))) to index path (\(Self.show(to))) that does not exist - there are only \(newCounts[to.section]) \(units) in section \(to.section) after the update"
                )
            }
            if itemDeletes.contains(from) || reloadPairs[from] != nil {
                throw fail("E10", "attempt to perform a delete and a move from the same index path (\(Self.show(from)))")
            }
            if itemInserts.contains(to) {
                if table && reloadTargets.contains(to) { throw fail("E12", "Attempt to create two animations for cell") }
                throw fail("E11", "attempt to perform an insert and a move to the same index path (\(Self.show(to)))")
            }
            if sectionDeletes.contains(from.section) {
                throw fail(
                    "E19",
                    table ? "cannot move a row from a deleted section" : "cannot move an item from a deleted section (\(from.section))")
            }
            if sectionInserts.contains(to.section) {
                throw fail(
                    "E18",
                    table
                        ? "cannot move a row into a newly inserted section (\(to.section))"
                        : "cannot move an item into a newly inserted section (\(to.section))")
            }
            if let other = sources[from] {
                throw fail(
                    "E17", "attempt to move \(unit) at index path \(Self.show(from)) to both \(Self.show(other)) and \(Self.show(to))")
            }
            if let other = targets[to] {
                throw fail(
                    "E16", "attempt to move both \(unit) at index path \(Self.show(other)) and \(Self.show(from)) to \(Self.show(to))")
            }
            sources[from] = to
            targets[to] = from
        }
        moves = batch.moveItems
    }

    // V8: the section map (B6) and the count checks.
    func checkCounts() throws(View.Violation) -> [Int: Int] {
        let expectedSections = m - sectionDeletes.count + sectionInserts.count
        if n != expectedSections {
            throw fail(
                "E1",
                "Invalid update: invalid number of sections.  The number of sections contained in the \(viewName) after the update (\(n)) must be equal to the number of sections contained in the \(viewName) before the update (\(m)), plus or minus the number of sections inserted or deleted (\(sectionInserts.count) inserted, \(sectionDeletes.count) deleted)."
            )
        }
        var map: [Int: Int] = [:]  // old → new
        let taken = sectionInserts.union(sectionMoveTo.keys)
        var free = (0..<n).filter { !taken.contains($0) }.makeIterator()
        for old in 0..<m where !sectionDeletes.contains(old) {
            if let target = sectionMoveFrom[old] { map[old] = target } else if let next = free.next() { map[old] = next }
        }
        var deleted = [Int](repeating: 0, count: m), movedOut = [Int](repeating: 0, count: m)
        var inserted = [Int](repeating: 0, count: n), movedIn = [Int](repeating: 0, count: n)
        for path in itemDeletes { deleted[path.section] += 1 }
        for path in itemInserts { inserted[path.section] += 1 }
        for move in moves where move.from.section != move.to.section {  // raw indices, as UIKit compares
            movedOut[move.from.section] += 1
            movedIn[move.to.section] += 1
        }
        for (old, new) in map.sorted(by: { $0.value < $1.value }) {
            let expected = oldCounts[old] - deleted[old] + inserted[new] + movedIn[new] - movedOut[old]
            if newCounts[new] != expected {
                throw fail(
                    "E2",
                    "Invalid update: invalid number of \(units) in section \(new).  The number of \(units) contained in an existing section after the update (\(newCounts[new])) must be equal to the number of \(units) contained in that section before the update (\(oldCounts[old])), plus or minus the number of \(units) inserted or deleted from that section (\(inserted[new]) inserted, \(deleted[old]) deleted) and plus or minus the number of \(units) moved into or out of that section (\(movedIn[new]) moved in, \(movedOut[old]) moved out)."
                )
            }
        }
        return map
    }

    /// What UIKit accepts but mishandles (BATCH_RULES.md §1.2, §4.6).
    func checkStrictRules(_ map: [Int: Int]) throws(View.Violation) {
        let explicitSectionDeletes = Set(batch.deleteSections), explicitSectionInserts = Set(batch.insertSections)
        for path in batch.deleteItems where explicitSectionDeletes.contains(path.section) {
            throw fail("I1", "item delete \(Self.show(path)) inside deleted section \(path.section)")
        }
        for path in batch.insertItems where explicitSectionInserts.contains(path.section) {
            throw fail("I2", "item insert \(Self.show(path)) inside inserted section \(path.section)")
        }
        let movedSources = Set(sectionMoveFrom.keys), movedTargets = Set(sectionMoveTo.keys)
        for path in batch.deleteItems + batch.reloadItems where movedSources.contains(path.section) {
            throw fail("I5", "item operation at \(Self.show(path)) in moved section \(path.section)")
        }
        for path in batch.insertItems where movedTargets.contains(path.section) {
            throw fail("I5", "item insert at \(Self.show(path)) in moved section \(path.section)")
        }
        for move in moves where movedSources.contains(move.from.section) || movedTargets.contains(move.to.section) {
            throw fail("I5", "item move \(move) touches a moved section")
        }
        if !batch.reloadSections.isEmpty {
            if !batch.moveSections.isEmpty { throw fail("I7", "section reload in a batch with section moves") }
            let reloaded = Set(batch.reloadSections)
            let touched =
                (batch.deleteItems + batch.reloadItems + moves.map(\.from)).contains { reloaded.contains($0.section) }
                || (batch.insertItems + moves.map(\.to)).contains { reloadedSectionTargets.values.contains($0.section) }
            if touched { throw fail("I7", "item operation in a reloaded section") }
        }
        if !batch.reloadItems.isEmpty && (!moves.isEmpty || !batch.moveSections.isEmpty) {
            throw fail("I9", "item reload in a batch with moves")
        }
        for move in moves where move.from.section == move.to.section && map[move.from.section] != move.to.section {
            throw fail("I8", "move \(move) between different sections with equal raw indices")
        }
        if !batch.reconfigureItems.isEmpty && !batch.isRefreshOnly {
            throw fail("R1", "reconfigure in a batch with structural changes")
        }
        let reloadSet = Set(batch.reloadItems)
        for path in batch.reconfigureItems where reloadSet.contains(path) {
            throw fail("R1", "reconfigure of a reloaded index path \(Self.show(path))")
        }
    }

    /// V9: lay out every new section and compare identities with the data source.
    mutating func replay(_ map: [Int: Int]) throws(View.Violation) {
        let oldRows = view.rowsForCheck
        var inverse: [Int: Int] = [:]
        for (old, new) in map { inverse[new] = old }
        var moveTargets: [IndexPath: IndexPath] = [:]
        var leaving = itemDeletes.union(moves.map(\.from))
        for move in moves { moveTargets[move.to] = move.from }
        var reloadedAt: [IndexPath: IndexPath] = [:]
        for (old, new) in reloadPairs { reloadedAt[new] = old }
        leaving.formUnion(reloadPairs.keys)
        var result: [[I]] = []
        for (t, section) in targetSections.enumerated() {
            let expected = target.itemIdentifiers(inSection: section)
            guard let o = inverse[t], !sectionInserts.contains(t) else {
                result.append(expected)  // a new or reloaded section is laid out fresh
                refreshedItems.formUnion(expected)
                refreshedSectionIDs.insert(section)
                continue
            }
            if view.sectionsForCheck[o] != section {
                throw fail(
                    "V9",
                    "section \(t) shows old section \(String(reflecting: view.sectionsForCheck[o])) but the data source has \(String(reflecting: section))"
                )
            }
            var slots = [I?](repeating: nil, count: newCounts[t])
            for (index, _) in slots.enumerated() {
                let path = IndexPath(item: index, section: t)
                if let source = moveTargets[path] {
                    slots[index] = oldRows[source.section][source.item]
                } else if let source = reloadedAt[path] {
                    let item = oldRows[source.section][source.item]
                    slots[index] = item
                    refreshedItems.insert(item)
                } else if itemInserts.contains(path) {
                    slots[index] = expected[index]
                    refreshedItems.insert(expected[index])
                }
            }
            var carried = oldRows[o].enumerated().filter { !leaving.contains(IndexPath(item: $0.offset, section: o)) }
                .map(\.element).makeIterator()
            for index in slots.indices where slots[index] == nil { slots[index] = carried.next() }
            let shown = slots.compactMap { $0 }
            if shown != expected {
                throw fail(
                    "V9",
                    "batch does not produce the target state: section \(t) would show \(shown.map { String(reflecting: $0) }), the data source has \(expected.map { String(reflecting: $0) })"
                )
            }
            result.append(shown)
        }
        for path in batch.reconfigureItems {
            guard path.section < result.count, path.item < result[path.section].count else {
                throw fail("R1", "reconfigure of index path \(Self.show(path)) that does not exist")
            }
            refreshedItems.insert(result[path.section][path.item])
        }
        newSections = targetSections
        newRows = result
    }
}

extension ListViewSimulator {
    fileprivate var rowsForCheck: [[ItemIdentifierType]] { rows }
    fileprivate var sectionsForCheck: [SectionIdentifierType] { sections }
}
