import Benchmark
import Diffable
import DiffableTools

/// The section snapshot at 1,118,480 items (5 levels, fan-out 16, `OutlineWorkload`), the
/// outline of `diffable bench --suite outline`: building it, expanding everything, reading the
/// visible rows, and diffing the visible rows after 1,000 parents of leaves expand. Set-up
/// (building, copying, collapsing) is outside the measured part.
func registerOutlineBenchmarks() {
    let workload = OutlineWorkload()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(5), maxIterations: 20)

    Benchmark("Outline build 1.1M (append in outline order)", configuration: configuration) { _ in
        blackHole(workload.build())
    }

    let collapsed = workload.build()
    let items = collapsed.items
    var everything = collapsed
    everything.expand(items)
    let expanded = everything

    Benchmark("Outline expand all 1.1M", configuration: configuration) { benchmark in
        var outline = collapsed
        outline.expand([items[0]])  // storage of its own before the measured part
        outline.collapse([items[0]])
        benchmark.startMeasurement()
        outline.expand(items)
        benchmark.stopMeasurement()
        blackHole(outline)
    }

    Benchmark("Outline visibleItems 1.1M, all expanded", configuration: configuration) { _ in
        blackHole(expanded.visibleItems)
    }

    // Everything expanded but 1,000 seeded parents of leaves; the new outline expands them.
    var generator = SplitMix64(seed: 9)
    let lastButOneLevel = items.filter { collapsed.level(of: $0) == workload.depth - 2 }
    var old = expanded
    old.collapse(Array(lastButOneLevel.shuffled(using: &generator).prefix(1_000)))
    let collapsedParents = old
    Benchmark("Outline visible-rows diff 1.1M after expanding 1,000 parents", configuration: configuration) { _ in
        blackHole(expanded.difference(from: collapsedParents))
    }
}
