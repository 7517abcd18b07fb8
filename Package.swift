// swift-tools-version: 6.1
// Diffable: Apple's diffable data source API on a C list-diffing core.
//
// Internal invariant checks (`_checkInvariants()`) compile only when
// DIFFABLE_INTERNAL_CHECKS is defined, e.g.
//   swift build -Xswiftc -DDIFFABLE_INTERNAL_CHECKS
// The test target always enables them (see swiftSettings below).
import PackageDescription

let package = Package(
    name: "Diffable",
    products: [
        .library(name: "Diffable", targets: ["Diffable"]),
        .library(name: "CDiffCore", targets: ["CDiffCore"]),
        .executable(name: "diffable", targets: ["diffable"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
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
            path: "Sources/Diffable"
        ),
        .executableTarget(
            name: "diffable",
            dependencies: [
                "Diffable",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/diffable"
        ),
        .testTarget(
            name: "DiffableTests",
            dependencies: ["Diffable", "CDiffCore"],
            path: "Tests/DiffableTests",
            swiftSettings: [.define("DIFFABLE_INTERNAL_CHECKS")]
        ),
    ]
)
