import Diffable
import DiffableTesting
import DiffableTools
import Foundation

/// `diffable bench --suite apply`: `DiffableDataSource.apply` end to end, and what the data
/// source itself adds to the diff.
///
/// 1. One apply of n items in sections of 100 with 10% churn (docs/PERFORMANCE.md's sectioned
///    workload): the diff alone; the apply into a headless view that only asks counts and the
///    cells of its first screen that a list binds after the batch (its overhead over the diff
///    is the data source's own cost); the
///    apply into a view that checks the batch with the strict ``ListViewSimulator`` (its
///    checking timed apart); the apply matching items by `id` with 1% changed values.
/// 2. Small applies (100 items in 5 sections) from 4 threads into the checking view: as fast
///    as possible, then paced at 1,000 applies per second, with and without coalescing.
enum ApplyBench {
    /// The large apply of `count` items in sections of 100 with `keys`, then (once per run of
    /// the suite, `sustained`) the small applies from 4 threads.
    static func measure(keys: BenchKeys, count: Int, runs: Int, seed: UInt64, sustained: Bool, log: BenchLog) -> [BenchRow] {
        let label = "apply \(keys.rawValue) n=\(BenchSizes.label(count))"
        var rows: [BenchRow]
        switch keys {
        case .int: rows = large(count, keys, runs, seed, label, log) { $0 }
        case .random64: rows = large(count, keys, runs, seed, label, log, BenchKeys.scrambled)
        case .string:
            let names = (0..<(count + count / 10 + 1)).map(BenchKeys.name)
            rows = large(count, keys, runs, seed, label, log) { names[$0] }
        }
        if sustained { rows += sustainedRows(log: log) }
        return rows
    }

    // MARK: One large apply

    private static func large<Item: Hashable & Sendable>(
        _ itemCount: Int, _ keys: BenchKeys, _ runs: Int, _ seed: UInt64, _ label: String, _ benchLog: BenchLog, _ item: (Int) -> Item
    ) -> [BenchRow] {
        func log(_ text: String) { benchLog.step(label, phase: text) }
        let sectionCount = max(1, itemCount / 100)
        let (oldLayout, newLayout) = SectionedWorkload.churn(itemCount: itemCount, sectionCount: sectionCount, seed: seed &+ 2)
        let old = SectionedWorkload.snapshot(oldLayout, item), new = SectionedWorkload.snapshot(newLayout, item)
        // Diff and apply alternate, so that both see the same load on a shared machine; the
        // overhead is the median of the per-pair differences.
        log("difference(from:) and apply, alternating")
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
        let byID = median(runs: runs) { applyMatchingByID(oldLayout, newLayout, item) }
        func row(_ measurement: String, _ seconds: Double, runs: Int, note: String? = nil) -> BenchRow {
            var row = BenchRow(
                suite: "apply", scenario: measurement, keys: keys.rawValue, count: old.numberOfItems, milliseconds: seconds * 1000,
                runs: runs)
            row.sections = sectionCount
            row.identifiersHashed = "at build, untimed (Diffable only)"
            if let note { row.notes.append(note) }
            return row
        }
        var byIDRow = row("apply matching by id (1% values changed)", byID, runs: runs)
        byIDRow.identifiersHashed = "the ids, inside: the data source builds their snapshots (Diffable only)"
        return [
            row("difference(from:) alone", diff, runs: runs * 2),
            row("apply, headless view (counts + the cells a list binds)", headless, runs: runs * 2),
            row(
                "data source overhead (apply − diff, paired)", overhead, runs: runs * 2,
                note: String(format: "%.1f%% of the diff", overhead / diff * 100)),
            row(
                "apply into the strict simulator view", checked, runs: max(1, runs / 2),
                note: String(format: "of which the simulator's checking %.1f ms", checkSeconds.sorted()[checkSeconds.count / 2] * 1000)),
            byIDRow,
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
    struct Versioned<ID: Hashable & Sendable>: Identifiable, Hashable, Sendable {
        let id: ID
        var version: Int
    }

    private static func applyMatchingByID<ID: Hashable & Sendable>(_ oldLayout: [[Int]], _ newLayout: [[Int]], _ item: (Int) -> ID)
        -> Double
    {
        let old = SectionedWorkload.snapshot(oldLayout) { Versioned(id: item($0), version: 0) }
        let new = SectionedWorkload.snapshot(newLayout) { Versioned(id: item($0), version: $0 % 100 == 0 ? 1 : 0) }
        let queue = DispatchQueue(label: "bench view")
        let view = FirstScreenListView<Versioned<ID>>(checking: false)
        let dataSource = DiffableDataSource<Int, Versioned<ID>, Versioned<ID>>(
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

    static func sustainedRows(log: BenchLog) -> [BenchRow] {
        var rows: [BenchRow] = []
        for policy in [QueuedApplyPolicy.performEach, .coalesce] {
            for paced in [false, true] {
                log.step("apply: 4 threads, \(policy), \(paced ? "paced" : "flat out")")
                rows.append(sustained(policy: policy, paced: paced))
            }
        }
        return rows
    }

    /// 4 threads × 500 applies of small snapshots (built beforehand); paced: each thread
    /// applies every 4 ms (1,000 applies per second together).
    static func sustained(policy: QueuedApplyPolicy, paced: Bool, threads: Int = 4, perThread: Int = 500) -> BenchRow {
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
        // The row's time is the median latency of one apply (call to completion).
        var row = BenchRow(
            suite: "apply",
            scenario: "\(threads) threads × \(perThread) small applies, \(policy == .coalesce ? "coalesce" : "performEach"), "
                + (paced ? "paced 1,000/s" : "flat out"),
            keys: "int", count: 100, milliseconds: Double(sorted[sorted.count / 2]) / 1e6, runs: applies)
        row.identifiersHashed = "at build, untimed (Diffable only)"
        row.notes = [
            String(format: "%.0f applies/s", Double(applies) / seconds), "\(queue.sync { view.batchCount }) batches",
            String(format: "p99 latency %.2f ms", Double(sorted[sorted.count * 99 / 100]) / 1e6),
        ]
        return row
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
}

/// Latencies recorded from completion handlers on the view's queue.
private final class LatencyLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [UInt64] = []
    func add(_ value: UInt64) { lock.withLock { values.append(value) } }
    var all: [UInt64] { lock.withLock { values } }
}
