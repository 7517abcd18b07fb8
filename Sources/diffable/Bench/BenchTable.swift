import Foundation

/// The forms `diffable bench` prints its rows in: Markdown tables (one per suite, columns
/// no row of the suite fills left out), CSV and JSON.
enum BenchTable {
    private struct Column: Sendable {
        var header: String
        var value: @Sendable (BenchRow) -> String?
    }

    private static let columns: [Column] = [
        Column(header: "scenario") { $0.suite == "files" ? nil : $0.scenario },
        Column(header: "keys") { $0.suite == "files" ? nil : $0.keys },
        Column(header: "n") { "\($0.count)" },
        Column(header: "sections") { $0.sections.map { "\($0)" } },
        Column(header: "build ms") { $0.buildMilliseconds.map(number) },
        Column(header: "Diffable ms") { number($0.milliseconds) },
        Column(header: "ns/item") { number($0.nanosecondsPerItem) },
        Column(header: "validated ms") { $0.validatedMilliseconds.map(number) },
        Column(header: "peak RSS MB") { $0.peakResidentBytes.map { "\($0 >> 20)" } },
        Column(header: "work B/item") { $0.workingBytesPerItem.map { String(format: "%.0f", $0) } },
        Column(header: "moves (minimal)") { row in row.moves.map { "\($0) (\(row.minimalMoves.map(String.init) ?? "—"))" } },
        Column(header: "plain Swift ms") { row in row.baselineMilliseconds.map(number) ?? (row.comparesDiffs ? "skipped" : nil) },
        Column(header: "×") { $0.baselineRatio.map(number) },
        Column(header: "difference(from:) ms") { row in
            row.swiftDifferenceMilliseconds.map(number) ?? (row.comparesDiffs ? "skipped" : nil)
        },
        Column(header: "× ") { $0.swiftDifferenceRatio.map(number) },
    ]

    /// 3 significant figures, no exponent: 0.0123, 1.23, 12.3, 123, 12345.
    static func number(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        if value >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.3g", value)
    }

    /// One Markdown table per suite, in the order the suites ran, each followed by its notes.
    static func markdown(_ rows: [BenchRow]) -> String {
        var suites: [String] = []
        for row in rows where !suites.contains(row.suite) { suites.append(row.suite) }
        var blocks: [String] = []
        for suite in suites {
            let group = rows.filter { $0.suite == suite }
            let used = columns.filter { column in
                group.contains { column.value($0) != nil && column.value($0) != "skipped" }
                    || (column.header.hasSuffix("ms") && group.contains { column.value($0) == "skipped" })
            }
            var lines = ["**\(suite)**", ""]
            lines.append("| " + used.map(\.header).joined(separator: " | ") + " |")
            lines.append("|" + used.map { ["scenario", "keys"].contains($0.header) ? "---|" : "---:|" }.joined())
            for row in group { lines.append("| " + used.map { $0.value(row) ?? "—" }.joined(separator: " | ") + " |") }
            // Each note once: the outline's rows all say how the outline is shaped.
            var notes: [String] = []
            for note in group.flatMap(\.notes) where !notes.contains(note) { notes.append(note) }
            if !notes.isEmpty && !suite.hasPrefix("apply") {
                lines.append("")
                lines += notes.map { "- \($0)" }
            }
            blocks.append(lines.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n")
    }

    static let csvHeader = [
        "suite", "scenario", "keys", "count", "sections", "milliseconds", "ns_per_item", "runs", "validated_ms", "build_ms",
        "peak_rss_bytes", "working_bytes_per_item", "moves", "minimal_moves", "plain_swift_ms", "plain_swift_runs", "plain_swift_ratio",
        "difference_from_ms", "difference_from_runs", "difference_from_ratio", "notes",
    ]

    /// RFC 4180 CSV: a header, then one line per row; empty fields where not measured.
    static func csv(_ rows: [BenchRow]) -> String {
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        func value(_ number: Double?) -> String { number.map { String(format: "%.6g", $0) } ?? "" }
        func value(_ number: Int?) -> String { number.map(String.init) ?? "" }
        var lines = [csvHeader.joined(separator: ",")]
        for row in rows {
            let fields: [String] = [
                row.suite, row.scenario, row.keys, value(row.count), value(row.sections), value(row.milliseconds),
                value(row.nanosecondsPerItem), value(row.runs), value(row.validatedMilliseconds), value(row.buildMilliseconds),
                value(row.peakResidentBytes), value(row.workingBytesPerItem), value(row.moves), value(row.minimalMoves),
                value(row.baselineMilliseconds), value(row.baselineRuns), value(row.baselineRatio), value(row.swiftDifferenceMilliseconds),
                value(row.swiftDifferenceRuns), value(row.swiftDifferenceRatio), row.notes.joined(separator: "; "),
            ]
            lines.append(fields.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// The rows as a JSON array, with the machine they ran on.
    static func json(_ rows: [BenchRow], machine: String) throws -> String {
        struct Document: Encodable {
            var machine: String
            var rows: [BenchRow]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(Document(machine: machine, rows: rows)), as: UTF8.self)
    }
}

extension BenchRow {
    /// Rows of the diff suites run both baselines (or say why not).
    var comparesDiffs: Bool { ["flat", "sectioned", "files"].contains(suite) }
}
