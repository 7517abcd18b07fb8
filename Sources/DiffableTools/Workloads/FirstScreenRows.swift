import Diffable
import Foundation

/// Which rows of a list's first screen need their cell asked after a batch, decided as UIKit's
/// lists decide it. A cell on screen stays bound through a batch when its row is carried or
/// moved from a row that was on the first screen before it; the list asks its data source again
/// for a row that was inserted, laid out in an inserted section, moved or shifted in from off
/// the screen, or reloaded or reconfigured. (A view that asked its whole first screen after
/// every batch charged an app's apply with requests no real list makes: 20 cells for a batch
/// that changed one visible row.)
///
/// Rows are carried as UIKit lays them out: the new sections that are neither inserted nor
/// the target of a section move continue the old sections that are neither deleted nor moved
/// away, in order; within a section, the rows that are neither inserted nor moved in continue
/// the old section's rows that are neither deleted nor moved away, in order. A structural
/// batch's reconfigures name new positions, as a diff lists them (docs/ALGORITHM.md, "Steps").
///
/// For batches that fit the counts given, as a data source's do: an index path of another
/// batch must have two indices (a malformed one traps); other out-of-range rows are ignored.
enum FirstScreenRows {
    /// Calls `ask` with each row among the first `screenRows` rows of the new state (counted
    /// across sections, in order) whose cell a list asks after `batch`, in order. A structural
    /// batch that also reloads rows or sections (UIKit derives where those land) asks the
    /// whole screen. Allocates nothing for a data source's batch whose sections have fewer
    /// than about 128 rows (its working lists are temporary, on the stack).
    /// - Complexity: O(v × (s + d + m) + k) for v sections shown, s sections, d section deletes
    ///   and m section moves, and k item operations in the batch (the lists a diff packs in
    ///   ascending order are bisected: O(log k + rows found) each, its move sources scanned).
    static func forEachRowToBind(
        after batch: BatchUpdate, oldCounts: [Int], newCounts: [Int], screenRows: Int, _ ask: (IndexPath) -> Void
    ) {
        let refreshOnly = batch.isRefreshOnly
        let asksAll = !refreshOnly && (!batch.reloadSections.isEmpty || batch.rows(of: .reloads).count > 0)
        forEachShownSection(of: newCounts, screenRows: screenRows) { section, rows in
            let origin: Int?
            if refreshOnly {
                origin = batch.reloadSections.contains(section) ? nil : section
            } else {
                origin = asksAll ? nil : oldSection(continuedBy: section, in: batch, oldSectionCount: oldCounts.count)
            }
            guard let origin else {
                for item in 0..<rows { ask(IndexPath(item: item, section: section)) }
                return
            }
            withUnsafeTemporaryAllocation(of: Arrival.self, capacity: rows) { arrivals in
                arrivals.initialize(repeating: Arrival())
                if refreshOnly {
                    // Unchanged positions: the reloaded and reconfigured rows are asked, no other.
                    func mark(_ list: BatchUpdate.ItemList) {
                        batch.rows(of: list).forEachRow(inSection: section, below: rows) { _, item in arrivals[item].refreshed = true }
                    }
                    mark(.reloads)
                    mark(.reconfigures)
                    for item in arrivals.indices where arrivals[item].refreshed { ask(IndexPath(item: item, section: section)) }
                } else {
                    let shown = ShownRows(section: section, rows: rows, origin: origin)
                    bindRows(shown, batch: batch, oldCounts: oldCounts, screenRows: screenRows, arrivals: arrivals, ask)
                }
            }
        }
    }

    /// ``forEachRowToBind(after:oldCounts:newCounts:screenRows:_:)``'s rows, in an array.
    /// - Complexity: as it.
    static func toBind(after batch: BatchUpdate, oldCounts: [Int], newCounts: [Int], screenRows: Int) -> [IndexPath] {
        var bind: [IndexPath] = []
        forEachRowToBind(after: batch, oldCounts: oldCounts, newCounts: newCounts, screenRows: screenRows) { bind.append($0) }
        return bind
    }

    /// Calls `body` with each section holding some of the first `screenRows` rows, in order
    /// (empty sections left out), and how many of its rows are shown.
    /// - Complexity: O(sections up to the screen's last).
    static func forEachShownSection(of counts: [Int], screenRows: Int, _ body: (_ section: Int, _ rows: Int) -> Void) {
        var start = 0
        for (section, count) in counts.enumerated() {
            if start >= screenRows { break }
            if count > 0 { body(section, min(count, screenRows - start)) }
            start += count
        }
    }

