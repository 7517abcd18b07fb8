import Foundation

/// The validation of one batch against section counts (docs/BATCH_UPDATE_RULES.md, checks V0–V8),
/// in UIKit's checking order. Every index is bounds-checked (negative, too large, or an
/// index path without exactly two indices) before it is used, so any input ends in a
/// ``BatchPlan`` or a ``BatchValidator/Violation``.
struct BatchCheck {
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
    /// `sectionDeletes` and `sectionInserts` by index, once V4 has put every index in range.
    var isDeletedSection: [Bool] = []
    var isInsertedSection: [Bool] = []

    // The item lists, read in place (a diff's lists stay packed).
    let deletes: PathColumn
    let inserts: PathColumn
    let reloads: PathColumn
    let reconfigures: PathColumn
    var moveSources: PathColumn
    var moveTargets: PathColumn
    /// Each reloaded row once, in reload order, with where its implied insert lands (B4).
    var reloadPairs: [(source: RowPath, target: RowPath)] = []
    /// What the batch does to each old row and each new row (the `Old`/`New` bits).
    var oldRows: RowFlags
    var newRows: RowFlags

    /// Flags of an old row.
    enum Old {
        static let deleted: UInt8 = 1  // named by deleteItems
        static let reloaded: UInt8 = 2  // named by reloadItems
        static let moveSource: UInt8 = 4  // the source of some move
        static let paired: UInt8 = 8  // has its entry in reloadPairs
        static let moveChecked: UInt8 = 16  // a move from it passed V7
        static let counted: UInt8 = 32  // counted as deleted in V8
    }

    /// Flags of a new row.
    enum New {
        static let inserted: UInt8 = 1  // named by insertItems
        static let reconfigured: UInt8 = 2  // named by reconfigureItems
        static let reloadTarget: UInt8 = 8  // where a reload's implied insert lands
        static let moveChecked: UInt8 = 16  // a move to it passed V7
        static let counted: UInt8 = 32  // counted as inserted in V8
    }

    init(validator: BatchValidator, batch: BatchUpdate, oldCounts: [Int], newCounts: [Int]) {
        self.batch = batch
        strict = validator.mode == .strict
        table = validator.flavor == .table
        self.oldCounts = oldCounts
        self.newCounts = newCounts
        deletes = PathColumn(batch.deleteItemList)
        inserts = PathColumn(batch.insertItemList)
        reloads = PathColumn(batch.reloadItemList)
        reconfigures = PathColumn(batch.reconfigureItemList)
        moveSources = PathColumn(batch.moveItemList, targets: false)
        moveTargets = PathColumn(batch.moveItemList, targets: true)
        let entries = batch.operationCount
        // Negative counts are V0's to report; the flags never see them.
        oldRows = RowFlags(counts: oldCounts.map { max($0, 0) }, entries: entries)
        newRows = RowFlags(counts: newCounts.map { max($0, 0) }, entries: entries)
    }

    var m: Int { oldCounts.count }
    var n: Int { newCounts.count }
    var unit: String { table ? "row" : "item" }
    var units: String { table ? "rows" : "items" }
    var viewName: String { table ? "table view" : "collection view" }

    static func show(_ path: IndexPath) -> String { BatchValidator.show(path) }

    func fail(_ rule: String, _ message: String) -> Violation { Violation(rule: rule, message: message) }

    mutating func run() throws(Violation) -> BatchPlan {
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
        var newToOld = [Int](repeating: -1, count: n)
        for (old, new) in map where !sectionInserts.contains(new) { newToOld[new] = old }
        return BatchPlan(
            batch: batch, oldCounts: oldCounts, newCounts: newCounts, newToOld: newToOld, deletedSections: sectionDeletes,
            insertedSections: sectionInserts, deletes: deletes, inserts: inserts, reloadPairs: reloadPairs,
            moveSources: moveSources, moveTargets: moveTargets)
    }

