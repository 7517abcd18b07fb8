import Diffable
import Foundation

/// The batch rules (docs/BATCH_UPDATE_RULES.md: the checks V0–V8 and the strict rules I1–I9, R1) written
/// again from the rules, as the oracle of `BatchCheckOracleTests`. It shares nothing with the
/// validator: its own section map, bounds checks, reload derivation and row counts, over plain
/// Sets and Dictionaries of `IndexPath`, one step after another in UIKit's checking order. Where
/// the rules leave a choice open, the choice is named where it is made.
struct ReferenceBatchCheck {
    /// The first rule broken: its tag, and the text (UIKit's exception text for E1–E22).
    struct Failure: Error, Equatable, CustomStringConvertible {
        var rule: String
        var message: String
        var description: String { "\(rule): \(message)" }
    }

    /// The rules whose text is UIKit's (docs/BATCH_UPDATE_RULES.md, section 3); the others' texts are the library's
    /// own sentences, so only their tag is compared.
    static let uikitTexts: Set<String> = Set((1...22).map { "E\($0)" })

    let table: Bool
    let strict: Bool
    let oldCounts: [Int]
    let newCounts: [Int]
    let deleteSections: [Int], insertSections: [Int], reloadSections: [Int]
    let sectionMoves: [BatchUpdate.SectionMove]
    let deletes: [IndexPath], inserts: [IndexPath], reloads: [IndexPath], reconfigures: [IndexPath]
    var moves: [BatchUpdate.ItemMove]

    init(table: Bool, strict: Bool, batch: BatchUpdate, oldCounts: [Int], newCounts: [Int]) {
        self.table = table
        self.strict = strict
        self.oldCounts = oldCounts
        self.newCounts = newCounts
        deleteSections = batch.deleteSections
        insertSections = batch.insertSections
        reloadSections = batch.reloadSections
        sectionMoves = batch.moveSections
        deletes = batch.deleteItems
        inserts = batch.insertItems
        reloads = batch.reloadItems
        reconfigures = batch.reconfigureItems
        moves = batch.moveItems
    }

    var m: Int { oldCounts.count }
    var n: Int { newCounts.count }
    var unit: String { table ? "row" : "item" }
    var units: String { table ? "rows" : "items" }

    /// How UIKit prints an `NSIndexPath` in its texts, without the address (docs/BATCH_UPDATE_RULES.md, section 3).
    static func text(_ path: IndexPath) -> String {
        "{length = \(path.count), path = \(path.map { String($0) }.joined(separator: " - "))}"
    }

    static func failure(_ rule: String, _ message: String) -> Failure { Failure(rule: rule, message: message) }

    /// Whether `path` names a row of a state with `counts`.
    static func exists(_ path: IndexPath, in counts: [Int]) -> Bool {
        path.section >= 0 && path.section < counts.count && path.item >= 0 && path.item < counts[path.section]
    }

    /// B4: an index shifted down by each deleted index at or below it, then up by each inserted
    /// index at or below the running value (inserts taken in ascending order). Moves never count.
    static func derived(_ index: Int, deleted: Set<Int>, inserted: Set<Int>) -> Int {
        var value = index - deleted.filter { $0 <= index }.count
        for insert in inserted.sorted() where insert <= value { value += 1 }
        return value
    }

    /// The first entry of `values` equal to an earlier one.
    static func firstRepeat<T: Hashable>(_ values: [T]) -> T? {
        var seen = Set<T>()
        return values.first { !seen.insert($0).inserted }
    }

    /// The first rule the batch breaks, or nil when it passes.
    mutating func verdict() -> Failure? {
        do throws(Failure) {
            try check()
            return nil
        } catch {
            return error
        }
    }

