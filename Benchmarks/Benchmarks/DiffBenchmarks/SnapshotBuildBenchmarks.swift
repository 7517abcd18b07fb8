import Benchmark
import BenchmarkSupport
import Diffable
import DiffableTools

/// Identifiers 0..<n in equal sections of 100 (10^4 … 10^6 items in 10^2 … 10^4 sections),
/// as a list per section, ready to append.
private struct BuildInputs: Sendable {
    static let sizes = [10_000, 100_000, 1_000_000]
    let sectionsBySize: [Int: [[Int]]]
    /// 5% of 10^6 identifiers (50,000), in random order, for `deleteItems`.
    let victims: [Int]

    init() {
        sectionsBySize = Dictionary(
            uniqueKeysWithValues: Self.sizes.map { size in
                (size, (0..<(size / 100)).map { Array(($0 * 100)..<($0 * 100 + 100)) })
            })
        var generator = SplitMix64(seed: 5)
        victims = Array((0..<1_000_000).shuffled(using: &generator).prefix(50_000))
    }
}

private let build = BuildInputs()

/// The snapshot a list view starts from: `appendSections` once, then `appendItems` per section.
/// - Complexity: O(n + s).
private func buildSnapshot(_ sections: [[Int]]) -> DiffableDataSourceSnapshot<Int, Int> {
    var snapshot = DiffableDataSourceSnapshot<Int, Int>()
    snapshot.appendSections(Array(sections.indices))
    for (section, items) in sections.enumerated() { snapshot.appendItems(items, toSection: section) }
    return snapshot
}

/// Building snapshots of 10^4, 10^5 and 10^6 items, and deleting 5% of a 10^6-item snapshot's
/// identifiers in one `deleteItems` call.
func registerSnapshotBuildBenchmarks() {
    for size in BuildInputs.sizes {
        let name = "snapshot-build-1e\(String(size).count - 1)-in-1e\(String(size / 100).count - 1)-sections"
        checkedBenchmark(name, peakMemory: size == 1_000_000, iterations: 5, building: build) { _ in
            blackHole(buildSnapshot(build.sectionsBySize[size]!))
        }
    }
    checkedBenchmark("snapshot-deleteItems-5pct-of-1e6", peakMemory: true, iterations: 5, building: build) { benchmark in
        // A snapshot of its own, so the measured part never copies shared storage.
        var snapshot = buildSnapshot(build.sectionsBySize[1_000_000]!)
        benchmark.startMeasurement()
        snapshot.deleteItems(build.victims)
        benchmark.stopMeasurement()
        blackHole(snapshot)
    }
}
