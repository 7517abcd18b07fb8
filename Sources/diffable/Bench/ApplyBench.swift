import Diffable
import DiffableTools
import Foundation

/// `diffable bench --suite apply`: `DiffableDataSource.apply` end to end, and what the data
/// source itself adds to the diff.
///
/// 1. One apply of 10^6 items in 10^4 sections with 10% churn (PERFORMANCE.md's sectioned
///    workload): the diff alone; the apply into a headless view that only asks counts and the
///    first screen of cells (its overhead over the diff is the data source's own cost); the
///    apply into a view that checks the batch with the strict ``ListViewSimulator`` (its
///    checking timed apart); the apply matching items by `id` with 1% changed values.
/// 2. Small applies (100 items in 5 sections) from 4 threads into the checking view: as fast
///    as possible, then paced at 1,000 applies per second, with and without coalescing.
enum ApplyBench {
    struct LargeRow: Codable {
        var measurement: String
        var milliseconds: Double
    }

    struct SustainedRow: Codable {
        var policy: String
        var pacing: String
        var applies: Int
        var appliesPerSecond: Double
        var batches: Int
        var medianLatencyMilliseconds: Double
        var p99LatencyMilliseconds: Double
    }

    struct Report: Codable {
        var large: [LargeRow]
        var sustained: [SustainedRow]
    }

    static func run(runs: Int) -> Report {
        Report(large: large(runs: runs), sustained: sustainedRows())
    }

    // MARK: One large apply

    static func large(itemCount: Int = 1_000_000, sectionCount: Int = 10_000, runs: Int) -> [LargeRow] {
        func log(_ text: String) { FileHandle.standardError.write(Data("bench apply: \(text)\n".utf8)) }
        let (oldLayout, newLayout) = SectionedWorkload.churn(itemCount: itemCount, sectionCount: sectionCount, seed: 3)
        let old = SectionedWorkload.snapshot(oldLayout) { $0 }, new = SectionedWorkload.snapshot(newLayout) { $0 }
        // Diff and apply alternate, so that both see the same load on a shared machine; the
        // overhead is the median of the per-pair differences.
        log("difference(from:) and apply into a headless view, alternating, n=\(itemCount)")
        var diffs: [Double] = [], applies: [Double] = [], overheads: [Double] = []
        for run in 0...max(1, runs * 2) {
            let diff = Measure.seconds { _ = new.difference(from: old) }
            let apply = applyOnce(old, new, checking: false).total
            guard run > 0 else { continue }  // warm-up
            diffs.append(diff)
            applies.append(apply)
            overheads.append(apply - diff)
        }
        func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let diff = middle(diffs), headless = middle(applies), overhead = middle(overheads)
        log("apply into the strict simulator")
        var checkSeconds: [Double] = []
        let checked = median(runs: max(1, runs / 2)) {
            let (total, check) = applyOnce(old, new, checking: true)
            checkSeconds.append(check)
            return total
        }
        log("apply matching by id, 1% changed")
        let byID = median(runs: runs) { applyMatchingByID(oldLayout, newLayout) }
        return [
            LargeRow(measurement: "difference(from:) alone", milliseconds: diff * 1000),
            LargeRow(measurement: "apply, headless view (counts + first 20 cells)", milliseconds: headless * 1000),
            LargeRow(measurement: "data source overhead (apply − diff, paired)", milliseconds: overhead * 1000),
            LargeRow(measurement: "data source overhead, % of the diff", milliseconds: overhead / diff * 100),
            LargeRow(measurement: "apply into the strict simulator view", milliseconds: checked * 1000),
            LargeRow(
                measurement: "  of which the simulator's checking", milliseconds: checkSeconds.sorted()[checkSeconds.count / 2] * 1000),
            LargeRow(measurement: "apply matching by id (1% values changed)", milliseconds: byID * 1000),
        ]
    }

