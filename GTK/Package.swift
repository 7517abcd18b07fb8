// swift-tools-version: 6.2
// DiffableGTK: a Diffable data source driving a GTK 4 list (GtkListView over a custom
// GListModel). Its own package, so an app that uses only Diffable never needs GTK's headers.
import PackageDescription

/// A program on DiffableGTK (the demo, the test runner, the bench): GTK, the shim and Diffable,
/// plus DiffableTools (seeded random sequences) when `usingTools`.
func gtkProgram(_ name: String, usingTools: Bool = false, path: String? = nil) -> Target {
    var dependencies: [Target.Dependency] = [
        "DiffableGTK", "CGtk4", "CDiffableGTK", .product(name: "Diffable", package: "Diffable"),
    ]
    if usingTools { dependencies.append(.product(name: "DiffableTools", package: "Diffable")) }
    return .executableTarget(
        name: name, dependencies: dependencies, path: path, swiftSettings: [.swiftLanguageMode(.v5)])
}

let package = Package(
    name: "DiffableGTK",
    products: [
        // The list view an app creates: GTKListView, its model and the GTK main-context executor.
        .library(name: "DiffableGTK", targets: ["DiffableGTK"]),
        // The process list demo (`make gtk-demo`).
        .executable(name: "diffable-gtk-demo", targets: ["diffable-gtk-demo"]),
    ],
    dependencies: [
        .package(name: "Diffable", path: "..")
    ],
    targets: [
        // GTK 4's headers and libraries, found with pkg-config (Debian: libgtk-4-dev).
        .systemLibrary(
            name: "CGtk4",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // The GObject parts Swift cannot declare: the row object, the list model, the factory's
        // signal trampolines.
        .target(name: "CDiffableGTK", dependencies: ["CGtk4"]),
        .target(
            name: "DiffableGTK",
            dependencies: ["CGtk4", "CDiffableGTK", .product(name: "Diffable", package: "Diffable")]
        ),
        gtkProgram("diffable-gtk-demo"),
        // Not a test target: GTK must own the main thread, which a test harness does not give.
        // `make gtk-test` runs it headless (broadway) and reads its "GTK: N passed, M failed".
        gtkProgram("diffable-gtk-tests", usingTools: true, path: "Tests/GTKTestRunner"),
        // `make gtk-bench`: applies against replacing the whole list (not a test).
        gtkProgram("diffable-gtk-bench", usingTools: true),
    ]
)
