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
        if !batch.reloadSections.isEmpty || !batch.rows(of: .reloads).isEmpty {
            return screen.flatMap { shown in (0..<shown.rows).map { IndexPath(item: $0, section: shown.section) } }
        }
        let oldScreen = sections(of: oldCounts, screenRows: screenRows)
        var bind: [IndexPath] = []
        for shown in screen {
            guard let origin = oldSection(continuedBy: shown.section, in: batch, oldSectionCount: oldCounts.count) else {
                bind += (0..<shown.rows).map { IndexPath(item: $0, section: shown.section) }
                continue
            }
            for item in rowsToAsk(shown, continuing: origin, batch: batch, oldScreen: oldScreen) {
                bind.append(IndexPath(item: item, section: shown.section))
            }
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
            mark(batch.rows(of: .reloads), in: shown, &asked)
            mark(batch.rows(of: .reconfigures), in: shown, &asked)
            for item in asked.indices where asked[item] { bind.append(IndexPath(item: item, section: shown.section)) }
        }
        return bind
    }

    /// Sets `flags[item]` for every row of `list` in `shown`'s section within its shown rows.
    /// - Complexity: O(list.count).
    private static func mark(_ list: PathColumn, in shown: ShownSection, _ flags: inout [Bool]) {
        for row in list where row.section == shown.section && row.item < shown.rows { flags[row.item] = true }
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

    /// The shown rows of `shown` whose cells are asked, its old section being `origin`.
    /// - Complexity: O(k + shown rows + d log d) for d rows leaving `origin`.
    private static func rowsToAsk(_ shown: ShownSection, continuing origin: Int, batch: BatchUpdate, oldScreen: [ShownSection])
        -> [Int]
    {
        // What arrives at each shown row: an insert (no origin) or a move (its source).
        var arrived = [Bool](repeating: false, count: shown.rows)
        var movedFrom = [RowPath?](repeating: nil, count: shown.rows)
        mark(batch.rows(of: .inserts), in: shown, &arrived)
        let sources = batch.rows(of: .moveSources), targets = batch.rows(of: .moveTargets)
        for (index, target) in targets.enumerated() where target.section == shown.section && target.item < shown.rows {
            arrived[target.item] = true
            movedFrom[target.item] = sources[index]
        }
        var reconfigured = [Bool](repeating: false, count: shown.rows)
        mark(batch.rows(of: .reconfigures), in: shown, &reconfigured)
        // The old section's rows that leave it, ascending: the rest are carried in order.
        var leaving: [Int] = []
        for row in batch.rows(of: .deletes) where row.section == origin { leaving.append(row.item) }
        for row in sources where row.section == origin { leaving.append(row.item) }
        leaving.sort()
        var asked: [Int] = [], nextOld = 0, nextLeaving = 0
        for item in 0..<shown.rows {
            let from: RowPath?
            if arrived[item] {
                from = movedFrom[item]
            } else {
                while nextLeaving < leaving.count && leaving[nextLeaving] <= nextOld {
                    if leaving[nextLeaving] == nextOld { nextOld += 1 }
                    nextLeaving += 1
                }
                from = RowPath(section: origin, item: nextOld)
                nextOld += 1
            }
            let keepsCell = from.map { isShown($0, on: oldScreen) } ?? false
            if reconfigured[item] || !keepsCell { asked.append(item) }
        }
        return asked
    }

    /// Whether `row` was among the shown rows of `screen`.
    /// - Complexity: O(sections on the screen).
    private static func isShown(_ row: RowPath, on screen: [ShownSection]) -> Bool {
        screen.contains { $0.section == row.section && row.item < $0.rows }
    }
}
