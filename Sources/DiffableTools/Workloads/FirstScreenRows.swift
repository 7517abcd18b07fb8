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
/// the old section's rows that are neither deleted nor moved away, in order.
enum FirstScreenRows {
    /// Calls `ask` with each row among the first `screenRows` rows of the new state (counted
    /// across sections, in order) whose cell a list asks after `batch`, in order. A structural
    /// batch that also reloads rows or sections (UIKit derives where those land) asks the
    /// whole screen. Works in temporary memory: a headless list calls it on every batch.
    /// - Complexity: O(s + k) for s sections and k operations in the batch.
    static func forEachRowToBind(
        after batch: BatchUpdate, oldCounts: [Int], newCounts: [Int], screenRows: Int, _ ask: (IndexPath) -> Void
    ) {
        let screen = sections(of: newCounts, screenRows: screenRows)
        let asksAll = !batch.isRefreshOnly && (!batch.reloadSections.isEmpty || batch.rows(of: .reloads).count > 0)
        let oldScreen = batch.isRefreshOnly || asksAll ? [] : sections(of: oldCounts, screenRows: screenRows)
        for shown in screen {
            let origin: Int?
            if batch.isRefreshOnly {
                origin = batch.reloadSections.contains(shown.section) ? nil : shown.section
            } else {
                origin = asksAll ? nil : oldSection(continuedBy: shown.section, in: batch, oldSectionCount: oldCounts.count)
            }
            guard let origin else {
                for item in 0..<shown.rows { ask(IndexPath(item: item, section: shown.section)) }
                continue
            }
            withUnsafeTemporaryAllocation(of: Arrival.self, capacity: shown.rows) { arrivals in
                arrivals.initialize(repeating: Arrival())
                if batch.isRefreshOnly {
                    // Unchanged positions: the reloaded and reconfigured rows are asked, no other.
                    func mark(_ list: BatchUpdate.ItemList) {
                        batch.rows(of: list).forEachRow(inSection: shown.section, below: shown.rows) { _, item in
                            arrivals[item].reconfigured = true
                        }
                    }
                    mark(.reloads)
                    mark(.reconfigures)
                    for item in arrivals.indices where arrivals[item].reconfigured {
                        ask(IndexPath(item: item, section: shown.section))
                    }
                } else {
                    bindRows(of: shown, continuing: origin, batch: batch, oldScreen: oldScreen, arrivals: arrivals, ask)
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

    /// A section on the first screen and how many of its rows are shown.
    struct ShownSection {
        var section: Int
        var rows: Int
    }

    /// The sections holding the first `screenRows` rows, in order (empty sections left out).
    /// - Complexity: O(sections on the screen).
    static func sections(of counts: [Int], screenRows: Int) -> [ShownSection] {
        var shown: [ShownSection] = [], start = 0
        for (section, count) in counts.enumerated() {
            if start >= screenRows { break }
            if count > 0 { shown.append(ShownSection(section: section, rows: min(count, screenRows - start))) }
            start += count
        }
        return shown
    }

    /// The old section whose rows new section `section` carries on; nil when it is inserted.
    /// - Complexity: O(s + section operations).
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
        var reconfigured = false
    }

    /// Calls `ask` with the shown rows of `shown` whose cells are asked after a structural batch,
    /// its old section being `origin`; `arrivals` holds one blank ``Arrival`` a shown row.
    /// - Complexity: O(k + shown rows + d log d) for d rows leaving `origin`.
    private static func bindRows(
        of shown: ShownSection, continuing origin: Int, batch: BatchUpdate, oldScreen: [ShownSection],
        arrivals: UnsafeMutableBufferPointer<Arrival>, _ ask: (IndexPath) -> Void
    ) {
        batch.rows(of: .inserts).forEachRow(inSection: shown.section, below: shown.rows) { _, item in arrivals[item].arrives = true }
        let sources = batch.rows(of: .moveSources), deletes = batch.rows(of: .deletes)
        batch.rows(of: .moveTargets).forEachRow(inSection: shown.section, below: shown.rows) { offset, item in
            arrivals[item].arrives = true
            arrivals[item].source = sources[offset]
        }
        batch.rows(of: .reconfigures).forEachRow(inSection: shown.section, below: shown.rows) { _, item in
            arrivals[item].reconfigured = true
        }
        // The old section's rows that leave it, ascending: the rest are carried in order.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: deletes.count + sources.count) { leaving in
            var leavingCount = 0
            func collect(_ list: PathColumn) {
                list.forEachRow(inSection: origin, below: .max) { _, item in
                    leaving.initializeElement(at: leavingCount, to: item)
                    leavingCount += 1
                }
            }
            collect(deletes)
            collect(sources)
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
                    source = RowPath(section: origin, item: nextOld)
                    nextOld += 1
                }
                let keepsCell = source.map { isShown($0, on: oldScreen) } ?? false
                if arrival.reconfigured || !keepsCell { ask(IndexPath(item: item, section: shown.section)) }
            }
        }
    }

    /// Whether `row` was among the shown rows of `screen`.
    /// - Complexity: O(sections on the screen).
    private static func isShown(_ row: RowPath, on screen: [ShownSection]) -> Bool {
        screen.contains { $0.section == row.section && row.item < $0.rows }
    }
}