    /// Median of `runs` timed runs after one warm-up, each run timing itself (set-up excluded).
    private static func median(runs: Int, _ body: () -> Double) -> Double {
        _ = body()
        let samples = (0..<max(1, runs)).map { _ in body() }.sorted()
        return samples[samples.count / 2]
    }

    /// Loads `old` (untimed), then times `apply(new)` from call to completion.
    private static func applyOnce<Item: Hashable & Sendable>(
        _ old: DiffableDataSourceSnapshot<Int, Item>, _ new: DiffableDataSourceSnapshot<Int, Item>, checking: Bool
    ) -> (total: Double, check: Double) {
        let queue = DispatchQueue(label: "bench view")
        let view = FirstScreenListView<Item>(checking: checking)
        let dataSource = DiffableDataSource<Int, Item, Item>(view: view, executor: .queue(queue)) { _, item in item }
        view.target = { [unowned dataSource] in dataSource.snapshot() }
        let done = DispatchSemaphore(value: 0)
        dataSource.applySnapshotUsingReloadData(old) { done.signal() }
        done.wait()
        let seconds = Measure.seconds {
            dataSource.apply(new) { done.signal() }
            done.wait()
        }
        let problems = queue.sync { view.problems }
        precondition(problems.isEmpty, "bench apply: the simulator rejected a batch: \(problems.first ?? "")")
        return (seconds, queue.sync { view.checkSeconds })
    }

    /// A value behind a stable `id` (the content-change mode's items).
    struct Versioned: Identifiable, Hashable, Sendable {
        let id: Int
        var version: Int
    }

    private static func applyMatchingByID(_ oldLayout: [[Int]], _ newLayout: [[Int]]) -> Double {
        let old = SectionedWorkload.snapshot(oldLayout) { Versioned(id: $0, version: 0) }
        let new = SectionedWorkload.snapshot(newLayout) { Versioned(id: $0, version: $0 % 100 == 0 ? 1 : 0) }
        let queue = DispatchQueue(label: "bench view")
        let view = FirstScreenListView<Versioned>(checking: false)
        let dataSource = DiffableDataSource<Int, Versioned, Versioned>(
            view: view, executor: .queue(queue), matchingItemsByID: .reconfigure
        ) { _, item in item }
        let done = DispatchSemaphore(value: 0)
        dataSource.applySnapshotUsingReloadData(old) { done.signal() }
        done.wait()
        return Measure.seconds {
            dataSource.apply(new) { done.signal() }
            done.wait()
        }
    }

    // MARK: Small applies from 4 threads

    static func sustainedRows() -> [SustainedRow] {
        var rows: [SustainedRow] = []
        for policy in [QueuedApplyPolicy.performEach, .coalesce] {
            for paced in [false, true] {
                FileHandle.standardError.write(Data("bench apply: 4 threads, \(policy), \(paced ? "paced" : "flat out")\n".utf8))
                rows.append(sustained(policy: policy, paced: paced))
            }
        }
        return rows
    }

