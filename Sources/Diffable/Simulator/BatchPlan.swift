import Foundation

/// A batch that passed V0–V8, resolved into what the view does with it: which old section
/// each new section shows, and the item deletes, inserts (both including those implied by
/// reloads), reload pairs and moves that remain after UIKit's clean-up (I1, I2, E24).
struct BatchPlan {
    typealias Violation = BatchValidator.Violation
    /// The batch as the view interprets it (compat mode drops exact repeated moves).
    let batch: BatchUpdate
    let oldCounts: [Int]
    let newCounts: [Int]
    /// The old section each new section continues; -1 where it is laid out fresh (inserted or reloaded).
    let newToOld: [Int]
    /// Old sections that disappear (deleted or reloaded).
    let deletedSections: Set<Int>
    /// Old paths that leave (deletes and reload sources) outside deleted sections.
    let itemDeletes: Set<IndexPath>
    /// New paths that arrive (inserts and reload targets) outside fresh sections.
    let itemInserts: Set<IndexPath>
    /// Reload source (old path) → where its implied insert lands (new path).
    let reloadPairs: [IndexPath: IndexPath]
    let moves: [BatchUpdate.ItemMove]
}

/// The rows a view shows after a replayed batch, and which of them it had to refresh.
struct BatchReplay<Row> {
    var rows: [[Row]]
    /// New paths whose row was inserted, reloaded or reconfigured.
    var refreshedPaths: [IndexPath] = []
    /// New sections laid out fresh (inserted or reloaded).
    var freshSections: [Int] = []
    /// With `staleContent` allowed: new paths that hold the right row with old content
    /// (the data source changed the value; a refresh batch must follow).
    var stalePaths: [IndexPath] = []
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
    /// - Complexity: O(n + s) expected hash operations, n counting old and new rows.
    ///   - staleContent: the rows are cells, and a section with the right number of rows whose
    ///     content differs is recorded in ``BatchReplay/stalePaths`` instead of rejected: between a
    ///     structural batch and the refresh batch that follows, changed values still show old content.
    func replay<Row: Equatable>(
        oldRows: [[Row]], newRows: [[Row]], reloadsKeepRow: Bool, staleContent: Bool = false,
        sectionMismatch: (_ old: Int, _ new: Int) -> String? = { _, _ in nil }
    ) throws(Violation) -> BatchReplay<Row> {
        // Per section, what arrives (new paths) and what leaves (old paths), so untouched
        // sections are copied and touched ones are merged without hashing every row.
        var arrivals: [Int: [(item: Int, arrival: Arrival)]] = [:], leaving: [Int: [Int]] = [:]
        for move in moves {
            arrivals[move.to.section, default: []].append((move.to.item, .moved(move.from)))
            leaving[move.from.section, default: []].append(move.from.item)
        }
        for (old, new) in reloadPairs {
            arrivals[new.section, default: []].append((new.item, .reloaded(old)))
            leaving[old.section, default: []].append(old.item)
        }
        let reloadTargets = Set(reloadPairs.values)
        for path in itemInserts where !reloadTargets.contains(path) {
            arrivals[path.section, default: []].append((path.item, .inserted))
        }
        for path in itemDeletes where reloadPairs[path] == nil { leaving[path.section, default: []].append(path.item) }
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
            if arrivals[t] == nil && leaving[o] == nil {
                shown = oldRows[o]
            } else {
                shown = []
                shown.reserveCapacity(expected.count)
                let gone = Set(leaving[o] ?? [])
                var carried = oldRows[o].indices.lazy.filter { !gone.contains($0) }.map { oldRows[o][$0] }.makeIterator()
                var next = 0
                for (item, arrival) in (arrivals[t] ?? []).sorted(by: { $0.item < $1.item }) {
                    while next < item, let row = carried.next() {
                        shown.append(row)
                        next += 1
                    }
                    guard next == item else { break }  // too few carried rows: the comparison below fails
                    switch arrival {
                    case .moved(let source): shown.append(oldRows[source.section][source.item])
                    case .reloaded(let source): shown.append(reloadsKeepRow ? oldRows[source.section][source.item] : expected[item])
                    case .inserted: shown.append(expected[item])
                    }
                    if case .moved = arrival {} else { replay.refreshedPaths.append(IndexPath(item: item, section: t)) }
                    next += 1
                }
                while let row = carried.next() { shown.append(row) }
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

    /// What fills a new slot that is not carried over.
    private enum Arrival {
        case moved(IndexPath)
        case reloaded(IndexPath)
        case inserted
    }
}
