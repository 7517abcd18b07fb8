import ArgumentParser
import Diffable
import DiffableTools
import Foundation

/// `diffable bench`: Diffable against a plain-Swift baseline and Swift's `difference(from:)`
/// on the same inputs, in one process; or `diffable bench OLD NEW` on the user's own files.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark Diffable on synthetic scenarios or on two snapshot files, against plain Swift.",
        discussion: """
            Suites: flat (ListDiffer's difference(from:to:) on [Int] or [String]), sectioned (difference(from:) on snapshots of n items in \
            sections of 100, or one section for re-sort), snapshot (build, indexOfItem, moveItem, \
            deleteItems), outline (a 5-level section snapshot of about n items), apply \
            (DiffableDataSource.apply end to end), app (what an app pays per change at 10^2–10^4 \
            items: build + diff and build + apply, with Int, String, UUID, a struct matched by \
            its UUID id, a small struct and an enum, the last three also keyed by their own \
            keys (IdentifierKeyConvertible; the struct KeyedByID); --keys does not apply, --app-ids picks some, and \
            its sizes default to 1e2..1e4). Every row \
            times a public API call, identifiers hashed inside the timing. Every suite runs every \
            size and key type given. \
            Each row's time is the median of --runs runs after a warm-up; ratios against the \
            plain-Swift implementation (Dictionary + LIS) and Swift's \
            difference(from:).inferringMoves() on the same lists, in the same run, are what \
            carries across machines. A baseline whose runs would exceed --baseline-budget \
            seconds (estimated from smaller n) runs fewer times or is skipped, and stderr says so.

            diffable bench OLD NEW reads two snapshot files (any form diffable diff accepts) \
            and times building both snapshots and diffing them, separately.

            stdout: Markdown tables (default) or --csv, each row printed as it is measured; or \
            --json, printed at the end. stderr: a progress bar when it \
            is a terminal, and notes on what was skipped or slow. --plot FILE.svg draws time vs \
            n on log-log axes, one panel per scenario.
            """)

    @Argument(help: "Two snapshot files to benchmark instead of the built-in workloads (OLD NEW).")
    var files: [String] = []

    @Option(help: "Comma-separated suites: flat, sectioned, snapshot, outline, apply, app, or all.")
    var suite: String = "flat"

    @Option(
        help: "Comma-separated list sizes: 1000, 1e7, 10^6, 100k, 1M, or a decade range (default 1e3..1e7; 1e2..1e4 for the app suite).")
    var sizes: String?

    @Option(
        help:
            "Comma-separated scenarios: \(SectionedScenario.allCases.map(\.rawValue).joined(separator: ", ")) (re-sort: sectioned only)."
    )
    var scenarios: String?

    @Option(help: "Comma-separated key types: int, string, random64.")
    var keys: String = "int,string"

    @Option(help: "App suite only: comma-separated identifier types: Int, String, UUID, Item, Struct, Enum (default all).")
    var appIds: String?

    @Option(
        help: ArgumentHelp(
            "App suite only: no timing; run Diffable's side of one phase, build-diff, build-diff-read, apply or apply-ids (the ids applied by identity, the changed ones reconfigured), N changes per row (PHASE:N), for instruction counts.",
            discussion: """
                Under callgrind, two runs with different N subtract the set-up: their difference over the difference of N is \
                one change; `make app-instructions` runs them so, with glibc's string instructions off (docs/PERFORMANCE.md, \
                "Instruction counts"). Prints no rows.
                """))
    var appProfile: String?

    @Option(help: "Timed runs per measurement (median reported), after one warm-up.")
    var runs: Int = 5

    @Option(help: "Seconds one baseline measurement may take before it runs fewer times or is skipped.")
    var baselineBudget: Double = 5

    @Option(help: "GB resident a baseline may take the process to; one that would go past it is skipped.")
    var memoryLimit: Double = 1.5

    @Option(help: "Skip Swift's difference(from:) above this size.")
    var swiftLimit: Int?

    @Option(help: "Random seed for the inputs.")
    var seed: UInt64 = 1

    @Option(help: "Input form of OLD and NEW: json or tsv (default: from the name, else from the first byte).")
    var inputFormat: SnapshotInputFormat?

    @Flag(help: "Print the rows as JSON ({\"machine\": …, \"rows\": […]}) instead of tables.")
    var json = false

    @Flag(help: "Print the rows as CSV instead of tables.")
    var csv = false

    @Flag(
        help:
            "Time with the bench thread's CPU clock instead of the wall clock (for a crowded machine; not with the apply suite, whose work runs on other threads)."
    )
    var cpuTime = false

    @Option(help: "Also draw time vs n (log-log, one panel per scenario) as an SVG file.")
    var plot: String?

    func run() throws {
        let plan = try Plan(self)
        if cpuTime { Measure.clock = .threadCPU }
        let log = BenchLog()
        let budget = BaselineBudget(
            seconds: baselineBudget, log: log, swiftDifferenceLimit: swiftLimit, memoryLimit: Int(memoryLimit * Double(1 << 30)))
        var rows: [BenchRow] = []
        let output = BenchOutput(form: json ? .json : csv ? .csv : .markdown)
        log.begin(steps: plan.steps.count)
        var sustainedDone = false
        for step in plan.steps {
            Measure.resetPeakResident()
            let start = DispatchTime.now().uptimeNanoseconds
            var produced: [BenchRow]
            switch step {
            case .flat(let scenario, let keys, let count):
                produced = [
                    try FlatBench.measure(scenario: scenario, keys: keys, count: count, runs: runs, seed: seed, budget: budget, log: log)
                ]
            case .sectioned(let scenario, let keys, let count):
                produced = [
                    SectionedBench.measure(scenario: scenario, keys: keys, count: count, runs: runs, seed: seed, budget: budget, log: log)
                ]
            case .snapshot(let keys, let count):
                produced = SnapshotBench.measure(keys: keys, count: count, runs: runs, seed: seed, log: log)
            case .outline(let keys, let count):
                produced = OutlineBench.measure(keys: keys, count: count, runs: runs, seed: seed, log: log)
            case .apply(let keys, let count):
                produced = ApplyBench.measure(keys: keys, count: count, runs: runs, seed: seed, sustained: !sustainedDone, log: log)
                sustainedDone = true
            case .app(let kind, let count):
                let profile = try appProfile.map(AppBench.Profile.init(parsing:))
                produced = AppBench.measure(kind: kind, count: count, runs: runs, seed: seed, log: log, profile: profile)
            case .files(let old, let new):
                produced = [try FilesBench.measure(old: old, new: new, format: inputFormat, runs: runs, budget: budget, log: log)]
            }
            let peak = Measure.peakResidentBytes()
            for index in produced.indices { produced[index].peakResidentBytes = peak }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            log.finishStep()
            if seconds > 30 { log.note("\(step.label) took \(BaselineBudget.duration(seconds)) in all") }
            log.pause()
            output.add(produced)
            log.resume()
            rows += produced
        }
        log.end()
        let machine = Measure.machine()
        if let plot {
            let svg = BenchChart.svg(rows: rows, machine: machine, runs: runs)
            guard FileManager.default.createFile(atPath: plot, contents: Data(svg.utf8)) else {
                throw CLIError("cannot write '\(plot)'")
            }
        }
        // Each row resets VmHWM, so /usr/bin/time's maximum is the last row's: the run's peak is its largest row's.
        let peak = rows.compactMap(\.peakResidentBytes).max() ?? Measure.peakResidentBytes() ?? 0
        try output.finish(
            machine: machine,
            footer:
                "machine: \(machine); medians of \(runs) runs after a warm-up\(cpuTime ? " (thread CPU time)" : ""); peak RSS of this run (its largest row): \(peak >> 20) MB"
        )
    }

    /// Arguments are checked before anything runs: a bad one is a usage error (exit 2).
    func validate() throws {
        guard (1...1_000).contains(runs) else {
            throw ValidationError("--runs must be between 1 and 1000 (got \(runs))")
        }
        if let swiftLimit, swiftLimit < 0 { throw ValidationError("--swift-limit must be 0 or more (got \(swiftLimit))") }
        guard baselineBudget > 0 else { throw ValidationError("--baseline-budget must be more than 0 seconds") }
        guard memoryLimit > 0 else { throw ValidationError("--memory-limit must be more than 0 GB") }
        guard files.isEmpty || files.count == 2 else {
            throw ValidationError("give two snapshot files (OLD NEW), or none for the built-in workloads")
        }
        if json && csv { throw ValidationError("--json and --csv exclude each other") }
        if let appProfile {
            do { _ = try AppBench.Profile(parsing: appProfile) } catch { throw ValidationError("\(error)") }
        }
        if cpuTime && suite.split(separator: ",").contains(where: { ["apply", "all"].contains($0.trimmingCharacters(in: .whitespaces)) }) {
            throw ValidationError("--cpu-time cannot time the apply suite: its applies run on the view's thread")
        }
        do {
            _ = try Plan(self)
        } catch let error as BenchError {
            throw ValidationError(error.description)
        }
    }

    /// The largest list the C core indexes (32-bit indices).
    static let maximumSize = Int(Int32.max)
    /// A generous estimate of peak bytes per item of one bench row with String keys.
    static let bytesPerItem = 400
}

