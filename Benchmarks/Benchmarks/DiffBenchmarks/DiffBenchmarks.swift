import Benchmark

/// The engine without a view: flat diffs through `ListDiffer`, sectioned snapshot diffs,
/// snapshot builds and deletes, outlines, an app's build + diff of String identifiers. Each benchmark runs in its own process, so inputs
/// are lazily built globals touched in a benchmark's set-up: a process builds only its own.
///
/// `make bench` shows wall time and malloc counts; `make bench-check` holds the malloc
/// counts (and, for the `-peak-RSS` twins, peak memory) to Benchmarks/Thresholds/.
let benchmarks: @Sendable () -> Void = {
    registerFlatDiffBenchmarks()
    registerSnapshotDiffBenchmarks()
    registerSnapshotBuildBenchmarks()
    registerOutlineBenchmarks()
    registerAppBuildDiffBenchmarks()
}
