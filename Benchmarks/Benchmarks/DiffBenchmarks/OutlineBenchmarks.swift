import Benchmark
import BenchmarkSupport
import Diffable
import DiffableTools

/// The outline of `diffable bench --suite outline`: 1,118,480 items, 5 levels, fan-out 16.
private let workload = OutlineWorkload()

/// The outlines the benchmarks start from. A global is built on first use, in a benchmark's
/// set-up: runs that filter the outline benchmarks out never build them.
private let prepared = PreparedOutlines()

private struct PreparedOutlines: Sendable {
    let collapsed: DiffableDataSourceSectionSnapshot<Int>
    let items: [Int]
    let expanded: DiffableDataSourceSectionSnapshot<Int>
    /// Everything expanded but 1,000 seeded parents of leaves.
    let collapsedParents: DiffableDataSourceSectionSnapshot<Int>

    init() {
        collapsed = workload.build()
        items = collapsed.items
        var outline = collapsed
        outline.expand(items)
        expanded = outline
        var generator = SplitMix64(seed: 9)
        let lastButOneLevel = items.filter { outline.level(of: $0) == workload.depth - 2 }
        outline.collapse(Array(lastButOneLevel.shuffled(using: &generator).prefix(1_000)))
        collapsedParents = outline
    }
}

/// Building the outline, expanding everything, reading the visible rows, and diffing the
/// visible rows after 1,000 parents of leaves expand. Set-up (building, copying) is outside
/// the measured part. Run them with `swift package --disable-sandbox benchmark --filter "outline-.*"`.
func registerOutlineBenchmarks() {
    // ~336,500 mallocs a build, a few fewer in some runs: held to 0.1%.
    checkedBenchmark("outline-build-1.1M", peakMemory: true, iterations: 5, mallocTolerancePercent: 0.1) { _ in
        blackHole(workload.build())
    }
    checkedBenchmark("outline-expand-all-1.1M", iterations: 5, building: prepared) { benchmark in
        var outline = prepared.collapsed
        outline.expand([prepared.items[0]])  // storage of its own before the measured part
        outline.collapse([prepared.items[0]])
        benchmark.startMeasurement()
        outline.expand(prepared.items)
        benchmark.stopMeasurement()
        blackHole(outline)
    }
    checkedBenchmark("outline-visibleItems-1.1M-all-expanded", iterations: 5, building: prepared) { _ in
        blackHole(prepared.expanded.visibleItems)
    }
    checkedBenchmark("outline-visible-rows-diff-1.1M-after-expanding-1000-parents", peakMemory: true, iterations: 5, building: prepared) {
        _ in blackHole(prepared.expanded.difference(from: prepared.collapsedParents))
    }
}