extension BenchCommand {
    /// One row (or group of rows) to measure.
    enum Step {
        case flat(BenchScenario, BenchKeys, Int)
        case sectioned(SectionedScenario, BenchKeys, Int)
        case snapshot(BenchKeys, Int)
        case outline(BenchKeys, Int)
        case apply(BenchKeys, Int)
        case app(AppBench.IDKind, Int)
        case files(String, String)

        var label: String {
            switch self {
            case .flat(let scenario, let keys, let count): "flat \(scenario.rawValue) \(keys.rawValue) n=\(BenchSizes.label(count))"
            case .sectioned(let scenario, let keys, let count):
                "sectioned \(scenario.rawValue) \(keys.rawValue) n=\(BenchSizes.label(count))"
            case .snapshot(let keys, let count): "snapshot \(keys.rawValue) n=\(BenchSizes.label(count))"
            case .outline(let keys, let count): "outline \(keys.rawValue) n=\(BenchSizes.label(count))"
            case .apply(let keys, let count): "apply \(keys.rawValue) n=\(BenchSizes.label(count))"
            case .app(let kind, let count): "app \(kind.rawValue) n=\(BenchSizes.label(count))"
            case .files(let old, let new): "files \(old) \(new)"
            }
        }
    }

    /// The options checked and expanded into steps: suites outermost (so that each suite's
    /// table can be printed row by row), then sizes (small sizes first, so every baseline's
    /// estimate for a larger n has a smaller one to scale from).
    struct Plan {
        var steps: [Step] = []