    mutating func check() throws(Failure) {
        // V0: counts and index paths that cannot be read.
        if let section = oldCounts.firstIndex(where: { $0 < 0 }) {
            throw Self.failure("V0", "negative count in old section \(section)")
        }
        if let section = newCounts.firstIndex(where: { $0 < 0 }) {
            throw Self.failure("V0", "negative count in new section \(section)")
        }
        let pathLists = [deletes, inserts, moves.map(\.from), moves.map(\.to), reloads, reconfigures]
        if let path = pathLists.lazy.compactMap({ list in list.first { $0.count != 2 } }).first {
            throw Self.failure("V0", "malformed index path \(Self.text(path))")
        }

        // V1: strict rejects a repeat in any list; compat drops exact repeats of a move (E24).
        if strict {
            let repeats: [String?] = [
                Self.firstRepeat(deleteSections).map { "\($0)" }, Self.firstRepeat(insertSections).map { "\($0)" },
                Self.firstRepeat(sectionMoves).map { "\($0)" }, Self.firstRepeat(reloadSections).map { "\($0)" },
                Self.firstRepeat(deletes).map(Self.text), Self.firstRepeat(inserts).map(Self.text),
                Self.firstRepeat(moves).map { "\($0)" }, Self.firstRepeat(reloads).map(Self.text),
                Self.firstRepeat(reconfigures).map(Self.text),
            ]
            if let entry = repeats.lazy.compactMap({ $0 }).first { throw Self.failure("E25", "repeated \(entry)") }
        } else {
            var seen = Set<BatchUpdate.ItemMove>()
            moves = moves.filter { seen.insert($0).inserted }
        }

        // V2: a section reload is a delete of the old section and an insert where B4 puts it.
        let explicitDeletes = Set(deleteSections), explicitInserts = Set(insertSections)
        let sectionMoveSources = Set(sectionMoves.map(\.from))
        var reloadedSectionTarget: [Int: Int] = [:]
        for section in reloadSections {
            if section < 0 || section >= m {
                throw Self.failure("E7", "attempt to delete section \(section), but there are only \(m) sections before the update")
            }
            if explicitDeletes.contains(section) { throw Self.failure("I7", "reload and delete of section \(section)") }
            if sectionMoveSources.contains(section) {
                throw Self.failure("E20", "attempt to perform a delete and a move from the same section (\(section))")
            }
            reloadedSectionTarget[section] = Self.derived(section, deleted: explicitDeletes, inserted: explicitInserts)
        }
        let goneSections = explicitDeletes.union(reloadedSectionTarget.keys)
        let arrivingSections = explicitInserts.union(reloadedSectionTarget.values)

        // V3: an item reload is a delete of the old path and an insert where B4 puts it.
        let deleteSet = Set(deletes), moveSourceSet = Set(moves.map(\.from))
        var reloadTarget: [IndexPath: IndexPath] = [:]
        var reloadOrder: [IndexPath] = []
        for path in reloads {
            try checkDelete(path)
            if deleteSet.contains(path) {
                throw Self.failure("E9", "attempt to delete and reload the same index path (\(Self.text(path)))")
            }
            if moveSourceSet.contains(path) {
                throw Self.failure("E10", "attempt to perform a delete and a move from the same index path (\(Self.text(path)))")
            }
            // E26: the rules leave a reload in a deleted (or reloaded) section to fail somewhere;
            // the library names it at once.
            if goneSections.contains(path.section) { throw Self.failure("E26", "reload \(Self.text(path)) in a deleted section") }
            if reloadTarget[path] != nil { continue }  // a repeat (compat)
            let section = Self.derived(path.section, deleted: explicitDeletes, inserted: explicitInserts)
            let item = Self.derived(
                path.item, deleted: Set(deletes.filter { $0.section == path.section }.map(\.item)),
                inserted: Set(inserts.filter { $0.section == section }.map(\.item)))
            reloadTarget[path] = IndexPath(item: item, section: section)
            reloadOrder.append(path)
        }

        // V4: section operations.
        for section in deleteSections where section < 0 || section >= m {
            throw Self.failure("E7", "attempt to delete section \(section), but there are only \(m) sections before the update")
        }
        for section in insertSections where section < 0 || section >= n {
            throw Self.failure("E8", "attempt to insert section \(section) but there are only \(n) sections after the update")
        }
        var sectionMovedTo: [Int: Int] = [:], sectionMovedFrom: [Int: Int] = [:]
        for move in sectionMoves {
            if move.from < 0 || move.from >= m {
                throw Self.failure("E21", "attempt to move section \(move.from), but there are only \(m) sections before the update")
            }
            if move.to < 0 || move.to >= n {
                throw Self.failure(
                    "E21",
                    "attempt to to move section \(move.from) to section \(move.to), but there are only \(n) sections after the update")
            }
            if goneSections.contains(move.from) {
                throw Self.failure("E20", "attempt to perform a delete and a move from the same section (\(move.from))")
            }
            if arrivingSections.contains(move.to) {
                throw Self.failure("E20", "attempt to perform an insert and a move to the same section (\(move.to))")
            }
            if let other = sectionMovedTo[move.from] {
                throw Self.failure("E22", "attempt to move section \(move.from) to both section \(other) and section \(move.to)")
            }
            if let other = sectionMovedFrom[move.to] {
                throw Self.failure("E22", "attempt to move both section \(other) and section \(move.from) to section \(move.to)")
            }
            sectionMovedTo[move.from] = move.to
            sectionMovedFrom[move.to] = move.from
        }

        // V5, V6: item deletes and inserts, then the inserts that reloads imply. E5's trigger
        // includes a reload's implied insert and E6's does not, so a derived section that does
        // not exist is E5 too (with 0 rows).
        for path in deletes { try checkDelete(path) }
        for path in inserts {
            if path.section < 0 || path.section >= n {
                throw Self.failure(
                    "E6",
                    "attempt to insert \(unit) \(path.item) into section \(path.section), but there are only \(n) sections after the update"
                )
            }
            if path.item < 0 || path.item >= newCounts[path.section] {
                throw insertFailure(path)
            }
        }
        for source in reloadOrder where !Self.exists(reloadTarget[source]!, in: newCounts) {
            throw insertFailure(reloadTarget[source]!)
        }
        // I1, I2: UIKit drops item deletes in deleted sections and inserts in inserted ones.
        let reloadTargets = Set(reloadTarget.values)
        let rowsDeleted = Set(deletes.filter { !goneSections.contains($0.section) }).union(reloadTarget.keys)
        let rowsInserted = Set(inserts.filter { !arrivingSections.contains($0.section) }).union(reloadTargets)

        // V7: item moves.
        var movedTo: [IndexPath: IndexPath] = [:], movedFrom: [IndexPath: IndexPath] = [:]
        for move in moves {
            let (from, to) = (move.from, move.to)
            if from.section < 0 || from.section >= m {
                throw Self.failure(
                    "E15",
                    "attempt to move index path (\(Self.text(from))) from a section that does not exist - there are only \(m) sections before the update"
                )
            }
            if to.section < 0 || to.section >= n {
                throw Self.failure(
                    "E15",
                    "attempt to move index path (\(Self.text(from))) to index path (\(Self.text(to))) in section that does not exist - there are only \(n) sections after the update"
                )
            }
            if !Self.exists(from, in: oldCounts) {
                throw Self.failure(
                    "E13",
                    "attempt to move index path (\(Self.text(from))) that does not exist - there are only \(oldCounts[from.section]) \(units) in section \(from.section) before the update"
                )
            }
            if !Self.exists(to, in: newCounts) {
                throw Self.failure(
                    "E14",
                    "attempt to move index path (\(Self.text(from))) to index path (\(Self.text(to))) that does not exist - there are only \(newCounts[to.section]) \(units) in section \(to.section) after the update"
                )
            }
            if rowsDeleted.contains(from) {
                throw Self.failure("E10", "attempt to perform a delete and a move from the same index path (\(Self.text(from)))")
            }
            if rowsInserted.contains(to) {
                if table && reloadTargets.contains(to) { throw Self.failure("E12", "Attempt to create two animations for cell") }
                throw Self.failure("E11", "attempt to perform an insert and a move to the same index path (\(Self.text(to)))")
            }
            if goneSections.contains(from.section) {
                throw Self.failure(
                    "E19",
                    table ? "cannot move a row from a deleted section" : "cannot move an item from a deleted section (\(from.section))")
            }
            if arrivingSections.contains(to.section) {
                throw Self.failure("E18", "cannot move \(table ? "a row" : "an item") into a newly inserted section (\(to.section))")
            }
            if let other = movedTo[from] {
                throw Self.failure(
                    "E17", "attempt to move \(unit) at index path \(Self.text(from)) to both \(Self.text(other)) and \(Self.text(to))")
            }
            if let other = movedFrom[to] {
                throw Self.failure(
                    "E16", "attempt to move both \(unit) at index path \(Self.text(other)) and \(Self.text(from)) to \(Self.text(to))")
            }
            movedTo[from] = to
            movedFrom[to] = from
        }

        // V8 (B6): the section count, the section map, then each surviving section's rows.
        let view = table ? "table view" : "collection view"
        if n != m - goneSections.count + arrivingSections.count {
            throw Self.failure(
                "E1",
                "Invalid update: invalid number of sections.  The number of sections contained in the \(view) after the update (\(n)) must be equal to the number of sections contained in the \(view) before the update (\(m)), plus or minus the number of sections inserted or deleted (\(arrivingSections.count) inserted, \(goneSections.count) deleted)."
            )
        }
        // Deleted sections map nowhere, moved ones to their target; the others fill, in order,
        // the new indices that are neither inserted nor a move's target.
        var oldOf: [Int: Int] = [:]  // new → old
        var unclaimed = (0..<n).filter { !arrivingSections.contains($0) && sectionMovedFrom[$0] == nil }[...]
        for old in 0..<m where !goneSections.contains(old) {
            if let target = sectionMovedTo[old] {
                oldOf[target] = old
            } else if let next = unclaimed.popFirst() {
                oldOf[next] = old
            }
        }
        var deleted = [Int: Int](), movedOut = [Int: Int](), inserted = [Int: Int](), movedIn = [Int: Int]()
        for path in rowsDeleted { deleted[path.section, default: 0] += 1 }
        for path in rowsInserted { inserted[path.section, default: 0] += 1 }
        for move in moves where move.from.section != move.to.section {  // raw indices, not identities
            movedOut[move.from.section, default: 0] += 1
            movedIn[move.to.section, default: 0] += 1
        }
        for new in 0..<n {
            guard let old = oldOf[new] else { continue }
            let (ins, del, into, outOf) = (inserted[new] ?? 0, deleted[old] ?? 0, movedIn[new] ?? 0, movedOut[old] ?? 0)
            if newCounts[new] != oldCounts[old] - del + ins + into - outOf {
                throw Self.failure(
                    "E2",
                    "Invalid update: invalid number of \(units) in section \(new).  The number of \(units) contained in an existing section after the update (\(newCounts[new])) must be equal to the number of \(units) contained in that section before the update (\(oldCounts[old])), plus or minus the number of \(units) inserted or deleted from that section (\(ins) inserted, \(del) deleted) and plus or minus the number of \(units) moved into or out of that section (\(into) moved in, \(outOf) moved out)."
                )
            }
        }

        if strict { try checkStrict(oldOf: oldOf, reloadedSectionTarget: reloadedSectionTarget, sectionMovedTo, sectionMovedFrom) }
        // R1 (docs/BATCH_UPDATE_RULES.md, section 5): a reconfigure names a row of the new state.
        if let path = reconfigures.first(where: { !Self.exists($0, in: newCounts) }) {
            throw Self.failure("R1", "reconfigure of missing \(Self.text(path))")
        }
    }

