import Foundation

/// A batch that passed V0–V8, resolved into what the view does with it: which old section
/// each new section shows, and the item deletes, inserts, reload pairs and moves, read in place
/// from the batch's lists (a diff's lists stay packed). Readers apply UIKit's clean-up: item
/// deletes inside deleted sections and item inserts inside inserted ones are dropped (I1, I2);
/// compat mode has already dropped exact repeated moves (E24).
package struct BatchPlan {
    package typealias Violation = BatchValidator.Violation
    /// The batch as the view interprets it (compat mode drops exact repeated moves).
    let batch: BatchUpdate
    let oldCounts: [Int]
    let newCounts: [Int]
    /// The old section each new section continues; -1 where it is laid out fresh (inserted or reloaded).
    let newToOld: [Int]
    /// Old sections that disappear (deleted or reloaded).
    let deletedSections: Set<Int>
    /// New sections laid out fresh (inserted, or the targets of reloaded sections).
    let insertedSections: Set<Int>
    /// The explicit item deletes (old paths), repeats included.
    let deletes: PathColumn
    /// The explicit item inserts (new paths), repeats included.
    let inserts: PathColumn
    /// Each reloaded row once: its old path and where its implied insert lands (new path).
    let reloadPairs: [(source: RowPath, target: RowPath)]
    let moveSources: PathColumn
    let moveTargets: PathColumn

    /// Old paths that leave (deletes and reload sources) outside deleted sections.
    /// - Complexity: O(k) for k deletes and reloads.
    var itemDeletes: Set<RowPath> {
        Set(deletes.lazy.filter { !deletedSections.contains($0.section) }).union(reloadPairs.lazy.map(\.source))
    }

    /// New paths that arrive (inserts and reload targets) outside fresh sections, reload targets always.
    /// - Complexity: O(k) for k inserts and reloads.
    var itemInserts: Set<RowPath> {
        Set(inserts.lazy.filter { !insertedSections.contains($0.section) }).union(reloadPairs.lazy.map(\.target))
    }
}

/// The rows a view shows after a replayed batch, and which of them it had to refresh.
package struct BatchReplay<Row> {
    package var rows: [[Row]]
    /// New paths whose row was inserted, reloaded or reconfigured.
    package var refreshedPaths: [IndexPath] = []
    /// New sections laid out fresh (inserted or reloaded).
    package var freshSections: [Int] = []
    /// With `staleContent` allowed: new paths that hold the right row with old content
    /// (the data source changed the value; a refresh batch must follow).
    package var stalePaths: [IndexPath] = []
}

