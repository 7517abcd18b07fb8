// swift-tools-version: 6.2
// DiffableWeb: a Diffable data source driving a list in the browser over a WebSocket, on
// Hummingbird 2. Its own package, so an app that uses only Diffable never fetches or builds a
// web server.
import PackageDescription

let package = Package(
    name: "DiffableWeb",
    products: [
        // What a Hummingbird app mounts: the remote list view, its hub and routes, the client script.
        .library(name: "DiffableWeb", targets: ["DiffableWeb"]),
        // The demo leaderboard (`diffable-web serve`). The browser tests' and the benchmark's
        // servers are executable targets below, built here but shipped in no product.
        .executable(name: "diffable-web", targets: ["diffable-web"]),
        // The leaderboard on PostgreSQL, several instances (make serve-db).
        .executable(name: "diffable-web-db", targets: ["diffable-web-db"]),
        // A LiveList kept equal to an ordered SQL query (LISTEN/NOTIFY). Its own product, so an
        // app that uses only DiffableWeb never fetches or builds the PostgreSQL driver.
        .library(name: "DiffablePostgres", targets: ["DiffablePostgres"]),
    ],
    dependencies: [
        .package(name: "Diffable", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.0"),
        // Already a dependency of the two above; named for the WebSocket frames DiffableWeb writes itself.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", "1.33.0"..<"1.34.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.9.0"..<"6.0.0"),
    ],
    targets: [
        .target(
            name: "DiffableWeb",
            dependencies: [
                .product(name: "Diffable", package: "Diffable"),
                .product(name: "DiffableJSONText", package: "Diffable"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            // The browser client, compiled into the library (no resource bundle to deploy).
            resources: [.embedInCode("Resources/diffable-list.js")]
        ),
        .target(
            name: "DiffablePostgres",
            dependencies: [
                "DiffableWeb",
                .product(name: "Diffable", package: "Diffable"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Already built for the driver (its SCRAM authentication): signs ScopeToken.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The live query against a throwaway cluster (make web-postgres-test starts and stops it).
        .executableTarget(
            name: "diffable-postgres-test",
            dependencies: [
                "DiffablePostgres", "DiffableWeb",
                .product(name: "Diffable", package: "Diffable"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/PostgresTest",
            exclude: ["run_cluster.sh"]
        ),
        // The leaderboard on PostgreSQL, one list per team (make serve-db, the live-database tests).
        .executableTarget(
            name: "diffable-web-db",
            dependencies: [
                "DiffablePostgres", "DiffableWeb", "WebServing",
                .product(name: "Diffable", package: "Diffable"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ]
        ),
        // Serving on loopback, shared by the demo and the test and bench servers.
        .target(
            name: "WebServing",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ]
        ),
        server("diffable-web", path: nil),
        // The smallest complete app (Examples/Minimal: main.swift and its page), built and run
        // by the browser suite; `swift run diffable-web-example`.
        server("diffable-web-example", path: "Examples/Minimal", serving: false, resources: [.embedInCode("page.html")]),
        // The pages the browser suite drives (Web/Tests/test_browser.py).
        server("diffable-web-test-server", path: "Tests/TestServer"),
        // The page the browser benchmark drives (Web/Benchmarks/bench_browser.py).
        server("diffable-web-bench-server", path: "Benchmarks/BenchServer"),
        // RemoteListView's messages decoded and replayed by a model of the test's own.
        .testTarget(
            name: "DiffableWebTests",
            dependencies: ["DiffableWeb", .product(name: "Diffable", package: "Diffable")],
            path: "Tests/DiffableWebTests"
        ),
    ]
)

/// A Hummingbird program on DiffableWeb: the demo, the example app, the test and bench servers.
/// `serving`: it uses WebServing (loopback serving, options), as all but the example do.
func server(_ name: String, path: String?, serving: Bool = true, resources: [Resource]? = nil) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "DiffableWeb",
            .product(name: "Diffable", package: "Diffable"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        ] + (serving ? ["WebServing"] : []),
        path: path,
        resources: resources
    )
}
