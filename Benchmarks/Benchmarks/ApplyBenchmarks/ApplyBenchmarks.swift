import Benchmark
import BenchmarkSupport
import Diffable
import DiffableTesting
import DiffableTools
import Foundation

/// A data source on a private queue over a first-screen headless view (or the strict
/// simulated view), loaded with `old`, whose applies alternate between `new` and `old` (each
/// a full churn diff and batch).
private final class AlternatingApplies: @unchecked Sendable {
    let snapshots: [DiffableDataSourceSnapshot<Int, Int>]
    let dataSource: DiffableDataSource<Int, Int, Int>
    let view: AnyObject
    private var next = 1

    init(itemCount: Int, sectionCount: Int, strictView: Bool) {
        let (old, new) = SectionedWorkload.churn(itemCount: itemCount, sectionCount: sectionCount, seed: 3)
        snapshots = [SectionedWorkload.snapshot(old) { $0 }, SectionedWorkload.snapshot(new) { $0 }]
        let executor = ViewExecutor.queue(DispatchQueue(label: "bench view"))
        if strictView {
            let view = SimulatedListView<Int>()
            dataSource = DiffableDataSource(view: view, executor: executor) { _, item in item }
            self.view = view
        } else {
            let view = FirstScreenListView<Int>(checking: false)
            dataSource = DiffableDataSource(view: view, executor: executor) { _, item in item }
            self.view = view
        }
        applyAndWait { dataSource.applySnapshotUsingReloadData(snapshots[0], completion: $0) }
    }

    /// One apply to the other snapshot, from call to completion.
    func applyNext() {
        let snapshot = snapshots[next]
        next = 1 - next
        applyAndWait { dataSource.apply(snapshot, completion: $0) }
    }

    private func applyAndWait(_ body: (@escaping @Sendable () -> Void) -> Void) {
        let done = DispatchSemaphore(value: 0)
        body { done.signal() }
        done.wait()
    }
}

/// `count` small snapshots (5 sections over 150 identifiers), each a small edit of the one before.
private func smallSnapshots(count: Int, seed: UInt64) -> [DiffableDataSourceSnapshot<Int, Int>] {
    var generator = SplitMix64(seed: seed)
    var sections = (0..<5).map { Array(($0 * 20)..<($0 * 20 + 20)) }
    return (0..<count).map { _ in
        let from = Int.random(in: 0..<5, using: &generator), to = Int.random(in: 0..<5, using: &generator)
        if !sections[from].isEmpty {
            let item = sections[from].remove(at: Int.random(in: 0..<sections[from].count, using: &generator))
            sections[to].insert(item, at: Int.random(in: 0...sections[to].count, using: &generator))
        }
        let present = Set(sections.joined())
        if let fresh = (0..<150).first(where: { !present.contains($0) && Bool.random(using: &generator) }) {
            sections[from].append(fresh)
        }
        if sections[to].count > 10 { sections[to].removeFirst() }
        return SectionedWorkload.snapshot(sections) { $0 }
    }
}

/// 4 threads × 250 small applies into the strict simulated view, waiting for every completion.
private func fourThreads(_ plans: [[DiffableDataSourceSnapshot<Int, Int>]], policy: QueuedApplyPolicy) {
    let view = SimulatedListView<Int>()
    let dataSource = DiffableDataSource<Int, Int, Int>(view: view, executor: .queue(DispatchQueue(label: "bench view"))) { _, item in item }
    dataSource.queuedApplyPolicy = policy
    let group = DispatchGroup()
    for plan in plans {
        group.enter()
        Thread.detachNewThread {
            for snapshot in plan {
                group.enter()
                dataSource.apply(snapshot) { group.leave() }
            }
            group.leave()
        }
    }
    group.wait()
    withExtendedLifetime(view) {}
}

/// PERFORMANCE.md's sectioned workload (10% churn), applied in alternating directions.
/// Globals are built on first use, in a benchmark's set-up: each benchmark runs in its own
/// process and builds only what it applies.
private let million = AlternatingApplies(itemCount: 1_000_000, sectionCount: 10_000, strictView: false)
private let strict = AlternatingApplies(itemCount: 100_000, sectionCount: 1_000, strictView: true)
private let plans = (0..<4).map { smallSnapshots(count: 250, seed: UInt64($0) + 11) }

/// `DiffableDataSource.apply` end to end (diff, batch, the view's `performBatchUpdates`,
/// completion), with malloc counts for `make bench-check`.
let benchmarks: @Sendable () -> Void = {
    // Both directions, as the applies alternate.
    var forward = true
    checkedBenchmark("apply-diff-alone-1e6-in-1e4-sections", iterations: 6, building: million) { _ in
        let (old, new) = (million.snapshots[0], million.snapshots[1])
        blackHole(forward ? new.difference(from: old) : old.difference(from: new))
        forward.toggle()
    }
    checkedBenchmark("apply-1e6-in-1e4-sections-headless-view", peakMemory: true, iterations: 6, building: million) { _ in
        million.applyNext()
    }
    // ~322,600 mallocs an apply, varying by a few units between runs (the view's queue): 0.1%.
    checkedBenchmark(
        "apply-1e5-in-1e3-sections-strict-SimulatedListView", peakMemory: true, iterations: 6, mallocTolerancePercent: 0.1,
        building: strict
    ) { _ in strict.applyNext() }
    // Which applies meet in the queue (and so what each diffs and coalesces) depends on the
    // threads' timing: between runs the malloc counts varied by 5–11% (performEach) and 7.5%
    // (coalesce), more on a loaded machine. So these are shown by `make bench` but skipped by
    // `make bench-check` and `make bench-thresholds` (their names end in "-from-4-threads").
    for policy in [QueuedApplyPolicy.performEach, .coalesce] {
        Benchmark("apply-1000-small-\(policy)-from-4-threads", configuration: .allocations(setup: { _ = plans })) { _ in
            fourThreads(plans, policy: policy)
        }
    }
}
