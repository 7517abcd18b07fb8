// swift-tools-version: 6.1
// Diffable: Apple's diffable data source API on a C list-diffing core.
//
// Internal invariant checks (`SnapshotStorage.checkInvariants()`, O(n) after every
// mutation) compile into debug builds of the library only when the environment has
// DIFFABLE_INTERNAL_CHECKS set; `make test` sets it, users' builds never pay for them.
import PackageDescription

import class Foundation.ProcessInfo

let internalChecks: [SwiftSetting] =
    ProcessInfo.processInfo.environment["DIFFABLE_INTERNAL_CHECKS"] == nil
    ? [] : [.define("DIFFABLE_INTERNAL_CHECKS", .when(configuration: .debug))]

let package = Package(
    name: "Diffable",
    products: [
        .library(name: "Diffable", targets: ["Diffable"]),
        // Headless list views that check every batch as UIKit would, for an app's tests
        // (beside the library, as swift-nio ships NIOEmbedded beside NIOCore).
        .library(name: "DiffableTesting", targets: ["DiffableTesting"]),
        .library(name: "CDiffCore", targets: ["CDiffCore"]),
        // Fixture I/O and seeded workloads shared by the CLI, the tests and Benchmarks/;
        // an app using Diffable never needs it.
        .library(name: "DiffableTools", targets: ["DiffableTools"]),
        // The hand-written JSON text the CLI's outputs and the web package's messages share.
        .library(name: "DiffableJSONText", targets: ["DiffableJSONText"]),
        .executable(name: "diffable", targets: ["diffable"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `make docs`: the DocC catalog in Sources/Diffable/Diffable.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // Tests only: property tests that shrink a failing operation sequence (Tests/DiffableTests/Model/Snapshot/Property*Tests.swift).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The C performance core; needs xxhash.h (Debian: libxxhash-dev), XXH3 is inlined.
        .target(
            name: "CDiffCore",
            path: "CSources/CDiffCore",
            exclude: ["README.md", "dfc.pc.in"],
            publicHeadersPath: "include"
        ),
        .target(
            name: "Diffable",
            dependencies: ["CDiffCore"],
            path: "Sources/Diffable",
            swiftSettings: internalChecks
        ),
        .target(
            name: "DiffableTesting",
            dependencies: ["Diffable"],
            path: "Sources/DiffableTesting",
            swiftSettings: internalChecks
        ),
        // The CLI's input: snapshot documents parsed by simdjson, identifiers interned to
        // numbers (XXH3 from CDiffCore), behind a C API (docs/CLI_IO.md). simdjson is the
        // system's (Debian: libsimdjson-dev, which `make deps` installs); its pkg-config file
        // adds only -lsimdjson and -DSIMDJSON_THREADS_ENABLED=1, a flag SwiftPM drops from
        // pkg-config with a warning, so both are given here (the library is built with it).
        .target(
            name: "CSnapshotJSON",
            dependencies: ["CDiffCore"],
            path: "CSources/CSnapshotJSON",
            publicHeadersPath: "include",
            cxxSettings: [.define("SIMDJSON_THREADS_ENABLED", to: "1")],
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        .target(name: "DiffableJSONText", path: "Sources/DiffableJSONText"),
        .target(
            name: "DiffableTools",
            dependencies: ["Diffable", "DiffableTesting", "CSnapshotJSON", "DiffableJSONText"],
            path: "Sources/DiffableTools"
        ),
        .executableTarget(
            name: "diffable",
            dependencies: [
                "Diffable",
                "DiffableTesting",
                "DiffableTools",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/diffable"
        ),
        // `make toplevel-test`: a user's main.swift (top-level code) awaiting applies.
        .executableTarget(name: "TopLevelClient", dependencies: ["Diffable", "DiffableTesting"], path: "Tests/TopLevelClient"),
        // The README's API tour as written (generated from README.md: Tests/ReadmeTour/generate.py).
        .executableTarget(
            name: "ReadmeTour", dependencies: ["Diffable", "DiffableTesting"], path: "Tests/ReadmeTour", exclude: ["generate.py"]),
        // Test support: another module defining UIKit's IndexPath accessors.
        .target(name: "IndexPathTwin", path: "Tests/IndexPathTwin"),
        .testTarget(
            name: "DiffableTests",
            dependencies: [
                "Diffable", "DiffableTesting", "DiffableTools", "CDiffCore", "IndexPathTwin",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/DiffableTests"
        ),
    ],
    cxxLanguageStandard: .cxx17
)
