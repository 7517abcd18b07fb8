import Benchmark
import Diffable

/// Identifiers 0..<n and the churn scenario of PERFORMANCE.md (delete 5%, move 5%, insert 5%),
/// made deterministically so every run diffs the same lists.
private func churn(_ n: Int) -> (old: [Int], new: [Int]) {
    var state: UInt64 = 42
    func next() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(truncatingIfNeeded: state >> 33)
    }
    let share = n / 20
    var new = (0..<n).filter { _ in next() % 20 != 0 }
    for _ in 0..<share {
        let element = new.remove(at: next() % new.count)
        new.insert(element, at: next() % (new.count + 1))
    }
    for fresh in n..<(n + share) { new.insert(fresh, at: next() % (new.count + 1)) }
    return (Array(0..<n), new)
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
}
