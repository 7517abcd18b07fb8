import Foundation

@testable import Diffable

// The validator as it was before the flat-array rewrite (Sets and Dictionaries of IndexPath),
// kept as the oracle of BatchCheckOracleTests: the rewrite must give the same verdict and text.

struct ReferenceBatchCheck {
    typealias Violation = BatchValidator.Violation
    var batch: BatchUpdate
    let strict: Bool
    let table: Bool
    let oldCounts: [Int]
    let newCounts: [Int]

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

    init(validator: BatchValidator, batch: BatchUpdate, oldCounts: [Int], newCounts: [Int]) {
        self.batch = batch
        strict = validator.mode == .strict
        table = validator.flavor == .table
        self.oldCounts = oldCounts
        self.newCounts = newCounts
    }

    var m: Int { oldCounts.count }
    var n: Int { newCounts.count }
    var unit: String { table ? "row" : "item" }
    var units: String { table ? "rows" : "items" }
    var viewName: String { table ? "table view" : "collection view" }

    static func show(_ path: IndexPath) -> String { BatchValidator.show(path) }

    func fail(_ rule: String, _ message: String) -> Violation { Violation(rule: rule, message: message) }

    /// The first violation, or nil when the batch passes V0–V8 (and the strict rules).
    mutating func run() -> Violation? {
        do throws(Violation) {
            try checkShapes()
            try checkDuplicates()
            try deriveSectionReloads()
            try deriveItemReloads()
            try checkSectionOperations()
            try checkItemDeletes()
            try checkItemInserts()
            try checkItemMoves()
            let map = try checkCounts()
            if strict { try checkStrictRules(map) }
            try checkReconfigures()
            return nil
        } catch {
            return error
        }
    }

    // V0: what cannot be read at all — negative counts, index paths without exactly two indices.
    func checkShapes() throws(Violation) {
        if let section = oldCounts.firstIndex(where: { $0 < 0 }) {
            throw fail("V0", "section \(section) has a negative number of \(units) (\(oldCounts[section])) before the update")
        }
        if let section = newCounts.firstIndex(where: { $0 < 0 }) {
            throw fail("V0", "section \(section) has a negative number of \(units) (\(newCounts[section])) after the update")
        }
        let lists: [(String, [IndexPath])] = [
            ("deleteItems", batch.deleteItems), ("insertItems", batch.insertItems), ("moveItems", batch.moveItems.map(\.from)),
            ("moveItems", batch.moveItems.map(\.to)), ("reloadItems", batch.reloadItems), ("reconfigureItems", batch.reconfigureItems),
        ]
        for (list, paths) in lists {
            if let path = paths.first(where: { $0.count != 2 }) {
                throw fail(
                    "V0", "malformed index path \(Self.show(path)) in \(list): an index path needs exactly 2 indices (section, \(unit))")
            }
        }
    }

