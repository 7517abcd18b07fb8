import Diffable
import DiffableTesting
import Foundation

/// A headless ``ListView`` for benchmarks that asks its data source what a real list asks: the
/// count of every section, before and after each batch's updates, and the cells of its first
/// screen, all of them on `reloadData()` and after a batch only those a real list binds anew
/// (``FirstScreenRows``: rows inserted, reloaded, reconfigured, or brought in from off the
/// screen). It can check every batch with the strict ``ListViewSimulator`` (its time kept
/// apart in ``checkSeconds``). Touch it only on its data source's executor.
///
/// Its stored properties are `@exclusivity(unchecked)`: one thread touches the view (it is not
/// `Sendable`) and no access to one overlaps another, while the runtime's check of each access
/// (a class's properties are checked at run time) cost about 4,000 instructions an apply at
/// 10^2 items, a benchmark's cost that no list pays.
public final class FirstScreenListView<Item: Hashable & Sendable>: ListView {
    @exclusivity(unchecked) public weak var dataSource: (any ListViewDataSource<Item>)?
    /// The data source's current snapshot (its `snapshot()`), which the checking needs.
    @exclusivity(unchecked) public var target: (() -> DiffableDataSourceSnapshot<Int, Item>)?
    /// Seconds spent in the simulator's checking.
    @exclusivity(unchecked) public private(set) var checkSeconds = 0.0
    /// Batches performed.
    @exclusivity(unchecked) public private(set) var batchCount = 0
    /// Cells asked of the data source, in all.
    @exclusivity(unchecked) public private(set) var cellRequests = 0
    /// Batches the simulator rejected, in words.
    @exclusivity(unchecked) public private(set) var problems: [String] = []
    /// Rows of the first screen, whose cells are asked.
    public let screenRows: Int
    @exclusivity(unchecked) private var simulator: ListViewSimulator<Int, Item>?
    /// Rows per section before and after the batch in progress.
    @exclusivity(unchecked) private var oldCounts: [Int] = []
    @exclusivity(unchecked) private var newCounts: [Int] = []

    /// - Parameter checking: whether every batch goes through the strict ``ListViewSimulator``.
    /// - Complexity: O(1).
    public init(checking: Bool, screenRows: Int = 20) {
        simulator = checking ? ListViewSimulator() : nil
        self.screenRows = screenRows
    }

    /// Asks the first screen (and loads the simulator when checking).
    /// - Complexity: O(s + screen rows), plus O(n + s) when checking.
    public func reloadData() {
        askScreen()
        if simulator != nil, let target { simulator?.reloadData(target()) }
    }

    /// Asks the counts, runs `updates`, asks the new counts and the cells of the first screen's
    /// rows that the batch changed or brought in, checks the batch when checking, and completes
    /// at once. For a data source's batches, which fit its counts; an index path of another
    /// batch must have two indices.
    /// - Complexity: O(s + k + screen rows) for a diff's batch (see ``FirstScreenRows``), plus
    ///   the simulator's O(n + s + k log k) when checking.
    public func performBatchUpdates(
        _ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void
    ) {
        batchCount += 1
        readCounts(into: &oldCounts)
        updates()
        readCounts(into: &newCounts)
        if let dataSource {
            var asked = 0
            FirstScreenRows.forEachRowToBind(after: batch, oldCounts: oldCounts, newCounts: newCounts, screenRows: screenRows) {
                _ = dataSource.cell(at: $0)
                asked += 1
            }
            cellRequests += asked
        }
        if simulator != nil, let target {
            let after = target()
            let start = DispatchTime.now().uptimeNanoseconds
            do { try simulator?.performBatchUpdates(batch, dataSourceAfter: after) } catch { problems.append("\(error)") }
            checkSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        completion(true)
    }

    /// Asks the count of every section and the cells of the first screen.
    /// - Complexity: O(s + screen rows).
    private func askScreen() {
        guard let dataSource else { return }
        readCounts(into: &newCounts)
        FirstScreenRows.forEachShownSection(of: newCounts, screenRows: screenRows) { section, rows in
            for item in 0..<rows { _ = dataSource.cell(at: IndexPath(item: item, section: section)) }
            cellRequests += rows
        }
    }

    /// Reads the data source's rows per section into `counts`, as a list asks them around a
    /// batch (the array's storage kept from batch to batch).
    /// - Complexity: O(s).
    private func readCounts(into counts: inout [Int]) {
        counts.removeAll(keepingCapacity: true)
        guard let dataSource else { return }
        for section in 0..<dataSource.numberOfSections() { counts.append(dataSource.numberOfItems(inSection: section)) }
    }
}

@available(*, unavailable)
extension FirstScreenListView: Sendable {}