    /// Whether old row (`section`, `item`) was among the first `screenRows` rows.
    /// - Complexity: O(sections up to the screen's last).
    private static func wasShown(section: Int, item: Int, oldCounts: [Int], screenRows: Int) -> Bool {
        guard section >= 0, section < oldCounts.count, item >= 0, item < oldCounts[section] else { return false }
        var start = 0
        for count in oldCounts[..<section] {
            start += count
            if start >= screenRows { return false }
        }
        return start + item < screenRows
    }

    /// The old section whose rows new section `section` carries on; nil when it is inserted.
    /// - Complexity: O(s × (d + m)) for s old sections, d section deletes and m section moves.
    static func oldSection(continuedBy section: Int, in batch: BatchUpdate, oldSectionCount: Int) -> Int? {
        if batch.insertSections.contains(section) { return nil }
        if let move = batch.moveSections.first(where: { $0.to == section }) { return move.from }
        // The how-manyth section that stays in place this is, then the old section of that rank.
        var rank = section - batch.insertSections.count(where: { $0 < section }) - batch.moveSections.count(where: { $0.to < section })
        for old in 0..<oldSectionCount
        where !batch.deleteSections.contains(old) && !batch.moveSections.contains(where: { $0.from == old }) {
            if rank == 0 { return old }
            rank -= 1
        }
        return nil  // not reached for a batch that fits the counts
    }

    /// What comes to one shown row.
    private struct Arrival {
        /// Inserted (no old row) or moved in (from ``source``); otherwise carried in order.
        var arrives = false
        var source: RowPath?
        /// Reconfigured, or in a refresh-only batch reloaded: asked whatever it carries.
        var refreshed = false
    }

    /// A shown section of the new state, its shown row count, and the old section it continues.
    private struct ShownRows {
        var section: Int
        var rows: Int
        var origin: Int
    }

    /// Calls `ask` with the rows of `shown` whose cells are asked after a structural batch;
    /// `arrivals` holds one blank ``Arrival`` a shown row.
    /// - Complexity: O(k + shown rows × v + r log r) for k item operations, v sections shown and
    ///   r rows leaving the old section.
    private static func bindRows(
        _ shown: ShownRows, batch: BatchUpdate, oldCounts: [Int], screenRows: Int, arrivals: UnsafeMutableBufferPointer<Arrival>,
        _ ask: (IndexPath) -> Void
    ) {
        batch.rows(of: .inserts).forEachRow(inSection: shown.section, below: shown.rows) { _, item in arrivals[item].arrives = true }
        let sources = batch.rows(of: .moveSources), deletes = batch.rows(of: .deletes)
        batch.rows(of: .moveTargets).forEachRow(inSection: shown.section, below: shown.rows) { offset, item in
            arrivals[item].arrives = true
            arrivals[item].source = sources[offset]
        }
        batch.rows(of: .reconfigures).forEachRow(inSection: shown.section, below: shown.rows) { _, item in
            arrivals[item].refreshed = true
        }
        // The old section's rows that leave it, ascending: the rest are carried in order. No
        // more rows can leave a section than it has.
        let oldRows = shown.origin < oldCounts.count ? oldCounts[shown.origin] : 0
        withUnsafeTemporaryAllocation(of: Int.self, capacity: min(deletes.count + sources.count, oldRows)) { leaving in
            // The count goes in and out of `collect` (inout): a local function that captured
            // it would box it and check every access to it at run time.
            var leavingCount = 0
            func collect(_ list: PathColumn, _ count: inout Int) {
                list.forEachRow(inSection: shown.origin, below: oldRows) { _, item in
                    guard count < leaving.count else { return }  // a batch that does not fit
                    leaving.initializeElement(at: count, to: item)
                    count += 1
                }
            }
            collect(deletes, &leavingCount)
            collect(sources, &leavingCount)
            var leaving = UnsafeMutableBufferPointer(rebasing: leaving[..<leavingCount])
            leaving.sort()
            var nextOld = 0, nextLeaving = 0
            for item in arrivals.indices {
                let arrival = arrivals[item]
                var source = arrival.source
                if !arrival.arrives {
                    while nextLeaving < leaving.count && leaving[nextLeaving] <= nextOld {
                        if leaving[nextLeaving] == nextOld { nextOld += 1 }
                        nextLeaving += 1
                    }
                    source = RowPath(section: shown.origin, item: nextOld)
                    nextOld += 1
                }
                let keepsCell =
                    source.map { wasShown(section: $0.section, item: $0.item, oldCounts: oldCounts, screenRows: screenRows) } ?? false
                if arrival.refreshed || !keepsCell { ask(IndexPath(item: item, section: shown.section)) }
            }
        }
    }
}
