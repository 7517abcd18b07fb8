import Foundation

/// The forms `diffable bench` prints its rows in: Markdown tables (one per suite, columns
/// no row of the suite fills left out), CSV and JSON.
enum BenchTable {
    private struct Column: Sendable {
        var header: String
        var value: @Sendable (BenchRow) -> String?
    }

    private static let columns: [Column] = [
        Column(header: "scenario") { row in
            row.suite == "files" ? nil : row.scenario + (row.repeats.map { " (×\($0) per run)" } ?? "")
        },
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
        Column(header: "build + diff ms") { $0.buildAndDiffMilliseconds.map(number) },
        Column(header: "plain build + diff ms") { row in
            row.baselineBuildAndDiffMilliseconds.map(number) ?? (row.buildAndDiffMilliseconds != nil ? "skipped" : nil)
        },
        Column(header: "×  ") { $0.buildAndDiffRatio.map(number) },
        Column(header: "difference(from:) ms") { row in
            row.swiftDifferenceMilliseconds.map(number) ?? (row.comparesDiffs ? "skipped" : nil)
        },
        Column(header: "× ") { $0.swiftDifferenceRatio.map(number) },
        Column(header: "identifiers hashed") { $0.identifiersHashed },
    ]

    /// 3 significant figures, no exponent: 0.0123, 1.23, 12.3, 123, 12345.
    static func number(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        if value >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.3g", value)
    }

    /// The columns a suite's rows can fill, in table order: fixed per suite, so that a table's
    /// header can be printed before its first row is measured.
    private static let headersBySuite: [String: Set<String>] = [
        "flat": [
            "scenario", "keys", "n", "Diffable ms", "ns/item", "validated ms", "peak RSS MB", "work B/item", "moves (minimal)",
            "plain Swift ms", "×", "difference(from:) ms", "× ", "identifiers hashed",
        ],
        "sectioned": [
            "scenario", "keys", "n", "sections", "Diffable ms", "ns/item", "peak RSS MB", "moves (minimal)", "plain Swift ms", "×",
            "build + diff ms", "plain build + diff ms", "×  ", "difference(from:) ms", "× ", "identifiers hashed",
        ],
        "snapshot": [
            "scenario", "keys", "n", "sections", "Diffable ms", "ns/item", "peak RSS MB", "plain Swift ms", "×", "identifiers hashed",
        ],
        "outline": ["scenario", "keys", "n", "Diffable ms", "ns/item", "peak RSS MB", "plain Swift ms", "×", "identifiers hashed"],
        "apply": ["scenario", "keys", "n", "sections", "Diffable ms", "ns/item", "peak RSS MB", "identifiers hashed"],
        "app": [
            "scenario", "keys", "n", "sections", "Diffable ms", "ns/item", "peak RSS MB", "plain Swift ms", "×",
            "difference(from:) ms", "× ", "identifiers hashed",
        ],
        "files": [
            "n", "sections", "build ms", "Diffable ms", "ns/item", "peak RSS MB", "moves (minimal)", "plain Swift ms", "×",
            "build + diff ms", "plain build + diff ms", "×  ", "difference(from:) ms", "× ", "identifiers hashed",
        ],
    ]

    private static func columns(of suite: String) -> [Column] {
        let headers = headersBySuite[suite] ?? []
        return columns.filter { headers.contains($0.header) }
    }

    /// A suite's table header: its name and the column lines.
    static func markdownHeader(suite: String) -> String {
        let used = columns(of: suite)
        return [
            "**\(suite)**", "", "| " + used.map(\.header).joined(separator: " | ") + " |",
            "|" + used.map { ["scenario", "keys", "identifiers hashed"].contains($0.header) ? "---|" : "---:|" }.joined(),
        ].joined(separator: "\n")
    }

    /// One row's line of its suite's table.
    static func markdownLine(_ row: BenchRow) -> String {
        "| " + columns(of: row.suite).map { $0.value(row) ?? "—" }.joined(separator: " | ") + " |"
    }

    /// The notes under a suite's table (each once: the outline's rows all say how the outline
    /// is shaped), or nil when there are none to show.
    static func markdownNotes(_ rows: [BenchRow]) -> String? {
        var notes: [String] = []
        for note in rows.flatMap(\.notes) where !notes.contains(note) { notes.append(note) }
        guard !notes.isEmpty, rows.first?.suite.hasPrefix("apply") == false else { return nil }
        return notes.map { "- \($0)" }.joined(separator: "\n")
    }

    /// One Markdown table per suite, in the order the suites ran, each followed by its notes.
    static func markdown(_ rows: [BenchRow]) -> String {
        var suites: [String] = []
        for row in rows where !suites.contains(row.suite) { suites.append(row.suite) }
        return suites.map { suite in
            let group = rows.filter { $0.suite == suite }
            var block = [markdownHeader(suite: suite)] + group.map(markdownLine)
            if let notes = markdownNotes(group) { block += ["", notes] }
            return block.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    static let csvHeader = [
        "suite", "scenario", "keys", "count", "sections", "milliseconds", "ns_per_item", "runs", "validated_ms", "build_ms",
        "peak_rss_bytes", "working_bytes_per_item", "moves", "minimal_moves", "plain_swift_ms", "plain_swift_runs", "plain_swift_ratio",
        "difference_from_ms", "difference_from_runs", "difference_from_ratio", "repeats", "build_diff_ms", "plain_build_diff_ms",
        "build_diff_ratio", "identifiers_hashed", "notes",
    ]

    /// RFC 4180 CSV: a header, then one line per row; empty fields where not measured.
    static func csv(_ rows: [BenchRow]) -> String {
        ([csvHeader.joined(separator: ",")] + rows.map(csvLine)).joined(separator: "\n")
    }

    /// One row's CSV line (no line break).
    static func csvLine(_ row: BenchRow) -> String {
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        func value(_ number: Double?) -> String { number.map { String(format: "%.6g", $0) } ?? "" }
        func value(_ number: Int?) -> String { number.map(String.init) ?? "" }
        let fields: [String] = [
            row.suite, row.scenario, row.keys, value(row.count), value(row.sections), value(row.milliseconds),
            value(row.nanosecondsPerItem), value(row.runs), value(row.validatedMilliseconds), value(row.buildMilliseconds),
            value(row.peakResidentBytes), value(row.workingBytesPerItem), value(row.moves), value(row.minimalMoves),
            value(row.baselineMilliseconds), value(row.baselineRuns), value(row.baselineRatio), value(row.swiftDifferenceMilliseconds),
            value(row.swiftDifferenceRuns), value(row.swiftDifferenceRatio), value(row.repeats), value(row.buildAndDiffMilliseconds),
            value(row.baselineBuildAndDiffMilliseconds), value(row.buildAndDiffRatio), row.identifiersHashed ?? "",
            row.notes.joined(separator: "; "),
        ]
        return fields.map(field).joined(separator: ",")
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