    // V0: what cannot be read at all — negative counts, index paths without exactly two indices.
    func checkShapes() throws(Violation) {
        try checkNonNegativeCounts()
        let lists: [(String, PathColumn)] = [
            ("deleteItems", deletes), ("insertItems", inserts), ("moveItems", moveSources), ("moveItems", moveTargets),
            ("reloadItems", reloads), ("reconfigureItems", reconfigures),
        ]
        for (list, paths) in lists {
            if let path = paths.firstMalformed {
                throw fail(
                    "V0", "malformed index path \(Self.show(path)) in \(list): an index path needs exactly 2 indices (section, \(unit))")
            }
        }
    }

    /// V0 for the counts. - Complexity: O(s).
    func checkNonNegativeCounts() throws(Violation) {
        if let section = oldCounts.firstIndex(where: { $0 < 0 }) {
            throw fail("V0", "section \(section) has a negative number of \(units) (\(oldCounts[section])) before the update")
        }
        if let section = newCounts.firstIndex(where: { $0 < 0 }) {
            throw fail("V0", "section \(section) has a negative number of \(units) (\(newCounts[section])) after the update")
        }
    }

    // V1: strict mode rejects the first list with a repeated entry; compat mode drops exact
    // repeats of a move. Either way every row a list names gets its flag here.
    mutating func checkDuplicates() throws(Violation) {
        if strict, let (list, value) = sectionDuplicate() { throw fail("E25", "duplicate entry \(value) in \(list)") }
        try flag(deletes, Old.deleted, in: &oldRows, list: "deleteItems")
        try flag(inserts, New.inserted, in: &newRows, list: "insertItems")
        let repeats = try repeatedMoves()
        if !repeats.isEmpty {  // compat only, E24: exact repeats dropped
            var index = repeats.makeIterator(), next = index.next()
            batch.moveItems = batch.moveItems.enumerated().compactMap { offset, move in
                guard offset == next else { return move }
                next = index.next()
                return nil
            }
            moveSources = PathColumn(batch.moveItemList, targets: false)
            moveTargets = PathColumn(batch.moveItemList, targets: true)
        }
        try flag(reloads, Old.reloaded, in: &oldRows, list: "reloadItems")
        try flag(reconfigures, New.reconfigured, in: &newRows, list: "reconfigureItems")
    }

    /// The first section list with a repeated entry, and that entry.
    /// - Complexity: O(s) for s entries in the section lists.
    func sectionDuplicate() -> (list: String, entry: String)? {
        func duplicate<T: Hashable>(_ values: [T]) -> T? {
            var seen = Set<T>()
            return values.first { !seen.insert($0).inserted }
        }
        let lists: [(String, String?)] = [
            ("deleteSections", duplicate(batch.deleteSections).map { "\($0)" }),
            ("insertSections", duplicate(batch.insertSections).map { "\($0)" }),
            ("moveSections", duplicate(batch.moveSections).map { "\($0)" }),
            ("reloadSections", duplicate(batch.reloadSections).map { "\($0)" }),
        ]
        return lists.first { $0.1 != nil }.map { ($0.0, $0.1!) }
    }

    /// Sets `bit` on every row `paths` names; in strict mode, throws E25 for the first entry
    /// that repeats an earlier one (rows out of range are compared in a set of their own).
    func flag(_ paths: PathColumn, _ bit: UInt8, in rows: inout RowFlags, list: String) throws(Violation) {
        var outside = Set<RowPath>()
        for path in paths {
            let repeated = rows.contains(path) ? rows.insert(bit, at: path) : !outside.insert(path).inserted
            if repeated && strict { throw fail("E25", "duplicate entry \(Self.show(path.indexPath)) in \(list)") }
        }
    }

    /// Flags every move source; the moves that repeat an earlier move exactly, ascending (empty
    /// in strict mode, which throws E25 for the first). Only moves sharing a source can repeat
    /// one another, so the moves are compared whole only when some source is shared.
    mutating func repeatedMoves() throws(Violation) -> [Int] {
        var sharedSource = false
        for source in moveSources {
            sharedSource = !oldRows.contains(source) || oldRows.insert(Old.moveSource, at: source) || sharedSource
        }
        guard sharedSource else { return [] }
        var seen = Set<[RowPath]>(), repeats: [Int] = []
        for index in moveSources.indices where !seen.insert([moveSources[index], moveTargets[index]]).inserted {
            if strict {
                let move = BatchUpdate.ItemMove(from: moveSources[index].indexPath, to: moveTargets[index].indexPath)
                throw fail("E25", "duplicate entry \(move) in moveItems")
            }
            repeats.append(index)
        }
        return repeats
    }

