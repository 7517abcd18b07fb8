import Diffable
import Foundation

/// Prints what a list showed before and after an update, and the batches in between:
/// deleted rows in red, inserted in green, moved in yellow, refreshed in blue (on a
/// terminal; plain marks otherwise, and with `NO_COLOR` set).
struct DemoPrinter: Sendable {
    let colored: Bool

    init() {
        colored = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    enum Mark {
        case plain, deleted, inserted, moved, refreshed

        var ansi: String {
            switch self {
            case .plain: ""
            case .deleted: "\u{1B}[31m"
            case .inserted: "\u{1B}[32m"
            case .moved: "\u{1B}[33m"
            case .refreshed: "\u{1B}[34m"
            }
        }

        /// The sign shown before a row without colour.
        var sign: String {
            switch self {
            case .plain: ""
            case .deleted: "-"
            case .inserted: "+"
            case .moved: "~"
            case .refreshed: "*"
            }
        }
    }

    func paint(_ text: String, _ mark: Mark) -> String {
        if mark == .plain { return text }
        return colored ? mark.ansi + text + "\u{1B}[0m" : mark.sign + text
    }

    func bold(_ text: String) -> String { colored ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }

    /// One line per section: its title, then its rows, each painted by `mark`.
    func rows(_ label: String, titles: [String], rows: [[String]], mark: (IndexPath) -> Mark) {
        if rows.isEmpty { print("  \(label)  (empty)") }
        for (section, items) in rows.enumerated() {
            let cells = items.indices.map { paint(items[$0], mark(IndexPath(item: $0, section: section))) }
            let title = section < titles.count ? titles[section] : "section \(section)"
            let head = section == 0 ? label : String(repeating: " ", count: label.count)
            print("  \(head)  \(title): \(cells.isEmpty ? "—" : cells.joined(separator: ", "))")
        }
    }

    /// The view's state before and after `batches`, the batches named in words between them.
    func update(
        titlesBefore: [String], before: [[String]], titlesAfter: [String], after: [[String]], batches: [BatchUpdate]
    ) {
        let structural = batches.first { !$0.isRefreshOnly } ?? BatchUpdate()
        let refreshed = Set(batches.flatMap { $0.reloadItems + $0.reconfigureItems })
        let movedFrom = Set(structural.moveItems.map(\.from)), movedTo = Set(structural.moveItems.map(\.to))
        let deleted = Set(structural.deleteItems)
        let deletedSections = structural.deleteSections, insertedSections = structural.insertSections
        let inserted = Set(structural.insertItems)
        rows("before ", titles: titlesBefore, rows: before) { path in
            if deletedSections.contains(path.section) || deleted.contains(path) { return .deleted }
            return movedFrom.contains(path) ? .moved : .plain
        }
        for batch in batches { print("  " + bold(batch.isRefreshOnly ? "refresh" : "batch  ") + "  " + words(batch, before, after)) }
        if batches.isEmpty { print("  " + bold("batch  ") + "  none: nothing changed") }
        rows("after  ", titles: titlesAfter, rows: after) { path in
            if insertedSections.contains(path.section) || inserted.contains(path) { return .inserted }
            if movedTo.contains(path) { return .moved }
            return refreshed.contains(path) ? .refreshed : .plain
        }
        print()
    }

    /// "delete Kansas (0, 2); insert Texas (1, 0); …", naming the rows the index paths point at.
    func words(_ batch: BatchUpdate, _ before: [[String]], _ after: [[String]]) -> String {
        func name(_ rows: [[String]], _ path: IndexPath) -> String {
            path.section < rows.count && path.item < rows[path.section].count ? rows[path.section][path.item] : "?"
        }
        func at(_ path: IndexPath) -> String { "(\(path.section), \(path.item))" }
        var parts: [String] = []
        parts += batch.deleteSections.sorted().map { paint("delete section \($0)", .deleted) }
        parts += batch.insertSections.sorted().map { paint("insert section \($0)", .inserted) }
        parts += batch.moveSections.map { paint("move section \($0.from)→\($0.to)", .moved) }
        parts += batch.deleteItems.map { paint("delete \(name(before, $0)) \(at($0))", .deleted) }
        parts += batch.insertItems.map { paint("insert \(name(after, $0)) \(at($0))", .inserted) }
        parts += batch.moveItems.map { paint("move \(name(before, $0.from)) \(at($0.from))→\(at($0.to))", .moved) }
        parts += batch.reloadSections.sorted().map { paint("reload section \($0)", .refreshed) }
        parts += batch.reloadItems.map { paint("reload \(name(after, $0)) \(at($0))", .refreshed) }
        parts += batch.reconfigureItems.map { paint("reconfigure \(name(after, $0)) \(at($0))", .refreshed) }
        return parts.isEmpty ? "empty" : parts.joined(separator: "; ")
    }
}
