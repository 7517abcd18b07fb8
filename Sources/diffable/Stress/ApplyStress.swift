import Diffable
import DiffableTesting
import DiffableTools
import Foundation

/// `DiffableDataSource.apply` at full size onto the strict ``SimulatedListView``: the view asks
/// every count and cell, validates the batch with UIKit's rules and replays it; the scenario
/// then checks no violation was recorded, one batch was performed, and a sample of the rows
/// shown against the expected layout.
enum ApplyStress {
    typealias Snapshot = DiffableDataSourceSnapshot<Int, Int>
    typealias DataSource = DiffableDataSource<Int, Int, Int32>

    /// A data source on its own serial queue, showing into a recording strict view; `load`
    /// fills it with `reloadData()`; `change` is the timed apply. Returns the rows shown, after
    /// checking the view's record into `scenario`.
    /// - Complexity: O(n + s) for the view's questions and replay, plus the apply's diff.
    private static func drive(
        _ scenario: inout StressScenario, load: (DataSource, @escaping @Sendable () -> Void) -> Void,
        change: (DataSource, @escaping @Sendable () -> Void) -> Void
    ) -> [[Int32]] {
        let queue = DispatchQueue(label: "stress view")
        let view = SimulatedListView<Int32>(flavor: .table, mode: .strict, policy: .record)
        let dataSource = DataSource(view: view, executor: .queue(queue)) { _, item in Int32(truncatingIfNeeded: item) }
        let done = DispatchSemaphore(value: 0)
        load(dataSource) { done.signal() }
        done.wait()
        scenario.time {
            change(dataSource) { done.signal() }
            done.wait()
        }
        return queue.sync {
            scenario.expect("violations", view.violations.map(\.description), [])
            scenario.expect("batches performed", view.batchCount, 1)
            scenario.expect("reloads", view.reloadCount, 1)
            return view.rows
        }
    }

    /// Loads `base`, then applies the snapshot of `newLayout` and compares the rows shown.
    /// - Complexity: O(n + s) plus the diff.
    static func applyChurn(into scenario: inout StressScenario, base: Snapshot, newLayout: [[Int32]]) {
        let new = LinearChurn.snapshot(newLayout)
        let rows = drive(
            &scenario, load: { $0.applySnapshotUsingReloadData(base, completion: $1) }, change: { $0.apply(new, completion: $1) })
        compare(rows, &scenario, expectedCounts: newLayout.map(\.count)) { Int(newLayout[$0][$1]) }
    }

    /// Loads `old` into section 0 as an outline, then applies `new` to it: the rows are the
    /// visible items, `visible(index)` being the item at visible row `index` of `new`.
    /// - Complexity: O(n) plus the visible-rows diff.
    static func applyOutline(
        into scenario: inout StressScenario, old: DiffableDataSourceSectionSnapshot<Int>, new: DiffableDataSourceSectionSnapshot<Int>,
        visibleCount: Int, visible: (Int) -> Int
    ) {
        let rows = drive(&scenario, load: { $0.apply(old, to: 0, completion: $1) }, change: { $0.apply(new, to: 0, completion: $1) })
        compare(rows, &scenario, expectedCounts: [visibleCount]) { visible($1) }
    }

    /// The rows' section sizes, and a sample of 1,000 rows, against the expected layout.
    /// - Complexity: O(s + samples · log s).
    private static func compare(_ rows: [[Int32]], _ scenario: inout StressScenario, expectedCounts: [Int], item: (Int, Int) -> Int) {
        let counts = rows.map(\.count)
        guard counts == expectedCounts else {
            let first = zip(counts, expectedCounts).enumerated().first { $0.element.0 != $0.element.1 }
            scenario.check(
                false,
                "the view shows \(counts.count) sections (\(counts.reduce(0, +)) rows), expected \(expectedCounts.count) "
                    + "(\(expectedCounts.reduce(0, +)) rows); first differing section: \(first.map { "\($0.offset)" } ?? "none")")
            return
        }
        var generator = SplitMix64(seed: 9)
        let starts = DifferenceCheck.starts(counts)
        for _ in 0..<DifferenceCheck.samples {
            guard let (section, index) = DifferenceCheck.randomPosition(starts, &generator) else { break }
            let expected = Int32(truncatingIfNeeded: item(section, index))
            scenario.check(
                rows[section][index] == expected, "row [\(section), \(index)] shows \(rows[section][index]), expected \(expected)")
        }
        scenario.detail = "\(counts.reduce(0, +)) rows in \(counts.count) sections, 1 batch, no violation, 1,000 rows"
    }
}
