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

    // The section state is the validator's (`core`), which the rewrite left as it was.
    var sectionDeletes: Set<Int> { core.sectionDeletes }
    var sectionInserts: Set<Int> { core.sectionInserts }
    var sectionMoveFrom: [Int: Int] { core.sectionMoveFrom }
    var sectionMoveTo: [Int: Int] { core.sectionMoveTo }
    var reloadedSectionTargets: [Int: Int] { core.reloadedSectionTargets }
    var itemDeletes = Set<IndexPath>()
    var itemInserts = Set<IndexPath>()
    var reloadPairs: [IndexPath: IndexPath] = [:]  // old → derived new
    var reloadTargets = Set<IndexPath>()
    var moves: [BatchUpdate.ItemMove] = []

    /// The rewritten validator, for the parts the rewrite left as they were (section checks,
    /// bounds checks and their texts).
    var core: BatchCheck

    init(validator: BatchValidator, batch: BatchUpdate, oldCounts: [Int], newCounts: [Int]) {
        core = BatchCheck(validator: validator, batch: batch, oldCounts: oldCounts, newCounts: newCounts)
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
        try core.checkNonNegativeCounts()
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
            if let (list, value) = core.sectionDuplicate() { throw fail("E25", "duplicate entry \(value) in \(list)") }
            let lists: [(String, String?)] = [
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

    // V2 (unchanged by the rewrite: the validator's own)
    mutating func deriveSectionReloads() throws(Violation) {
        try core.deriveSectionReloads()
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

    // V4 (unchanged by the rewrite: the validator's own)
    mutating func checkSectionOperations() throws(Violation) {
        try core.checkSectionOperations()
    }

    static func row(_ path: IndexPath) -> RowPath { RowPath(section: path.section, item: path.item) }

    func checkDeleteBounds(_ path: IndexPath) throws(Violation) { try core.checkDeleteBounds(Self.row(path)) }

    // V5
    mutating func checkItemDeletes() throws(Violation) {
        for path in batch.deleteItems {
            try checkDeleteBounds(path)
        }
        // I1: UIKit drops item deletes inside deleted sections (strict rejects them later).
        itemDeletes = itemDeletes.filter { !sectionDeletes.contains($0.section) || reloadPairs[$0] != nil }
    }

    func checkInsertBounds(_ path: IndexPath) throws(Violation) { try core.checkInsertBounds(Self.row(path)) }

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

    func checkMoveBounds(_ from: IndexPath, _ to: IndexPath) throws(Violation) {
        try core.checkMoveBounds(Self.row(from), Self.row(to))
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

    // V8: the section map and the messages are the validator's own; the counting is the old one.
    func checkCounts() throws(Violation) -> [Int: Int] {
        let map = try core.sectionMap()
        var counts = BatchCheck.RowCounts(m: m, n: n)
        for path in itemDeletes { counts.deleted[path.section] += 1 }
        for path in itemInserts { counts.inserted[path.section] += 1 }
        for move in moves where move.from.section != move.to.section {  // raw indices, as UIKit compares
            counts.movedOut[move.from.section] += 1
            counts.movedIn[move.to.section] += 1
        }
        try core.checkCounts(counts, map)
        return map
    }

    /// A reconfigure names a row of the new state (UIKit leaves its index space undocumented; R1).
    func checkReconfigures() throws(Violation) {
        for path in batch.reconfigureItems
        where path.section < 0 || path.section >= n || path.item < 0 || path.item >= newCounts[path.section] {
            throw fail("R1", "reconfigure of index path \(Self.show(path)) that does not exist")
        }
    }
}

extension ReferenceBatchCheck {
    /// What UIKit accepts but mishandles (docs/BATCH_RULES.md: I1–I9, R1); runs after V8, so every
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
