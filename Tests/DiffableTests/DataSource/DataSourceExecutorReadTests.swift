import Foundation
import Testing

@testable import Diffable

/// Queries asked on the view executor, which read the committed state without the data
/// source's lock (docs/DATA_SOURCE.md, "Threads"): they answer what the view was told, at every
/// point a view asks (cells made during `reloadData()` and inside a batch), while applies
/// arrive from other threads, and when an app's `==` applies from inside the query. The race
/// test runs under TSan (`make tsan`).
@Suite struct DataSourceExecutorReadTests {
    /// A cell provider, called on the executor while the view loads or updates, asks where its
    /// item is and which item its path holds: both answer the state the view is being given.
    /// Int8 items take the lookup not specialized for their type, `Int` the specialized one,
    /// `AppItem` the copy an app's own type is looked up in.
    @Test func cellsFindThemselvesOnTheExecutor() async {
        await expectCellsFindThemselves { $0 }
        await expectCellsFindThemselves { Int8($0) }
        await expectCellsFindThemselves { AppItem($0) }
    }

    private func expectCellsFindThemselves<Item: Hashable & Sendable>(_ item: @escaping @Sendable (Int) -> Item) async {
        let mismatches = Locked([String]())
        let source = Locked<DiffableDataSource<Int, Item, TestCell<Int, Item>>?>(nil)
        let harness = DataSourceHarness<Int, Item> { view, executor in
            DiffableDataSource(view: view, executor: executor) { indexPath, shown in
                let dataSource = source.withLock { $0 }!
                let found = dataSource.indexPath(for: shown), held = dataSource.itemIdentifier(for: indexPath)
                if found != indexPath || held != shown {
                    mismatches.withLock {
                        $0.append(
                            "\(shown) at \(indexPath): indexPath(for:) \(String(describing: found)), held \(String(describing: held))")
                    }
                }
                return .row(shown)
            }
        }
        source.withLock { $0 = harness.dataSource }
        var generator = SeededGenerator(seed: 17)
        for step in 0..<40 {
            let snapshot = Self.randomSnapshot(&generator, item)
            if step % 3 == 0 {
                await harness.dataSource.applySnapshotUsingReloadData(snapshot)
            } else {
                await harness.dataSource.apply(snapshot, animatingDifferences: step % 2 == 0)
            }
            #expect(harness.problem() == nil)
        }
        #expect(mismatches.withLock { $0 }.isEmpty, "\(mismatches.withLock { $0 }.prefix(5))")
    }

    /// 4 threads apply while jobs on the executor look up every item of the snapshot they read
    /// (no commit can come between, so each answer must be the snapshot's) and another thread
    /// asks the same off the executor, under the lock. TSan reports any read of the committed
    /// state that races its write.
    @Test func executorReadsWhileOtherThreadsApply() async {
        let harness = DataSourceHarness<Int, Int>()
        await harness.dataSource.apply(DiffableDataSourceSnapshot())
        let mismatches = Locked([String]())
        let group = DispatchGroup()
        let writing = Counter()
        for thread in 0..<4 {
            group.enter()
            writing.increment()
            DispatchQueue.global().async {
                var generator = SeededGenerator(seed: UInt64(thread) &+ 101)
                for _ in 0..<60 {
                    group.enter()
                    harness.dataSource.apply(Self.randomSnapshot(&generator, { $0 }), animatingDifferences: false) { group.leave() }
                }
                writing.decrement()
                group.leave()
            }
        }
        let dataSource = harness.dataSource
        @Sendable func readOnTheExecutor() {
            let snapshot = dataSource.snapshot()
            for item in snapshot.itemIdentifiers {
                let path = dataSource.indexPath(for: item)
                if path.flatMap(snapshot.itemIdentifier(at:)) != item || dataSource.itemIdentifier(for: path!) != item {
                    mismatches.withLock { $0.append("\(item) at \(String(describing: path))") }
                }
            }
            if writing.value > 0 { harness.queue.async(execute: readOnTheExecutor) } else { group.leave() }
        }
        group.enter()
        harness.queue.async(execute: readOnTheExecutor)
        group.enter()
        DispatchQueue.global().async {
            while writing.value > 0 {
                for item in dataSource.snapshot().itemIdentifiers.prefix(8) { _ = dataSource.indexPath(for: item) }
            }
            group.leave()
        }
        await group.finished()
        #expect(mismatches.withLock { $0 }.isEmpty, "\(mismatches.withLock { $0 }.prefix(5))")
        #expect(harness.problem() == nil)
    }

    /// An app's `==`, run by `indexPath(for:)` on the executor, applies a new snapshot there
    /// (it runs at once and replaces the committed state): the lookup answers from the state it
    /// began with, which it holds, and the new one is committed after.
    @Test func anAppsEqualityMayApplyFromAnExecutorQuery() async {
        let harness = DataSourceHarness<Int, AppItem>()
        let before = DiffableDataSourceSnapshot<Int, AppItem>.build([0], [[AppItem(1), AppItem(2), AppItem(3)]])
        let after = DiffableDataSourceSnapshot<Int, AppItem>.build([0], [[AppItem(3)]])
        await harness.dataSource.apply(before)
        let dataSource = harness.dataSource
        AppItem.onEquality.withLock {
            $0 = {
                AppItem.onEquality.withLock { $0 = nil }  // once: the apply compares identifiers too
                dataSource.applySnapshotUsingReloadData(after, completion: nil)
            }
        }
        defer { AppItem.onEquality.withLock { $0 = nil } }
        let found = harness.queue.sync { dataSource.indexPath(for: AppItem(2)) }
        #expect(found == IndexPath(item: 1, section: 0))
        #expect(harness.queue.sync { dataSource.snapshot() } == after)
        #expect(harness.queue.sync { dataSource.indexPath(for: AppItem(3)) } == IndexPath(item: 0, section: 0))
        #expect(harness.problem() == nil)
    }

    /// Up to 4 sections of up to 30 items each, drawn from 0..<100 (Int8 holds them).
    private static func randomSnapshot<Item: Hashable & Sendable>(
        _ generator: inout SeededGenerator, _ item: (Int) -> Item
    ) -> DiffableDataSourceSnapshot<Int, Item> {
        var pool = Array(0..<100).shuffled(using: &generator)
        let sections = Array(0..<4).shuffled(using: &generator).prefix(Int.random(in: 1...4, using: &generator))
        var snapshot = DiffableDataSourceSnapshot<Int, Item>()
        snapshot.appendSections(Array(sections))
        for section in sections {
            let count = Int.random(in: 0...min(30, pool.count), using: &generator)
            snapshot.appendItems(pool.suffix(count).map(item), toSection: section)
            pool.removeLast(count)
        }
        return snapshot
    }
}

/// An app's own identifier type (not keyed by the library), whose `==` runs a hook when set.
private struct AppItem: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    static let onEquality = Locked<(@Sendable () -> Void)?>(nil)

    init(_ value: Int) { self.value = value }

    static func == (lhs: Self, rhs: Self) -> Bool {
        if let hook = onEquality.withLock({ $0 }) { hook() }
        return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }

    var description: String { "AppItem(\(value))" }
}