        init(_ command: BenchCommand) throws {
            if command.files.count == 2 {
                steps = [.files(command.files[0], command.files[1])]
                return
            }
            let suites = try Self.list(command.suite, "suite", known: Self.suiteNames + ["all"]) { word in
                word == "all" ? Self.suiteNames : Self.suiteNames.contains(word) ? [word] : nil
            }.flatMap { $0 }
            let sizes = try BenchSizes.parse(command.sizes ?? "1e3..1e7")
            let appSizes = try command.sizes.map(BenchSizes.parse) ?? [100, 1_000, 10_000]
            for size in sizes + appSizes where !(1...BenchCommand.maximumSize).contains(size) {
                throw BenchError("--sizes: \(size) is out of range (1 to \(BenchCommand.maximumSize), the core's 32-bit indices)")
            }
            let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
            if let largest = (sizes + appSizes).max(),
                largest.multipliedReportingOverflow(by: BenchCommand.bytesPerItem).partialValue > physical / 10 * 8
            {
                throw BenchError(
                    "--sizes: \(largest) items need about \(largest * BenchCommand.bytesPerItem >> 20) MB "
                        + "(\(BenchCommand.bytesPerItem) B per item for inputs, baselines and workspace); this machine has \(physical >> 20) MB"
                )
            }
            let keyList = try Self.list(command.keys, "key type", known: BenchKeys.allCases.map(\.rawValue)) { BenchKeys(rawValue: $0) }
            let appKinds =
                try command.appIds.map {
                    try Self.list($0, "app identifier type", known: AppBench.IDKind.allCases.map(\.rawValue)) {
                        AppBench.IDKind(rawValue: $0)
                    }
                }
                ?? AppBench.IDKind.allCases
            let scenarioList = try Self.list(
                command.scenarios ?? SectionedScenario.allCases.map(\.rawValue).joined(separator: ","), "scenario",
                known: SectionedScenario.allCases.map(\.rawValue)
            ) {
                SectionedScenario(rawValue: $0)
            }
            let flatScenarios = scenarioList.compactMap { BenchScenario(rawValue: $0.rawValue) }
            if suites.contains("flat") && !suites.contains("sectioned") && flatScenarios.isEmpty {
                throw BenchError("--scenarios: re-sort is a sectioned scenario (the flat shuffle is the same re-sort)")
            }
            for suite in suites {
                for size in (suite == "app" ? appSizes : sizes).sorted() {
                    if suite == "app" {
                        steps += appKinds.map { .app($0, size) }
                        continue
                    }
                    for keys in keyList {
                        switch suite {
                        case "flat": steps += flatScenarios.map { .flat($0, keys, size) }
                        case "sectioned": steps += scenarioList.map { .sectioned($0, keys, size) }
                        case "snapshot": steps.append(.snapshot(keys, size))
                        case "outline": steps.append(.outline(keys, size))
                        default: steps.append(.apply(keys, size))
                        }
                    }
                }
            }
        }

        static let suiteNames = ["flat", "sectioned", "snapshot", "outline", "apply", "app"]

        /// The comma-separated words of `text`, each parsed; an unknown word is an error that
        /// names the nearest `known` word and lists them all.
        /// - Complexity: O(words · known · word length).
        private static func list<T>(_ text: String, _ name: String, known: [String], _ parse: (String) -> T?) throws -> [T] {
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !parts.isEmpty else {
                throw BenchError("--\(name == "key type" ? "keys" : name + "s") is empty: give at least one \(name)")
            }
            return try parts.map { word in
                guard let value = parse(word) else {
                    let nearest = NearestName.suggestion(for: word, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                    throw BenchError("unknown \(name) '\(word)'\(nearest); the \(name)s are: \(known.joined(separator: ", "))")
                }
                return value
            }
        }
    }
}