extension BatchPlan {
    /// V9 (ours, not UIKit's): lays out every new section from `oldRows` as UIKit would
    /// (B5: untouched rows fill the free slots in order) and requires the result to equal
    /// `newRows`, what the data source now answers.
    ///
    /// - Parameters:
    ///   - oldRows: what the view showed; its shape is `oldCounts`.
    ///   - newRows: what the data source answers after the update; its shape is `newCounts`.
    ///   - reloadsKeepRow: a reloaded slot holds the old row (identities: the reload must land on
    ///     the same item) rather than the data source's fresh row (cells: the content may change).
    ///   - sectionMismatch: a description of why old section `o` cannot be new section `t`, or nil.
    /// - Throws: a V9 ``BatchValidator/Violation`` naming the first section that differs.
    /// - Complexity: O(n + s + k), n counting old and new rows and k the batch's operations.
    ///   - staleContent: the rows are cells, and a section with the right number of rows whose
    ///     content differs is recorded in ``BatchReplay/stalePaths`` instead of rejected: between a
    ///     structural batch and the refresh batch that follows, changed values still show old content.
    package func replay<Row: Equatable>(
        oldRows: [[Row]], newRows: [[Row]], reloadsKeepRow: Bool, staleContent: Bool = false,
        sectionMismatch: (_ old: Int, _ new: Int) -> String? = { _, _ in nil }
    ) throws(Violation) -> BatchReplay<Row> {
        // Rows numbered flat, section after section: which old rows leave, and what fills each
        // new slot (a code per slot, see `Arrival`), so untouched sections are copied whole and
        // touched ones merged in one pass.
        let oldStarts = Self.starts(oldRows.map(\.count)), newStarts = Self.starts(newRows.map(\.count))
        var leaving = [Bool](repeating: false, count: oldStarts.last ?? 0)
        var arrivals = [Int32](repeating: Arrival.carried, count: newStarts.last ?? 0)
        var touchedOld = [Bool](repeating: false, count: oldRows.count), touchedNew = [Bool](repeating: false, count: newRows.count)
        func leave(_ path: RowPath) {
            leaving[oldStarts[path.section] + path.item] = true
            touchedOld[path.section] = true
        }
        func arrive(_ path: RowPath, _ code: Int32) {
            arrivals[newStarts[path.section] + path.item] = code
            touchedNew[path.section] = true
        }
        for (index, source) in moveSources.enumerated() {
            leave(source)
            arrive(moveTargets[index], Arrival.moved(index))
        }
        for (index, pair) in reloadPairs.enumerated() {
            leave(pair.source)
            arrive(pair.target, Arrival.reloaded(index))
        }
        for path in inserts where !insertedSections.contains(path.section) {
            if arrivals[newStarts[path.section] + path.item] == Arrival.carried { arrive(path, Arrival.inserted) }  // a reload wins
        }
        for path in deletes where !deletedSections.contains(path.section) { leave(path) }
        var reconfigured: [Int: [Int]] = [:]
        for path in batch.reconfigureItems where path.count == 2 { reconfigured[path.section, default: []].append(path.item) }
        var replay = BatchReplay<Row>(rows: [])
        replay.rows.reserveCapacity(newRows.count)
        for (t, expected) in newRows.enumerated() {
            let o = newToOld[t]
            guard o >= 0 else {
                replay.rows.append(expected)  // a new or reloaded section is laid out fresh
                replay.freshSections.append(t)
                continue
            }
            if let mismatch = sectionMismatch(o, t) { throw Violation(rule: "V9", message: mismatch) }
            var shown: [Row]
            if !touchedNew[t] && !touchedOld[o] {
                shown = oldRows[o]
            } else {
                shown = []
                shown.reserveCapacity(expected.count)
                let old = oldRows[o], oldStart = oldStarts[o], newStart = newStarts[t]
                var carried = 0  // the next old row that may be carried over
                func nextCarried() -> Row? {
                    while carried < old.count && leaving[oldStart + carried] { carried += 1 }
                    guard carried < old.count else { return nil }
                    carried += 1
                    return old[carried - 1]
                }
                for item in expected.indices {
                    let code = arrivals[newStart + item]
                    if code == Arrival.carried {
                        guard let row = nextCarried() else { break }  // too few carried rows: the comparison below fails
                        shown.append(row)
                    } else if code >= 0 {
                        let source = moveSources[Int(code)]
                        shown.append(oldRows[source.section][source.item])
                    } else {
                        if code == Arrival.inserted {
                            shown.append(expected[item])
                        } else {
                            let source = reloadPairs[Arrival.reloadIndex(code)].source
                            shown.append(reloadsKeepRow ? oldRows[source.section][source.item] : expected[item])
                        }
                        replay.refreshedPaths.append(IndexPath(item: item, section: t))
                    }
                }
                while let row = nextCarried() { shown.append(row) }
            }
            if !reloadsKeepRow, let paths = reconfigured[t] {
                // Reconfigured rows keep their cell and take the data source's new content.
                for item in paths where item >= 0 && item < shown.count && item < expected.count { shown[item] = expected[item] }
            }
            if staleContent && shown.count == expected.count && shown != expected {
                for item in shown.indices where shown[item] != expected[item] {
                    replay.stalePaths.append(IndexPath(item: item, section: t))
                }
            } else if shown != expected {
                let extra = shown.count > expected.count ? " (\(shown.count - expected.count) old rows have no place)" : ""
                throw Violation(
                    rule: "V9",
                    message:
                        "batch does not produce the target state: section \(t) would show \(shown.map { String(reflecting: $0) }), the data source has \(expected.map { String(reflecting: $0) })\(extra)"
                )
            }
            replay.rows.append(shown)
        }
        replay.refreshedPaths += batch.reconfigureItems
        return replay
    }

    /// Where each section of `counts` starts, the total last. - Complexity: O(s).
    static func starts(_ counts: [Int]) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(counts.count + 1)
        for count in counts { starts.append(starts[starts.count - 1] + count) }
        return starts
    }

    /// What fills a new slot, as one `Int32`: a move's index (≥ 0), or a negative code.
    private enum Arrival {
        static let carried: Int32 = -1
        static let inserted: Int32 = -2
        static func moved(_ index: Int) -> Int32 { Int32(index) }
        static func reloaded(_ index: Int) -> Int32 { -3 - Int32(index) }
        static func reloadIndex(_ code: Int32) -> Int { Int(-3 - code) }
    }
}
