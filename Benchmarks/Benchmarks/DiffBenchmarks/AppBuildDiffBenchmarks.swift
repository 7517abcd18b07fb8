import Benchmark
import BenchmarkSupport
import Diffable
import DiffableTools

/// What an app pays per change: its model is identifiers in sections before and after a
/// churn; each change builds the new snapshot from the model (keys made inside the measured
/// part) and diffs it against the previous one, built in the set-up as a data source holds it.
private struct AppModel<ID: Hashable & Sendable>: Sendable {
    let oldSections: [[ID]]
    let newSections: [[ID]]
    let before: DiffableDataSourceSnapshot<Int, ID>

    init(itemCount: Int, sectionCount: Int, seed: UInt64, id: (Int) -> ID) {
        let (old, new) = SectionedWorkload.churn(itemCount: itemCount, sectionCount: sectionCount, seed: seed)
        oldSections = old.map { $0.map(id) }
        newSections = new.map { $0.map(id) }
        before = Self.snapshot(oldSections)
    }

    /// The snapshot of `sections` as an app builds it: `appendSections` once, `appendItems`
    /// per section (each identifier keyed once, inside the call).
    /// - Complexity: O(n + s).
    static func snapshot(_ sections: [[ID]]) -> DiffableDataSourceSnapshot<Int, ID> {
        var snapshot = DiffableDataSourceSnapshot<Int, ID>()
        snapshot.appendSections(Array(sections.indices))
        for (section, items) in sections.enumerated() { snapshot.appendItems(items, toSection: section) }
        return snapshot
    }
}

/// An identifier type of the app's own, which the library was not compiled for: every call
/// on it runs the library's unspecialized code, where a copy of a storage's identifier
/// column (a retain and a release per buffer) is easy to add by accident.
private struct AppItemID: Hashable, Sendable {
    let value: Int
}

/// 10^4 String identifiers in 100 sections.
private let app = AppModel(itemCount: 10_000, sectionCount: 100, seed: 4, id: WorkloadKeyKind.name)
/// 10^3 `AppItemID`s in 10 sections.
private let structIDs = AppModel(itemCount: 1_000, sectionCount: 10, seed: 5, id: AppItemID.init)

/// 10 changes per iteration (build + diff of 10^4 String ids): malloc counts of the whole path.
/// And 10 changes with an app's own identifier type, each built, diffed and read back the
/// way a list reads it (every section's identifiers, every row's index): malloc and
/// ARC counts, both exact. A retain per row read shows as 10^4 more retains per iteration.
func registerAppBuildDiffBenchmarks() {
    checkedBenchmark("app-build-and-diff-String-1e4-in-100-sections-x10", building: app) { _ in
        for _ in 0..<10 { blackHole(AppModel.snapshot(app.newSections).difference(from: app.before)) }
    }
    checkedBenchmark(
        "app-build-diff-read-struct-ids-1e3-in-10-sections-x10", extraMetrics: [.retainCount, .releaseCount],
        building: structIDs
    ) { _ in
        for _ in 0..<10 {
            let snapshot = AppModel.snapshot(structIDs.newSections)
            blackHole(snapshot.difference(from: structIDs.before))
            for (section, items) in structIDs.newSections.enumerated() {
                blackHole(snapshot.itemIdentifiers(inSection: section))
                for item in items { blackHole(snapshot.indexOfItem(item)) }
            }
        }
    }
}
