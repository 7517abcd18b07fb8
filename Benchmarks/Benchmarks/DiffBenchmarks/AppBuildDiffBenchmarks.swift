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

/// 10 changes per iteration (build + diff of 10^4 String ids): malloc counts of the whole path.
func registerAppBuildDiffBenchmarks() {
    checkedBenchmark("app-build-and-diff-String-1e4-in-100-sections-x10", building: app) { _ in
        for _ in 0..<10 { blackHole(appSnapshot(app.newSections).difference(from: app.before)) }
    }
}