    /// E4/E3: a delete (explicit or a reload's) names an old row.
    func checkDelete(_ path: IndexPath) throws(Failure) {
        if path.section < 0 || path.section >= m {
            throw Self.failure(
                "E4",
                "attempt to delete \(unit) \(path.item) from section \(path.section), but there are only \(m) sections before the update")
        }
        if path.item < 0 || path.item >= oldCounts[path.section] {
            throw Self.failure(
                "E3",
                "attempt to delete \(unit) \(path.item) from section \(path.section) which only contains \(oldCounts[path.section]) \(units) before the update"
            )
        }
    }

    /// E5 for an insert past its section's rows (0 rows for a section that does not exist).
    func insertFailure(_ path: IndexPath) -> Failure {
        let rows = path.section >= 0 && path.section < n ? newCounts[path.section] : 0
        return Self.failure(
            "E5",
            "attempt to insert \(unit) \(path.item) into section \(path.section), but there are only \(rows) \(units) in section \(path.section) after the update"
        )
    }

    /// What UIKit accepts but mishandles (I1, I2, I5, I7, I9, I8, then the reconfigure policy of
    /// R1), after V8 so that every index is in range.
    func checkStrict(
        oldOf: [Int: Int], reloadedSectionTarget: [Int: Int], _ sectionMovedTo: [Int: Int], _ sectionMovedFrom: [Int: Int]
    ) throws(Failure) {
        if let path = deletes.first(where: { deleteSections.contains($0.section) }) {
            throw Self.failure("I1", "delete \(Self.text(path)) in a deleted section")
        }
        if let path = inserts.first(where: { insertSections.contains($0.section) }) {
            throw Self.failure("I2", "insert \(Self.text(path)) in an inserted section")
        }
        if let path = (deletes + reloads).first(where: { sectionMovedTo[$0.section] != nil }) {
            throw Self.failure("I5", "\(Self.text(path)) in a moved section")
        }
        if let path = inserts.first(where: { sectionMovedFrom[$0.section] != nil }) {
            throw Self.failure("I5", "\(Self.text(path)) in a moved section")
        }
        if let move = moves.first(where: { sectionMovedTo[$0.from.section] != nil || sectionMovedFrom[$0.to.section] != nil }) {
            throw Self.failure("I5", "\(move) touches a moved section")
        }
        if !reloadSections.isEmpty {
            if !sectionMoves.isEmpty { throw Self.failure("I7", "section reload beside section moves") }
            let touchesOld = (deletes + reloads + moves.map(\.from)).contains { reloadedSectionTarget[$0.section] != nil }
            let targets = Set(reloadedSectionTarget.values)
            let touchesNew = (inserts + moves.map(\.to)).contains { targets.contains($0.section) }
            if touchesOld || touchesNew { throw Self.failure("I7", "item operation in a reloaded section") }
        }
        if !reloads.isEmpty && (!moves.isEmpty || !sectionMoves.isEmpty) {
            throw Self.failure("I9", "item reload beside moves")
        }
        // I8: the same raw section index on both sides, but not the same section.
        if let move = moves.first(where: { move in
            move.from.section == move.to.section && oldOf[move.to.section] != move.from.section
        }) {
            throw Self.failure("I8", "\(move) between two sections with equal raw indices")
        }
        let structural =
            !deleteSections.isEmpty || !insertSections.isEmpty || !sectionMoves.isEmpty || !deletes.isEmpty || !inserts.isEmpty
            || !moves.isEmpty
        if !reconfigures.isEmpty && structural { throw Self.failure("R1", "reconfigure in a structural batch") }
        let reloaded = Set(reloads)
        if let path = reconfigures.first(where: { reloaded.contains($0) }) {
            throw Self.failure("R1", "reconfigure of reloaded \(Self.text(path))")
        }
    }
}