    /// 4 threads × 500 applies of small snapshots (built beforehand); paced: each thread
    /// applies every 4 ms (1,000 applies per second together).
    static func sustained(policy: QueuedApplyPolicy, paced: Bool, threads: Int = 4, perThread: Int = 500) -> SustainedRow {
        let plans = (0..<threads).map { smallSnapshots(count: perThread, seed: UInt64($0) + 11) }
        let queue = DispatchQueue(label: "bench view")
        let view = FirstScreenListView<Int>(checking: true)
        let dataSource = DiffableDataSource<Int, Int, Int>(view: view, executor: .queue(queue)) { _, item in item }
        dataSource.queuedApplyPolicy = policy
        view.target = { [unowned dataSource] in dataSource.snapshot() }
        let loaded = DispatchSemaphore(value: 0)
        dataSource.applySnapshotUsingReloadData(plans[0][0]) { loaded.signal() }
        loaded.wait()
        let latencies = LatencyLog()
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        for plan in plans {
            group.enter()
            Thread.detachNewThread {
                for (index, snapshot) in plan.enumerated() {
                    if paced {
                        let due = start + UInt64(index) * 4_000_000
                        let now = DispatchTime.now().uptimeNanoseconds
                        if due > now { usleep(UInt32((due - now) / 1000)) }
                    }
                    group.enter()
                    let called = DispatchTime.now().uptimeNanoseconds
                    dataSource.apply(snapshot) {
                        latencies.add(DispatchTime.now().uptimeNanoseconds - called)
                        group.leave()
                    }
                }
                group.leave()
            }
        }
        group.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let sorted = latencies.all.sorted()
        let applies = threads * perThread
        let problems = queue.sync { view.problems }
        precondition(problems.isEmpty, "bench apply: the simulator rejected a batch: \(problems.first ?? "")")
        return SustainedRow(
            policy: policy == .coalesce ? "coalesce" : "performEach", pacing: paced ? "1,000/s" : "flat out",
            applies: applies, appliesPerSecond: Double(applies) / seconds, batches: queue.sync { view.batchCount },
            medianLatencyMilliseconds: Double(sorted[sorted.count / 2]) / 1e6,
            p99LatencyMilliseconds: Double(sorted[sorted.count * 99 / 100]) / 1e6)
    }

    /// Snapshots of 5 sections holding ~100 of the identifiers 0..<150, each a small random
    /// edit of the one before (a few deletes, inserts and moves).
    private static func smallSnapshots(count: Int, seed: UInt64) -> [DiffableDataSourceSnapshot<Int, Int>] {
        var generator = SplitMix64(seed: seed)
        var sections = (0..<5).map { section in Array((section * 20)..<(section * 20 + 20)) }
        var snapshots: [DiffableDataSourceSnapshot<Int, Int>] = []
        for _ in 0..<count {
            for _ in 0..<3 {
                let from = Int.random(in: 0..<5, using: &generator), to = Int.random(in: 0..<5, using: &generator)
                if !sections[from].isEmpty {
                    let item = sections[from].remove(at: Int.random(in: 0..<sections[from].count, using: &generator))
                    sections[to].insert(item, at: Int.random(in: 0...sections[to].count, using: &generator))
                }
                let present = Set(sections.joined())
                if let fresh = (0..<150).shuffled(using: &generator).first(where: { !present.contains($0) }) {
                    sections[to].insert(fresh, at: Int.random(in: 0...sections[to].count, using: &generator))
                }
                if sections[from].count > 1 { sections[from].remove(at: Int.random(in: 0..<sections[from].count, using: &generator)) }
            }
            snapshots.append(SectionedWorkload.snapshot(sections) { $0 })
        }
        return snapshots
    }

    static func tables(_ report: Report) -> String {
        var lines = ["| apply, 10^6 items in 10^4 sections, 10% churn (median) | ms |", "|---|---:|"]
        for row in report.large {
            let unit = row.measurement.hasSuffix("% of the diff") ? "%" : ""
            lines.append(String(format: "| %@ | %.1f%@ |", row.measurement, row.milliseconds, unit))
        }
        lines += [
            "",
            "| 4 threads × 500 small applies | pacing | applies/s | batches | latency p50 ms | p99 ms |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for row in report.sustained {
            lines.append(
                String(
                    format: "| %@ | %@ | %.0f | %d | %.2f | %.2f |", row.policy, row.pacing, row.appliesPerSecond, row.batches,
                    row.medianLatencyMilliseconds, row.p99LatencyMilliseconds))
        }
        return lines.joined(separator: "\n")
    }
}

/// Latencies recorded from completion handlers on the view's queue.
private final class LatencyLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [UInt64] = []
    func add(_ value: UInt64) { lock.withLock { values.append(value) } }
    var all: [UInt64] { lock.withLock { values } }
}
