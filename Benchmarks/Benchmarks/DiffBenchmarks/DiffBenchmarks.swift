import Benchmark
import Diffable
import DiffableTools

/// Identifiers 0..<n and the churn scenario of PERFORMANCE.md (delete 5%, move 5%, insert 5%),
/// from the package's one seeded workload generator, so every run diffs the same lists.
private func churn(_ n: Int) -> (old: [Int], new: [Int]) {
    var generator = SplitMix64(seed: 42)
    return (Array(0..<n), WorkloadScenario.churn.newOrder(count: n, using: &generator))
}

let benchmarks: @Sendable () -> Void = {
    // Malloc counts are deterministic (unlike wall time on a shared machine): they are
    // what to compare between runs (`swift package benchmark baseline compare`).
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3), maxIterations: 50)

    let (old100k, new100k) = churn(100_000)
    let differ = ListDiffer()
    Benchmark("flat churn Int 100k (trusted)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try differ.difference(from: old100k, to: new100k, assumeUnique: true))
        }
    }
    Benchmark("flat churn Int 100k (validated)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try differ.difference(from: old100k, to: new100k))
        }
    }
    let oldNames = old100k.map { "item-\($0)" }, newNames = new100k.map { "item-\($0)" }
    Benchmark("flat churn String 100k (validated)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try differ.difference(from: oldNames, to: newNames))
        }
    }
    registerOutlineBenchmarks()
}
