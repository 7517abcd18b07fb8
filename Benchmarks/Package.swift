// swift-tools-version: 6.1
// Regression benchmarks (package-benchmark). A separate package so that
// `swift test` at the root never builds the benchmark toolchain.
//   cd Benchmarks && swift package --disable-sandbox benchmark    (make bench)
// Allocation thresholds (Benchmarks/Thresholds/): make bench-check, make bench-thresholds.
import PackageDescription

let package = Package(
    name: "DiffableBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Diffable", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // What the benchmarks share: the checked configurations (malloc counts, peak memory).
        .target(
            name: "BenchmarkSupport", dependencies: [.product(name: "Benchmark", package: "package-benchmark")],
            path: "Benchmarks/BenchmarkSupport")
    ] + ["DiffBenchmarks", "ApplyBenchmarks"].map(benchmarkTarget)
)

/// One benchmark executable: Benchmarks/<name>, against the package's library and tools.
func benchmarkTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "Diffable", package: "Diffable"),
            .product(name: "DiffableTesting", package: "Diffable"),
            .product(name: "DiffableTools", package: "Diffable"),
            .product(name: "Benchmark", package: "package-benchmark"),
            "BenchmarkSupport",
        ],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    )
}
