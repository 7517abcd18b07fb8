import Benchmark
import BenchmarkSupport
import Diffable
import DiffableTools

/// What an app pays per change: its model is 10^4 String identifiers in 100 sections; each
/// change builds the new snapshot from the model (keys made inside the measured part) and
/// diffs it against the previous one, built in the set-up as a data source holds it.
private struct AppModel: Sendable {
    let oldSections: [[String]]
    let newSections: [[String]]
    let before: DiffableDataSourceSnapshot<Int, String>

    init() {
        let (old, new) = SectionedWorkload.churn(itemCount: 10_000, sectionCount: 100, seed: 4)
        oldSections = old.map { $0.map(WorkloadKeyKind.name) }
        newSections = new.map { $0.map(WorkloadKeyKind.name) }
        before = appSnapshot(oldSections)
    }
}

private let app = AppModel()

/// The snapshot of `sections` as an app builds it: `appendSections` once, `appendItems` per
/// section (each identifier keyed once, inside the call).
/// - Complexity: O(n + s).
private func appSnapshot(_ sections: [[String]]) -> DiffableDataSourceSnapshot<Int, String> {
    var snapshot = DiffableDataSourceSnapshot<Int, String>()
    snapshot.appendSections(Array(sections.indices))
    for (section, items) in sections.enumerated() { snapshot.appendItems(items, toSection: section) }
    return snapshot
}

/// An identifier type of the app's own, which the library was not compiled for: every call
/// on it runs the library's unspecialized code, where a copy of a storage's identifier
/// column (a retain and a release per buffer) is easy to add by accident.
private struct AppItemID: Hashable, Sendable {
    let value: Int
}

/// 10^3 `AppItemID`s in 10 sections before and after a churn, and the first snapshot built.
private struct StructIDModel: Sendable {
    let oldSections: [[AppItemID]]
    let newSections: [[AppItemID]]
    let before: DiffableDataSourceSnapshot<Int, AppItemID>

    init() {
        let (old, new) = SectionedWorkload.churn(itemCount: 1_000, sectionCount: 10, seed: 5)
        oldSections = old.map { $0.map(AppItemID.init) }
        newSections = new.map { $0.map(AppItemID.init) }
        before = Self.snapshot(oldSections)
    }

    /// As an app builds it: `appendSections` once, `appendItems` per section.
    /// - Complexity: O(n + s).
    static func snapshot(_ sections: [[AppItemID]]) -> DiffableDataSourceSnapshot<Int, AppItemID> {
        var snapshot = DiffableDataSourceSnapshot<Int, AppItemID>()
        snapshot.appendSections(Array(sections.indices))
        for (section, items) in sections.enumerated() { snapshot.appendItems(items, toSection: section) }
        return snapshot
    }
}

private let structIDs = StructIDModel()

/// 10 changes per iteration (build + diff of 10^4 String ids): malloc counts of the whole path.
/// And 10 changes with an app's own identifier type, each built, diffed and read back the
/// way a list reads it (every section's identifiers, every row's index): malloc and
/// ARC counts, both exact. A retain per row read shows as 10^4 more retains per iteration.
func registerAppBuildDiffBenchmarks() {
    checkedBenchmark("app-build-and-diff-String-1e4-in-100-sections-x10", building: app) { _ in
        for _ in 0..<10 { blackHole(appSnapshot(app.newSections).difference(from: app.before)) }
    }
    checkedBenchmark(
        "app-build-diff-read-struct-ids-1e3-in-10-sections-x10", extraMetrics: [.retainCount, .releaseCount],
        building: structIDs
    ) { _ in
        for _ in 0..<10 {
            let snapshot = StructIDModel.snapshot(structIDs.newSections)
            blackHole(snapshot.difference(from: structIDs.before))
            for (section, items) in structIDs.newSections.enumerated() {
                blackHole(snapshot.itemIdentifiers(inSection: section))
                for item in items { blackHole(snapshot.indexOfItem(item)) }
            }
        }
    }
}
