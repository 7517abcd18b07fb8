import Benchmark
import BenchmarkSupport
import Diffable
import DiffableTools

/// Flat lists of 10^5 identifiers 0..<n and their new orders (PERFORMANCE.md's scenarios,
/// from the package's one seeded generator, so every run diffs the same lists).
private struct FlatInputs: Sendable {
    static let count = 100_000
    let old = Array(0..<count)
    let churn: [Int]
    let shuffle: [Int]
    let oldNames: [String]
    let churnNames: [String]
    /// 10^4 items for the repeated diffs.
    let smallOld = Array(0..<10_000)
    let smallChurn: [Int]

    init() {
        var generator = SplitMix64(seed: 42)
        churn = WorkloadScenario.churn.newOrder(count: Self.count, using: &generator)
        shuffle = WorkloadScenario.shuffle.newOrder(count: Self.count, using: &generator)
        oldNames = old.map(WorkloadKeyKind.name)
        churnNames = churn.map(WorkloadKeyKind.name)
        smallChurn = WorkloadScenario.churn.newOrder(count: smallOld.count, using: &generator)
    }
}

private let flat = FlatInputs()

/// The flat C core through its Swift API. One `ListDiffer` serves every iteration, so after
/// the warm-up its workspace is warm: the `workspaceAllocations` metric (allocations the C
/// core made during the iteration, from `ListDiffer.workspaceAllocationCount`) is the
/// "zero malloc per diff once warm" claim, checked with no tolerance like the malloc count.
func registerFlatDiffBenchmarks() {
    let differ = ListDiffer()

    /// One benchmark that runs `diffs` diffs per iteration and reports the workspace's allocations.
    func flatBenchmark(_ name: String, diffs: Int = 1, _ diff: @escaping (ListDiffer) throws -> ListDifference) {
        checkedBenchmark(name, extraMetrics: [.workspaceAllocations], building: flat) { benchmark in
            let before = differ.workspaceAllocationCount
            do {
                for _ in 0..<diffs { blackHole(try diff(differ)) }
            } catch {
                benchmark.error("\(name): \(error)")
            }
            benchmark.measurement(.workspaceAllocations, Int(differ.workspaceAllocationCount - before))
        }
    }

    flatBenchmark("flat-churn-Int-1e5-trusted") { try $0.difference(from: flat.old, to: flat.churn, assumeUnique: true) }
    flatBenchmark("flat-churn-Int-1e5-validated") { try $0.difference(from: flat.old, to: flat.churn) }
    flatBenchmark("flat-churn-String-1e5-validated") { try $0.difference(from: flat.oldNames, to: flat.churnNames) }
    flatBenchmark("flat-resort-Int-1e5-trusted") { try $0.difference(from: flat.old, to: flat.shuffle, assumeUnique: true) }
    flatBenchmark("flat-unchanged-Int-1e5-validated") { try $0.difference(from: flat.old, to: flat.old) }
    // 100 diffs per iteration: the malloc count is 100 × the steady-state count of one diff.
    flatBenchmark("flat-churn-Int-1e4-x100-warm", diffs: 100) { try $0.difference(from: flat.smallOld, to: flat.smallChurn) }
}

extension BenchmarkMetric {
    /// Allocations the C core's workspace made during an iteration (0 once warm).
    static let workspaceAllocations = BenchmarkMetric.custom("workspaceAllocations")
}