    /// B4: where a reload's implied insert goes — shifted by deletes and inserts only, never by moves.
    /// `deletes` and `inserts` are ascending without repeats.
    /// - Complexity: O(log(deletes + inserts)).
    static func shifted(_ index: Int, deletes: [Int], inserts: [Int]) -> Int {
        // Wrapping: a reload's section is shifted before its bounds are checked (Int.min may come).
        let value = index &- prefixLength(deletes.count) { deletes[$0] <= index }
        // Inserts at or below the running value push it up one each. For ascending distinct
        // inserts, `inserts[j] - j` never decreases, so the ones that apply are a prefix.
        return value &+ prefixLength(inserts.count) { inserts[$0] - $0 <= value }
    }

    /// The length of the longest prefix of `0..<count` where `holds` is true, for a `holds` that
    /// is true up to some index and false after it. - Complexity: O(log count) calls of `holds`.
    static func prefixLength(_ count: Int, where holds: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = low + (high - low) / 2
            if holds(middle) { low = middle + 1 } else { high = middle }
        }
        return low
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
            reloadedSectionTargets[section] = Self.shifted(section, deletes: sortedDeletes, inserts: sortedInserts)
        }
        sectionDeletes = deletes.union(reloadedSectionTargets.keys)
        sectionInserts = inserts.union(reloadedSectionTargets.values)
    }

    // V3
    mutating func deriveItemReloads() throws(Violation) {
        guard !reloads.isEmpty else { return }
        let explicitSectionDeletes = Set(batch.deleteSections).sorted(), explicitSectionInserts = Set(batch.insertSections).sorted()
        let shiftedSection = { (section: Int) in Self.shifted(section, deletes: explicitSectionDeletes, inserts: explicitSectionInserts) }
        let reloadSections = Set(reloads.map(\.section))
        let deletesBySection = Self.itemsBySection(deletes, in: reloadSections)
        let insertsBySection = Self.itemsBySection(inserts, in: Set(reloadSections.map(shiftedSection)))
        for path in reloads {
            try checkDeleteBounds(path)
            if oldRows[path] & Old.deleted != 0 {
                throw fail("E9", "attempt to delete and reload the same index path (\(Self.show(path.indexPath)))")
            }
            if oldRows[path] & Old.moveSource != 0 {
                throw fail("E10", "attempt to perform a delete and a move from the same index path (\(Self.show(path.indexPath)))")
            }
            if sectionDeletes.contains(path.section) {
                throw fail("E26", "attempt to reload index path (\(Self.show(path.indexPath))) in a deleted section")
            }
            guard !oldRows.insert(Old.paired, at: path) else { continue }  // a repeated reload (compat)
            let section = shiftedSection(path.section)
            let item = Self.shifted(path.item, deletes: deletesBySection[path.section] ?? [], inserts: insertsBySection[section] ?? [])
            reloadPairs.append((path, RowPath(section: section, item: item)))
        }
    }

    /// Item indices per section of `sections`, ascending without repeats.
    /// - Complexity: O(k log k) for the k paths in those sections.
    static func itemsBySection(_ paths: PathColumn, in sections: Set<Int>) -> [Int: [Int]] {
        var items: [Int: Set<Int>] = [:]
        for path in paths where sections.contains(path.section) { items[path.section, default: []].insert(path.item) }
        return items.mapValues { $0.sorted() }
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
        isDeletedSection = Self.marks(sectionDeletes, count: m)
        isInsertedSection = Self.marks(sectionInserts, count: n)
    }

    /// `members` in `0..<count` as marks by index (a derived section can lie outside).
    /// - Complexity: O(count + members).
    static func marks(_ members: Set<Int>, count: Int) -> [Bool] {
        var marks = [Bool](repeating: false, count: count)
        for member in members where member >= 0 && member < count { marks[member] = true }
        return marks
    }

    /// E4/E3: a delete (explicit or implied by a reload) must name an existing old row.
    func checkDeleteBounds(_ path: RowPath) throws(Violation) {
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

    // V5 (I1, UIKit dropping item deletes inside deleted sections, is applied where deletes are read)
    func checkItemDeletes() throws(Violation) {
        for path in deletes {
            try checkDeleteBounds(path)
        }
    }

    /// E6/E5: an insert (explicit or implied by a reload) must name a row of the new state.
    func checkInsertBounds(_ path: RowPath) throws(Violation) {
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

    // V6 (I2, UIKit dropping item inserts inside inserted sections, is applied where inserts are read)
    mutating func checkItemInserts() throws(Violation) {
        for path in inserts {
            try checkInsertBounds(path)
        }
        for (_, path) in reloadPairs where !newRows.contains(path) {
            throw fail(
                "E5",
                "attempt to insert \(unit) \(path.item) into section \(path.section), but there are only \(path.section < n && path.section >= 0 ? newCounts[path.section] : 0) \(units) in section \(path.section) after the update"
            )
        }
        for (_, path) in reloadPairs { _ = newRows.insert(New.reloadTarget, at: path) }
    }

    /// Whether an old row leaves by a delete (I1: not inside a deleted section) or a reload.
    func isDeleted(_ path: RowPath) -> Bool {
        let flags = oldRows[path]
        return (flags & Old.deleted != 0 && !isDeletedSection[path.section]) || flags & Old.reloaded != 0
    }

    /// Whether a new row arrives by an insert (I2: not inside an inserted section) or a reload.
    func isInserted(_ path: RowPath) -> Bool {
        let flags = newRows[path]
        return (flags & New.inserted != 0 && !isInsertedSection[path.section]) || flags & New.reloadTarget != 0
    }

    /// E15/E13/E14: a move's source must exist before the update and its target after it.
    func checkMoveBounds(_ from: RowPath, _ to: RowPath) throws(Violation) {
        if from.section >= m || from.section < 0 {
            throw fail(
                "E15",
                "attempt to move index path (\(Self.show(from.indexPath))) from a section that does not exist - there are only \(m) sections before the update"
            )
        }
        if to.section >= n || to.section < 0 {
            throw fail(
                "E15",
                "attempt to move index path (\(Self.show(from.indexPath))) to index path (\(Self.show(to.indexPath))) in section that does not exist - there are only \(n) sections after the update"
            )
        }
        if from.item >= oldCounts[from.section] || from.item < 0 {
            throw fail(
                "E13",
                "attempt to move index path (\(Self.show(from.indexPath))) that does not exist - there are only \(oldCounts[from.section]) \(units) in section \(from.section) before the update"
            )
        }
        if to.item >= newCounts[to.section] || to.item < 0 {
            throw fail(
                "E14",
                "attempt to move index path (\(Self.show(from.indexPath))) to index path (\(Self.show(to.indexPath))) that does not exist - there are only \(newCounts[to.section]) \(units) in section \(to.section) after the update"
            )
        }
    }

    // V7
    mutating func checkItemMoves() throws(Violation) {
        for index in moveSources.indices {
            let (from, to) = (moveSources[index], moveTargets[index])
            try checkMoveBounds(from, to)
            if isDeleted(from) {
                throw fail("E10", "attempt to perform a delete and a move from the same index path (\(Self.show(from.indexPath)))")
            }
            if isInserted(to) {
                if table && newRows[to] & New.reloadTarget != 0 { throw fail("E12", "Attempt to create two animations for cell") }
                throw fail("E11", "attempt to perform an insert and a move to the same index path (\(Self.show(to.indexPath)))")
            }
            if isDeletedSection[from.section] {
                throw fail(
                    "E19",
                    table ? "cannot move a row from a deleted section" : "cannot move an item from a deleted section (\(from.section))")
            }
            if isInsertedSection[to.section] {
                throw fail(
                    "E18",
                    table
                        ? "cannot move a row into a newly inserted section (\(to.section))"
                        : "cannot move an item into a newly inserted section (\(to.section))")
            }
            if oldRows.insert(Old.moveChecked, at: from) {
                let other = moveTargets[moveSources.firstIndex(of: from)!]
                throw fail(
                    "E17",
                    "attempt to move \(unit) at index path \(Self.show(from.indexPath)) to both \(Self.show(other.indexPath)) and \(Self.show(to.indexPath))"
                )
            }
            if newRows.insert(New.moveChecked, at: to) {
                let other = moveSources[moveTargets.firstIndex(of: to)!]
                throw fail(
                    "E16",
                    "attempt to move both \(unit) at index path \(Self.show(other.indexPath)) and \(Self.show(from.indexPath)) to \(Self.show(to.indexPath))"
                )
            }
        }
    }

    // V8: the section map (B6) and the count checks.
    mutating func checkCounts() throws(Violation) -> [Int: Int] {
        let map = try sectionMap()
        // Each row counted once, however often the lists name it (compat mode allows repeats).
        var counts = RowCounts(m: m, n: n)
        for path in deletes where isDeleted(path) && !oldRows.insert(Old.counted, at: path) { counts.deleted[path.section] += 1 }
        for (source, target) in reloadPairs {
            if !oldRows.insert(Old.counted, at: source) { counts.deleted[source.section] += 1 }
            if !newRows.insert(New.counted, at: target) { counts.inserted[target.section] += 1 }
        }
        for path in inserts where isInserted(path) && !newRows.insert(New.counted, at: path) { counts.inserted[path.section] += 1 }
        for index in moveSources.indices {
            let (from, to) = (moveSources[index], moveTargets[index])
            if from.section != to.section {  // raw indices, as UIKit compares
                counts.movedOut[from.section] += 1
                counts.movedIn[to.section] += 1
            }
        }
        try checkCounts(counts, map)
        return map
    }

    /// Per old section the rows deleted and moved out; per new section those inserted and moved in.
    struct RowCounts {
        var deleted: [Int], movedOut: [Int], inserted: [Int], movedIn: [Int]
        init(m: Int, n: Int) {
            deleted = [Int](repeating: 0, count: m)
            movedOut = deleted
            inserted = [Int](repeating: 0, count: n)
            movedIn = inserted
        }
    }

    /// E1 and the section map (B6): old → new for every section that is not deleted.
    func sectionMap() throws(Violation) -> [Int: Int] {
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
        return map
    }

    /// E2: every surviving section's rows add up, checked in new-section order.
    func checkCounts(_ counts: RowCounts, _ map: [Int: Int]) throws(Violation) {
        let (deleted, movedOut, inserted, movedIn) = (counts.deleted, counts.movedOut, counts.inserted, counts.movedIn)
        for (old, new) in map.sorted(by: { $0.value < $1.value }) {
            // Compared as two differences of non-negative numbers, so no count can overflow.
            if newCounts[new] - inserted[new] - movedIn[new] != oldCounts[old] - deleted[old] - movedOut[old] {
                throw fail(
                    "E2",
                    "Invalid update: invalid number of \(units) in section \(new).  The number of \(units) contained in an existing section after the update (\(newCounts[new])) must be equal to the number of \(units) contained in that section before the update (\(oldCounts[old])), plus or minus the number of \(units) inserted or deleted from that section (\(inserted[new]) inserted, \(deleted[old]) deleted) and plus or minus the number of \(units) moved into or out of that section (\(movedIn[new]) moved in, \(movedOut[old]) moved out)."
                )
            }
        }
    }

    /// A reconfigure names a row of the new state (UIKit leaves its index space undocumented; R1).
    func checkReconfigures() throws(Violation) {
        for path in reconfigures where !newRows.contains(path) {
            throw fail("R1", "reconfigure of index path \(Self.show(path.indexPath)) that does not exist")
        }
    }
}
