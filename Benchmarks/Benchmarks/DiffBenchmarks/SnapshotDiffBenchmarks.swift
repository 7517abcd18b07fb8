import Benchmark
import BenchmarkSupport
import Diffable
import DiffableTools

/// An old and a new snapshot to diff.
private typealias SnapshotPair<Item: Hashable & Sendable> = (
    old: DiffableDataSourceSnapshot<Int, Item>, new: DiffableDataSourceSnapshot<Int, Item>
)

/// PERFORMANCE.md's sectioned churn: 10^6 items in 10^4 sections, 10% churn with moves across sections.
private func sectionedChurn<Item: Hashable & Sendable>(_ item: (Int) -> Item, itemCount: Int = 1_000_000, sectionCount: Int = 10_000)
    -> SnapshotPair<Item>
{
    let (old, new) = SectionedWorkload.churn(itemCount: itemCount, sectionCount: sectionCount, seed: 1)
    return (SectionedWorkload.snapshot(old, item), SectionedWorkload.snapshot(new, item))
}

// Each pair is built on first use, so a benchmark's process (and its peak memory) holds only its own.
private let churnInt = sectionedChurn { $0 }
private let churnString = sectionedChurn(WorkloadKeyKind.name)
private let smallChurn = sectionedChurn({ $0 }, itemCount: 10_000, sectionCount: 100)
/// A re-sort, as `diffable bench --suite sectioned` has it: one section of 10^6 Int items fully shuffled.
private let resort: SnapshotPair<Int> = {
    var generator = SplitMix64(seed: 2)
    let sorted = Array(0..<1_000_000)
    return (SectionedWorkload.snapshot([sorted]) { $0 }, SectionedWorkload.snapshot([sorted.shuffled(using: &generator)]) { $0 })
}()

/// `new.difference(from: old)`: the two-level diff and batch planner, on a context from the
/// shared pool that the warm-up left warm.
func registerSnapshotDiffBenchmarks() {
    checkedBenchmark("snapshot-diff-churn-Int-1e6-in-1e4-sections", peakMemory: true, iterations: 5, building: churnInt) { _ in
        blackHole(churnInt.new.difference(from: churnInt.old))
    }
    checkedBenchmark("snapshot-diff-churn-String-1e6-in-1e4-sections", peakMemory: true, iterations: 5, building: churnString) {
        _ in blackHole(churnString.new.difference(from: churnString.old))
    }
    checkedBenchmark("snapshot-diff-resort-Int-1e6-one-section", peakMemory: true, iterations: 5, building: resort) { _ in
        blackHole(resort.new.difference(from: resort.old))
    }
    // 100 diffs per iteration: the malloc count is 100 × the steady-state count of one diff.
    checkedBenchmark("snapshot-diff-churn-Int-1e4-in-100-sections-x100-warm", building: smallChurn) { _ in
        for _ in 0..<100 { blackHole(smallChurn.new.difference(from: smallChurn.old)) }
    }
}
