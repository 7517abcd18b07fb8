import ArgumentParser
import DiffableTesting
import Foundation

/// `diffable stress` (`make stress`): 10^7-item snapshots, flat, sectioned and outline,
/// through every scenario, each checked cheaply at its end, with its time and memory in a table.
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Run 10^7-item snapshots through every scenario within a memory limit.",
        discussion: """
            Shapes: flat (one section), sectioned (--sections sections) and outline (5 levels, \
            about --items items). Scenarios: build, churn and full re-sort diffs, deleteItems of \
            5%, moves, reloads, a DiffableDataSource apply onto the strict SimulatedListView; \
            outline expand all, visibleItems, the visible-rows diff and its apply, collapse all, \
            inserts and deletes. Each ends with cheap checks (counts, 1,000 sampled positions, \
            batches accepted by the validator). The table (stdout) gives the operation's time, \
            the scenario's total, its sampled peak RSS and the process's VmHWM so far. Exit 1 \
            when a check fails or the peak passes --limit-mb. Build in release.
            """)

    @Option(help: "Items per snapshot.")
    var items: Int = 10_000_000

    @Option(help: "Sections of the sectioned shape.")
    var sections: Int = 10_000

    @Option(help: "Comma-separated shapes: flat, sectioned, outline.")
    var shapes: String = "flat,sectioned,outline"

    @Option(help: "Peak resident memory allowed, in MB (1536 = 1.5 GB).")
    var limitMb: Int = 1536

    @Option(help: "Random seed of the workloads.")
    var seed: UInt64 = 1

    func validate() throws {
        guard (1_000...100_000_000).contains(items) else { throw ValidationError("--items must be 1000 to 100000000 (got \(items))") }
        guard (2...items / 10).contains(sections) else {
            throw ValidationError("--sections must be 2 to --items/10 (got \(sections))")
        }
        guard limitMb > 0 else { throw ValidationError("--limit-mb must be positive (got \(limitMb))") }
        for shape in shapeList where !["flat", "sectioned", "outline"].contains(shape) {
            throw ValidationError("unknown shape '\(shape)' (flat, sectioned, outline)")
        }
    }

    private var shapeList: [String] { shapes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }

    func run() throws {
        DebugBuild.noteIfLarge(itemCount: items)
        let run = StressRun(limitBytes: limitMb << 20)
        for shape in shapeList {
            switch shape {
            case "flat": ListStress(shape: "flat", itemCount: items, sectionCount: 1, seed: seed).run(run)
            case "sectioned": ListStress(shape: "sectioned", itemCount: items, sectionCount: sections, seed: seed).run(run)
            default: OutlineStress(itemCount: items, seed: seed).run(run)
            }
        }
        print(run.table())
        print("peak RSS of the process (VmHWM): \(run.processPeakBytes >> 20) MB; limit \(limitMb) MB")
        let problems = run.problems
        guard problems.isEmpty else {
            for problem in problems { print("FAILED: \(problem)") }
            throw CLIError("stress: \(problems.count) problem(s); see the table", status: .rejected)
        }
        print("stress: every check passed")
    }
}
