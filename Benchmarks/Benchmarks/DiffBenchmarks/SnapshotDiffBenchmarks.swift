import Benchmark
import BenchmarkSupport
import Diffable
import DiffableTools

/// PERFORMANCE.md's sectioned churn (10^6 items in 10^4 sections, 10% churn with moves across
/// sections) with Int and with String identifiers ("item-%011d"), a re-sort (one section of
/// 10^6 Int items fully shuffled, as `diffable bench --suite sectioned` has it), and a small
/// churn for the repeated diffs.
private struct SectionedInputs: Sendable {
    let churnInt: (old: DiffableDataSourceSnapshot<Int, Int>, new: DiffableDataSourceSnapshot<Int, Int>)
    let churnString: (old: DiffableDataSourceSnapshot<Int, String>, new: DiffableDataSourceSnapshot<Int, String>)
    let resort: (old: DiffableDataSourceSnapshot<Int, Int>, new: DiffableDataSourceSnapshot<Int, Int>)
    let small: (old: DiffableDataSourceSnapshot<Int, Int>, new: DiffableDataSourceSnapshot<Int, Int>)

    init() {
        let (old, new) = SectionedWorkload.churn(itemCount: 1_000_000, sectionCount: 10_000, seed: 1)
        churnInt = (SectionedWorkload.snapshot(old) { $0 }, SectionedWorkload.snapshot(new) { $0 })
        churnString = (SectionedWorkload.snapshot(old, WorkloadKeyKind.name), SectionedWorkload.snapshot(new, WorkloadKeyKind.name))
        var generator = SplitMix64(seed: 2)
        let sorted = Array(0..<1_000_000)
        resort = (SectionedWorkload.snapshot([sorted]) { $0 }, SectionedWorkload.snapshot([sorted.shuffled(using: &generator)]) { $0 })
        let (smallOld, smallNew) = SectionedWorkload.churn(itemCount: 10_000, sectionCount: 100, seed: 3)
        small = (SectionedWorkload.snapshot(smallOld) { $0 }, SectionedWorkload.snapshot(smallNew) { $0 })
    }
}

/// Built on first use; only the processes of these benchmarks pay for it.
private let sectioned = SectionedInputs()

/// `new.difference(from: old)`: the two-level diff and batch planner, on a context from the
/// shared pool that the warm-up left warm.
func registerSnapshotDiffBenchmarks() {
    let prepare: Benchmark.BenchmarkSetupHook = { _ = sectioned }
    checkedBenchmark("snapshot-diff-churn-Int-1e6-in-1e4-sections", peakMemory: true, iterations: 5, setup: prepare) { _ in
        blackHole(sectioned.churnInt.new.difference(from: sectioned.churnInt.old))
    }
    checkedBenchmark("snapshot-diff-churn-String-1e6-in-1e4-sections", iterations: 5, setup: prepare) { _ in
        blackHole(sectioned.churnString.new.difference(from: sectioned.churnString.old))
    }
    checkedBenchmark("snapshot-diff-resort-Int-1e6-one-section", peakMemory: true, iterations: 5, setup: prepare) { _ in
        blackHole(sectioned.resort.new.difference(from: sectioned.resort.old))
    }
    // 100 diffs per iteration: the malloc count is 100 × the steady-state count of one diff.
    checkedBenchmark("snapshot-diff-churn-Int-1e4-in-100-sections-x100-warm", setup: prepare) { _ in
        for _ in 0..<100 { blackHole(sectioned.small.new.difference(from: sectioned.small.old)) }
    }
}
