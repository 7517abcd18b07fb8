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
    /// The rows among the first `screenRows` rows of the new state (counted across sections,
    /// in order) whose cells a list asks after `batch`, in order. A structural batch that also
    /// reloads rows or sections (UIKit derives where those land) asks the whole screen.
    /// - Complexity: O(s + k) for s sections and k operations in the batch.
    static func toBind(after batch: BatchUpdate, oldCounts: [Int], newCounts: [Int], screenRows: Int) -> [IndexPath] {
        let screen = sections(of: newCounts, screenRows: screenRows)
        if batch.isRefreshOnly { return refreshed(by: batch, screen: screen) }
        if !batch.reloadSections.isEmpty || batch.rows(of: .reloads).count > 0 {
            return screen.flatMap { shown in (0..<shown.rows).map { IndexPath(item: $0, section: shown.section) } }
        }
        let oldScreen = sections(of: oldCounts, screenRows: screenRows)
        var bind: [IndexPath] = []
        // Room for a few rows: a batch brings in some, not the whole screen (one allocation).
        bind.reserveCapacity(min(screenRows, 8))
        for shown in screen {
            guard let origin = oldSection(continuedBy: shown.section, in: batch, oldSectionCount: oldCounts.count) else {
                bind += (0..<shown.rows).map { IndexPath(item: $0, section: shown.section) }
                continue
            }
            bindRows(of: shown, continuing: origin, batch: batch, oldScreen: oldScreen, into: &bind)
        }
        return bind
    }

    /// A section on the first screen and how many of its rows are shown.
    struct ShownSection {
        var section: Int
        var rows: Int
        /// The flat position of its first row.
        var start: Int
    }

    /// The sections holding the first `screenRows` rows, in order (empty sections left out).
    /// - Complexity: O(s).
    static func sections(of counts: [Int], screenRows: Int) -> [ShownSection] {
        var shown: [ShownSection] = [], start = 0
        shown.reserveCapacity(min(counts.count, 4))
        for (section, count) in counts.enumerated() where start < screenRows {
            if count > 0 { shown.append(ShownSection(section: section, rows: min(count, screenRows - start), start: start)) }
            start += count
        }
        return shown
    }

    /// A refresh-only batch names unchanged positions: the reloaded sections' shown rows, and
    /// the reloaded and reconfigured rows on the screen.
    /// - Complexity: O(k + shown rows).
    private static func refreshed(by batch: BatchUpdate, screen: [ShownSection]) -> [IndexPath] {
        var bind: [IndexPath] = []
        for shown in screen {
            if batch.reloadSections.contains(shown.section) {
                bind += (0..<shown.rows).map { IndexPath(item: $0, section: shown.section) }
                continue
            }
            var asked = [Bool](repeating: false, count: shown.rows)
            batch.rows(of: .reloads).forEachRow(inSection: shown.section, below: shown.rows) { _, item in asked[item] = true }
            batch.rows(of: .reconfigures).forEachRow(inSection: shown.section, below: shown.rows) { _, item in asked[item] = true }
            for item in asked.indices where asked[item] { bind.append(IndexPath(item: item, section: shown.section)) }
        }
        return bind
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

    /// What comes to one shown row in a structural batch.
    private struct Arrival {
        /// Inserted (no old row) or moved in (from ``source``); otherwise carried in order.
        var arrives = false
        var source: RowPath?
        var reconfigured = false
    }

    /// Appends to `bind` the shown rows of `shown` whose cells are asked, its old section being
    /// `origin`.
    /// - Complexity: O(k + shown rows + d log d) for d rows leaving `origin`.
    private static func bindRows(
        of shown: ShownSection, continuing origin: Int, batch: BatchUpdate, oldScreen: [ShownSection], into bind: inout [IndexPath]
    ) {
        var arrivals = [Arrival](repeating: Arrival(), count: shown.rows)
        batch.rows(of: .inserts).forEachRow(inSection: shown.section, below: shown.rows) { _, item in arrivals[item].arrives = true }
        let sources = batch.rows(of: .moveSources)
        batch.rows(of: .moveTargets).forEachRow(inSection: shown.section, below: shown.rows) { offset, item in
            arrivals[item].arrives = true
            arrivals[item].source = sources[offset]
        }
        batch.rows(of: .reconfigures).forEachRow(inSection: shown.section, below: shown.rows) { _, item in
            arrivals[item].reconfigured = true
        }
        // The old section's rows that leave it, ascending: the rest are carried in order.
        let deletes = batch.rows(of: .deletes)
        var leaving: [Int] = []
        leaving.reserveCapacity(deletes.count + sources.count)
        deletes.forEachRow(inSection: origin, below: .max) { _, item in leaving.append(item) }
        sources.forEachRow(inSection: origin, below: .max) { _, item in leaving.append(item) }
        leaving.sort()
        var nextOld = 0, nextLeaving = 0
        for (item, arrival) in arrivals.enumerated() {
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
            if arrival.reconfigured || !keepsCell { bind.append(IndexPath(item: item, section: shown.section)) }
        }
    }

    /// Whether `row` was among the shown rows of `screen`.
    /// - Complexity: O(sections on the screen).
    private static func isShown(_ row: RowPath, on screen: [ShownSection]) -> Bool {
        screen.contains { $0.section == row.section && row.item < $0.rows }
    }
}