    // V1
    mutating func checkDuplicates() throws(Violation) {
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

    // V2
    mutating func deriveSectionReloads() throws(Violation) {
        let deletes = Set(batch.deleteSections), inserts = Set(batch.insertSections)
        let sortedDeletes = deletes.sorted(), sortedInserts = inserts.sorted()
        let moveSources = Set(batch.moveSections.map(\.from))
        for section in batch.reloadSections {
            if section >= m || section < 0 {
                throw fail("E7", "attempt to delete section \(section), but there are only \(m) sections before the update")
            }
            if deletes.contains(section) { throw fail("I7", "Request to reload and delete same section (\(section))") }
            if moveSources.contains(section) {
                throw fail("E20", "attempt to perform a delete and a move from the same section (\(section))")
            }
            reloadedSectionTargets[section] = BatchCheck.shifted(section, deletes: sortedDeletes, inserts: sortedInserts)
        }
        sectionDeletes = deletes.union(reloadedSectionTargets.keys)
        sectionInserts = inserts.union(reloadedSectionTargets.values)
    }

    // V3
    mutating func deriveItemReloads() throws(Violation) {
        let deletes = Set(batch.deleteItems)
        guard !batch.reloadItems.isEmpty else {
            itemDeletes = deletes
            itemInserts = Set(batch.insertItems)
            return
        }
        let moveSources = Set(batch.moveItems.map(\.from))
        let explicitSectionDeletes = Set(batch.deleteSections).sorted(), explicitSectionInserts = Set(batch.insertSections).sorted()
        let deletesBySection = Self.itemsBySection(batch.deleteItems), insertsBySection = Self.itemsBySection(batch.insertItems)
        for path in batch.reloadItems {
            try checkDeleteBounds(path)
            if deletes.contains(path) { throw fail("E9", "attempt to delete and reload the same index path (\(Self.show(path)))") }
            if moveSources.contains(path) {
                throw fail("E10", "attempt to perform a delete and a move from the same index path (\(Self.show(path)))")
            }
            if sectionDeletes.contains(path.section) {
                throw fail("E26", "attempt to reload index path (\(Self.show(path))) in a deleted section")
            }
            let section = BatchCheck.shifted(path.section, deletes: explicitSectionDeletes, inserts: explicitSectionInserts)
            let item = BatchCheck.shifted(
                path.item, deletes: deletesBySection[path.section] ?? [], inserts: insertsBySection[section] ?? [])
            let derived = IndexPath(item: item, section: section)
            reloadPairs[path] = derived
            reloadTargets.insert(derived)
        }
        itemDeletes = deletes.union(reloadPairs.keys)
        itemInserts = Set(batch.insertItems).union(reloadPairs.values)
    }

    /// Item indices per section, ascending without repeats.
    static func itemsBySection(_ paths: [IndexPath]) -> [Int: [Int]] {
        Dictionary(grouping: paths, by: \.section).mapValues { Set($0.map(\.item)).sorted() }
    }

    // V4
    mutating func checkSectionOperations() throws(Violation) {
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
    func checkDeleteBounds(_ path: IndexPath) throws(Violation) {
        if path.section >= m || path.section < 0 {
            throw fail(
                "E4",
                "attempt to delete \(unit) \(path.item) from section \(path.section), but there are only \(m) sections before the update"
            )
        }
        if path.item >= oldCounts[path.section] || path.item < 0 {
            throw fail(
                "E3",
                "attempt to delete \(unit) \(path.item) from section \(path.section) which only contains \(oldCounts[path.section]) \(units) before the update"
            )
        }
    }

    // V5
    mutating func checkItemDeletes() throws(Violation) {
        for path in batch.deleteItems {
            try checkDeleteBounds(path)
        }
        // I1: UIKit drops item deletes inside deleted sections (strict rejects them later).
        itemDeletes = itemDeletes.filter { !sectionDeletes.contains($0.section) || reloadPairs[$0] != nil }
    }

    /// E6/E5: an insert (explicit or implied by a reload) must name a row of the new state.
    func checkInsertBounds(_ path: IndexPath) throws(Violation) {
        if path.section >= n || path.section < 0 {
            throw fail(
                "E6",
                "attempt to insert \(unit) \(path.item) into section \(path.section), but there are only \(n) sections after the update"
            )
        }
        if path.item >= newCounts[path.section] || path.item < 0 {
            throw fail(
                "E5",
                "attempt to insert \(unit) \(path.item) into section \(path.section), but there are only \(newCounts[path.section]) \(units) in section \(path.section) after the update"
            )
        }
    }

    // V6
    mutating func checkItemInserts() throws(Violation) {
        for path in batch.insertItems {
            try checkInsertBounds(path)
        }
        for path in reloadTargets where path.section >= n || path.section < 0 || path.item >= newCounts[path.section] || path.item < 0 {
            throw fail(
                "E5",
                "attempt to insert \(unit) \(path.item) into section \(path.section), but there are only \(path.section < n && path.section >= 0 ? newCounts[path.section] : 0) \(units) in section \(path.section) after the update"
            )
        }
        // I2: UIKit drops item inserts inside inserted sections.
        itemInserts = itemInserts.filter { !sectionInserts.contains($0.section) || reloadTargets.contains($0) }
    }

    /// E15/E13/E14: a move's source must exist before the update and its target after it.
    func checkMoveBounds(_ from: IndexPath, _ to: IndexPath) throws(Violation) {
        if from.section >= m || from.section < 0 {
            throw fail(
                "E15",
                "attempt to move index path (\(Self.show(from))) from a section that does not exist - there are only \(m) sections before the update"
            )
        }
        if to.section >= n || to.section < 0 {
            throw fail(
                "E15",
                "attempt to move index path (\(Self.show(from))) to index path (\(Self.show(to))) in section that does not exist - there are only \(n) sections after the update"
            )
        }
        if from.item >= oldCounts[from.section] || from.item < 0 {
            throw fail(
                "E13",
                "attempt to move index path (\(Self.show(from))) that does not exist - there are only \(oldCounts[from.section]) \(units) in section \(from.section) before the update"
            )
        }
        if to.item >= newCounts[to.section] || to.item < 0 {
            throw fail(
                "E14",
                "attempt to move index path (\(Self.show(from))) to index path (\(Self.show(to))) that does not exist - there are only \(newCounts[to.section]) \(units) in section \(to.section) after the update"
            )
        }
    }

    // V7
    mutating func checkItemMoves() throws(Violation) {
        var sources: [IndexPath: IndexPath] = [:], targets: [IndexPath: IndexPath] = [:]
        for move in batch.moveItems {
            let (from, to) = (move.from, move.to)
            try checkMoveBounds(from, to)
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
    func checkCounts() throws(Violation) -> [Int: Int] {
        let expectedSections = m - sectionDeletes.count + sectionInserts.count
        if n != expectedSections {
            throw fail(
                "E1",
                "Invalid update: invalid number of sections.  The number of sections contained in the \(viewName) after the update (\(n)) must be equal to the number of sections contained in the \(viewName) before the update (\(m)), plus or minus the number of sections inserted or deleted (\(sectionInserts.count) inserted, \(sectionDeletes.count) deleted)."
            )
        }
        var map: [Int: Int] = [:]  // old → new
        let taken = sectionInserts.union(sectionMoveTo.keys)
        var free = (0..<n).lazy.filter { !taken.contains($0) }.makeIterator()
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
            // Compared as two differences of non-negative numbers, so no count can overflow.
            if newCounts[new] - inserted[new] - movedIn[new] != oldCounts[old] - deleted[old] - movedOut[old] {
                throw fail(
                    "E2",
                    "Invalid update: invalid number of \(units) in section \(new).  The number of \(units) contained in an existing section after the update (\(newCounts[new])) must be equal to the number of \(units) contained in that section before the update (\(oldCounts[old])), plus or minus the number of \(units) inserted or deleted from that section (\(inserted[new]) inserted, \(deleted[old]) deleted) and plus or minus the number of \(units) moved into or out of that section (\(movedIn[new]) moved in, \(movedOut[old]) moved out)."
                )
            }
        }
        return map
    }

    /// A reconfigure names a row of the new state (UIKit leaves its index space undocumented; §4.6).
    func checkReconfigures() throws(Violation) {
        for path in batch.reconfigureItems
        where path.section < 0 || path.section >= n || path.item < 0 || path.item >= newCounts[path.section] {
            throw fail("R1", "reconfigure of index path \(Self.show(path)) that does not exist")
        }
    }
}

extension ReferenceBatchCheck {
    /// What UIKit accepts but mishandles (BATCH_RULES.md §1.2, §4.6); runs after V8, so every
    /// index here is in range.
    func checkStrictRules(_ map: [Int: Int]) throws(Violation) {
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
            let reloaded = Set(batch.reloadSections), reloadedTargets = Set(reloadedSectionTargets.values)
            let touched =
                (batch.deleteItems + batch.reloadItems + moves.map(\.from)).contains { reloaded.contains($0.section) }
                || (batch.insertItems + moves.map(\.to)).contains { reloadedTargets.contains($0.section) }
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
}
