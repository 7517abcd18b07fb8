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
        // The demo leaderboard and the pages the browser tests and the benchmark drive.
        .executable(name: "diffable-web", targets: ["diffable-web"]),
    ],
    dependencies: [
        .package(name: "Diffable", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.0"),
    ],
    targets: [
        .target(
            name: "DiffableWeb",
            dependencies: [
                .product(name: "Diffable", package: "Diffable"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            // The browser client, compiled into the library (no resource bundle to deploy).
            resources: [.embedInCode("Resources/diffable-list.js")]
        ),
        .executableTarget(
            name: "diffable-web",
            dependencies: [
                "DiffableWeb",
                .product(name: "Diffable", package: "Diffable"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ]
        ),
        // RemoteListView's messages decoded and replayed by a model of the test's own.
        .testTarget(
            name: "DiffableWebTests",
            dependencies: ["DiffableWeb", .product(name: "Diffable", package: "Diffable")],
            path: "Tests/DiffableWebTests"
        ),
    ]
)
