import Diffable
import DiffableTesting
import Foundation

/// A headless ``ListView`` for benchmarks: it asks the count of every section and the cells of
/// the first screen, before and after each batch's updates, as a real list would, and can check
/// every batch with the strict ``ListViewSimulator`` (its time kept apart in ``checkSeconds``).
/// Touch it only on its data source's executor.
public final class FirstScreenListView<Item: Hashable & Sendable>: ListView {
    public weak var dataSource: (any ListViewDataSource<Item>)?
    /// The data source's current snapshot (its `snapshot()`), which the checking needs.
    public var target: (() -> DiffableDataSourceSnapshot<Int, Item>)?
    /// Seconds spent in the simulator's checking.
    public private(set) var checkSeconds = 0.0
    /// Batches performed.
    public private(set) var batchCount = 0
    /// Batches the simulator rejected, in words.
    public private(set) var problems: [String] = []
    /// Rows of the first screen, whose cells are asked.
    public let screenRows: Int
    private var simulator: ListViewSimulator<Int, Item>?

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

    /// Asks the first screen, runs `updates`, asks again, checks the batch when checking,
    /// and completes at once.
    /// - Complexity: O(s + screen rows), plus the simulator's O(n + s + k log k) when checking.
    public func performBatchUpdates(
        _ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void
    ) {
        batchCount += 1
        askScreen()
        updates()
        askScreen()
        if simulator != nil, let target {
            let after = target()
            let start = DispatchTime.now().uptimeNanoseconds
            do { try simulator?.performBatchUpdates(batch, dataSourceAfter: after) } catch { problems.append("\(error)") }
            checkSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        completion(true)
    }

    private func askScreen() {
        guard let dataSource else { return }
        var shown = 0
        for section in 0..<dataSource.numberOfSections() {
            let count = min(dataSource.numberOfItems(inSection: section), screenRows - shown)
            for item in 0..<count { _ = dataSource.cell(at: IndexPath(item: item, section: section)) }
            shown += count
        }
    }
}

@available(*, unavailable)
extension FirstScreenListView: Sendable {}
