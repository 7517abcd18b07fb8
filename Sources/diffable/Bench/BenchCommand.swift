import ArgumentParser
import Diffable
import Foundation

/// `diffable bench`: the C core against a plain-Swift baseline and Swift's
/// `difference(from:)` on the same inputs, in one process.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark the flat diff engine on the PERFORMANCE.md scenarios.",
        discussion: """
            Every row runs the same input through three engines: the C core (keys precomputed for
            Int; for strings the time includes XXH3 hashing of both lists), a plain-Swift
            Dictionary + LIS implementation of the same algorithm, and Swift's
            difference(from:).inferringMoves() where it finishes in reasonable time. Times are
            medians of --runs runs after a warm-up; ratios are what carries across machines.
            Progress goes to stderr, the table (or --json) to stdout.
            """)

    @Option(help: "Comma-separated list sizes.")
    var sizes: String = "1000,10000,100000,1000000"

    @Option(help: "Comma-separated scenarios: \(BenchScenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scenarios: String = BenchScenario.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Comma-separated key types: int, string.")
    var keys: String = "int,string"

    @Option(help: "Timed runs per measurement (median reported).")
    var runs: Int = 5

    @Option(help: "Skip Swift's difference(from:) above this size (default: a per-scenario limit).")
    var swiftLimit: Int?

    @Option(help: "Random seed for the inputs.")
    var seed: UInt64 = 1

    @Flag(help: "Print JSON rows instead of a table.")
    var json = false

    @Option(
        help:
            "What to measure: flat (list diff engines), snapshot (snapshot operations at 1M), sectioned (difference(from:) at 1M in 10k sections), outline (section snapshot at 1.1M against a naive tree), apply (DiffableDataSource.apply end to end)."
    )
    var suite: String = "flat"

    func run() throws {
        if suite == "sectioned" {
            let rows = SectionedBench.run(runs: runs)
            print(json ? String(decoding: try JSONEncoder().encode(rows), as: UTF8.self) : SectionedBench.table(rows))
            return
        }
        if suite == "apply" {
            let report = ApplyBench.run(runs: runs)
            print(json ? String(decoding: try JSONEncoder().encode(report), as: UTF8.self) : ApplyBench.tables(report))
            return
        }
        if suite == "outline" {
            let rows = OutlineBench.run(runs: runs)
            print(json ? String(decoding: try JSONEncoder().encode(rows), as: UTF8.self) : OutlineBench.table(rows))
            return
        }
        if suite == "snapshot" {
            let rows = SnapshotBench.run(runs: runs)
            if json {
                print(String(decoding: try JSONEncoder().encode(rows), as: UTF8.self))
            } else {
                print(SnapshotBench.table(rows))
            }
            return
        }
        guard suite == "flat" else { throw ValidationError("unknown suite '\(suite)' (flat, snapshot, sectioned, outline, apply)") }
        let sizeList = try parseList(sizes, name: "size") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let scenarioList = try parseList(scenarios, name: "scenario") { BenchScenario(rawValue: $0) }
        let keyList = try parseList(keys, name: "key type") { BenchKeyKind(rawValue: $0) }
        var rows: [BenchRow] = []
        for size in sizeList {
            for scenario in scenarioList {
                for key in keyList {
                    FileHandle.standardError.write(Data("bench: \(scenario.rawValue) \(key.rawValue) n=\(size)\n".utf8))
                    rows.append(
                        try BenchRow.measure(
                            scenario: scenario, key: key, count: size, runs: runs, seed: seed,
                            swiftLimit: swiftLimit ?? scenario.swiftDifferenceLimit))
                }
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
        } else {
            print(BenchRow.table(rows))
            if let peak = Measure.peakResidentBytes() { print("peak RSS of this run: \(peak / 1_048_576) MB") }
        }
    }

    /// Arguments are checked before anything runs: a bad one is a usage error (exit 2).
    func validate() throws {
        guard (1...1_000).contains(runs) else {
            throw ValidationError("--runs must be between 1 and 1000 (got \(runs))")
        }
        if let swiftLimit, swiftLimit < 0 { throw ValidationError("--swift-limit must be 0 or more (got \(swiftLimit))") }
        let sizeList = try parseList(sizes, name: "size") { Int($0) }
        for size in sizeList where !(1...Self.maximumSize).contains(size) {
            throw ValidationError("--sizes: \(size) is out of range (1 to \(Self.maximumSize), the core's 32-bit indices)")
        }
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        if let largest = sizeList.max(), largest.multipliedReportingOverflow(by: Self.bytesPerItem).partialValue > physical / 10 * 8 {
            let estimate = largest * Self.bytesPerItem
            throw ValidationError(
                "--sizes: \(largest) items need about \(estimate >> 20) MB (\(Self.bytesPerItem) B per item for inputs, "
                    + "baselines and workspace); this machine has \(physical >> 20) MB")
        }
    }

    /// The largest list the C core indexes (32-bit indices).
    static let maximumSize = Int(Int32.max)
    /// A generous estimate of peak bytes per item of one flat bench row with String keys.
    static let bytesPerItem = 400

    private func parseList<T>(_ text: String, name: String, _ parse: (String) -> T?) throws -> [T] {
        let parts = text.split(separator: ",")
        guard !parts.isEmpty else {
            throw ValidationError("--\(name == "key type" ? "keys" : name + "s") is empty: give at least one \(name)")
        }
        return try parts.map { part in
            let word = part.trimmingCharacters(in: .whitespaces)
            guard let value = parse(word) else { throw ValidationError("unknown \(name) '\(word)'") }
            return value
        }
    }
}
