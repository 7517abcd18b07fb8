import Benchmark

/// The two kinds of benchmark `make bench-check` holds to committed thresholds
/// (Benchmarks/Thresholds/, written by `make bench-thresholds`).
///
/// Malloc counts are deterministic, so they are checked exactly. Peak resident memory is
/// sampled every ~5 ms by a thread that itself allocates, so it gets benchmarks of its own
/// (measured together, the sampler's allocations would make the malloc count vary) and a
/// relative tolerance. Wall-clock time is shown by `make bench` but never checked: the
/// machine is shared, and a time threshold would fail on other people's builds.
extension Benchmark.Configuration {
    /// Malloc counts (checked with no tolerance by default) and wall time (shown only).
    ///
    /// Every measured iteration follows at least one warm-up, so the count is the steady
    /// state: what one more diff, build or apply costs in a process that has done one before.
    /// - Parameters:
    ///   - iterations: measured iterations at most (counts are deterministic, a few suffice).
    ///   - mallocTolerancePercent: how far above or below the recorded p90 the count may be; 0
    ///     (exact) unless other threads' timing decides how much is allocated (say why at the use).
    ///   - extraMetrics: custom counts the benchmark reports, checked with no tolerance.
    ///   - setup: builds the inputs, outside every measurement.
    /// - Complexity: O(1).
    public static func allocations(
        iterations: Int = 8, mallocTolerancePercent: Double = 0, extraMetrics: [BenchmarkMetric] = [],
        setup: Benchmark.BenchmarkSetupHook? = nil
    ) -> Self {
        var thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
            .mallocCountTotal: mallocTolerancePercent == 0
                ? .init(absolute: [.p90: 0]) : .init(relative: [.p90: mallocTolerancePercent]),
            .wallClock: .uncheckedMetric,
        ]
        for metric in extraMetrics { thresholds[metric] = .init(absolute: [.p90: 0]) }
        return .init(
            metrics: [.wallClock, .mallocCountTotal] + extraMetrics, warmupIterations: 1, maxDuration: .seconds(3),
            maxIterations: iterations, thresholds: thresholds, setup: setup)
    }

    /// Peak resident memory of the benchmark's process (its inputs included), within
    /// `tolerancePercent` of the recorded p90.
    /// - Complexity: O(1).
    public static func peakMemory(
        iterations: Int = 4, tolerancePercent: Double = 10, setup: Benchmark.BenchmarkSetupHook? = nil
    ) -> Self {
        .init(
            metrics: [.wallClock, .peakMemoryResident], warmupIterations: 1, maxDuration: .seconds(5),
            maxIterations: iterations,
            thresholds: [
                .peakMemoryResident: .init(relative: [.p90: tolerancePercent]),
                .wallClock: .uncheckedMetric,
            ], setup: setup)
    }
}

extension BenchmarkThresholds {
    /// No percentile to compare: a metric with these tolerances never fails a check.
    static var uncheckedMetric: Self { .init(relative: [:], absolute: [:]) }
}
