import Benchmark

/// Registers one workload for `make bench-check`: `name` measures malloc counts and, with
/// `peakMemory`, `name-peak-RSS` measures the process's peak resident memory over the same
/// closure (see `Benchmark.Configuration.allocations`, which says why they are apart).
///
/// Names hold no spaces or slashes: package-benchmark 1.38 writes a threshold file under
/// the name with those replaced but looks it up under the raw name.
/// - Parameters:
///   - iterations: measured iterations of the malloc benchmark at most.
///   - mallocTolerancePercent, extraMetrics: see `Benchmark.Configuration.allocations`.
///   - inputs: what the closure reads, typically lazily initialized globals: evaluated (so
///     built) in the set-up, before any measurement.
///   - closure: one measured iteration.
/// - Complexity: O(1).
public func checkedBenchmark(
    _ name: String, peakMemory: Bool = false, iterations: Int = 8, mallocTolerancePercent: Double = 0,
    extraMetrics: [BenchmarkMetric] = [], building inputs: @autoclosure @escaping () -> Any = (),
    closure: @escaping Benchmark.BenchmarkClosure
) {
    let setup: Benchmark.BenchmarkSetupHook = { _ = inputs() }
    precondition(!name.contains(" ") && !name.contains("/"), "benchmark names hold no spaces or slashes: \(name)")
    Benchmark(
        name,
        configuration: .allocations(
            iterations: iterations, mallocTolerancePercent: mallocTolerancePercent, extraMetrics: extraMetrics, setup: setup),
        closure: closure)
    if peakMemory {
        Benchmark("\(name)-peak-RSS", configuration: .peakMemory(setup: setup), closure: closure)
    }
}
