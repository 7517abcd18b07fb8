import Foundation
import Testing

@testable import Diffable

/// Threading (docs/DATA_SOURCE.md): applies from many threads, serialized in call order, the view
/// on one executor, completions once, re-entrant completions, coalescing. Run under TSan by
/// `make tsan`.
// A time limit: a queue that never drains would otherwise hang the whole run without naming a test.
@Suite(.timeLimit(.minutes(5))) struct DataSourceConcurrencyTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>

    /// 8 threads × 150 seeded random applies while 2 threads read: after every apply (in its
    /// completion, on the executor) the view shows the data source's snapshot and broke no
    /// UIKit rule; every completion runs exactly once, each thread's in its call order.
    @Test(arguments: [QueuedApplyPolicy.performEach, .coalesce])
    func randomAppliesFromSeveralThreads(policy: QueuedApplyPolicy) async {
        let harness = DataSourceHarness<String, String>()
        harness.dataSource.queuedApplyPolicy = policy
        await harness.dataSource.apply(Snapshot())
        let threads = 8, perThread = 150
        let log = CompletionLog()
        let group = DispatchGroup()
        let writing = Counter()
        for thread in 0..<threads {
            group.enter()
            writing.increment()
            DispatchQueue.global().async {
                var generator = SeededGenerator(seed: UInt64(thread) &* 7919 &+ (policy == .coalesce ? 1 : 0))
                for index in 0..<perThread {
                    let snapshot = RandomSnapshots.pair(&generator).new
                    group.enter()
                    harness.dataSource.apply(snapshot, animatingDifferences: Bool.random(using: &generator)) {
                        log.record(thread: thread, index: index, problem: harness.problemOnView())
                        group.leave()
                    }
                }
                writing.decrement()
                group.leave()
            }
        }
        for _ in 0..<2 {
            group.enter()
            DispatchQueue.global().async {
                while writing.value > 0 {
                    let snapshot = harness.dataSource.snapshot()
                    if let first = snapshot.itemIdentifiers.first {
                        let path = snapshot.indexPathOfItem(first)
                        if path.flatMap(snapshot.itemIdentifier(at:)) != first {
                            log.note("reader: \(first) at \(String(describing: path))")
                        }
                        _ = harness.dataSource.indexPath(for: first)
                    }
                    _ = harness.dataSource.itemIdentifier(for: IndexPath(item: 0, section: 0))
                    _ = harness.dataSource.sectionIdentifier(for: 0)
                }
                group.leave()
            }
        }
        await group.finished()
        log.expectEachRanOnce(count: threads * perThread)
        #expect(harness.problem() == nil)
        let batches = harness.onView(\.performedBatches).count
        if policy == .coalesce { #expect(batches <= 2 * threads * perThread) }
    }

    /// A completion that applies again (three deep) neither deadlocks nor breaks the order,
    /// on a queue and on the main actor.
    @Test func completionsMayApplyAgain() async {
        let snapshots = (1...4).map { Snapshot.build(["S"], [(0..<$0).map { "i\($0)" }]) }
        let harness = DataSourceHarness<String, String>()
        await chain(harness.dataSource, snapshots)
        #expect(harness.dataSource.snapshot() == snapshots[3])
        #expect(harness.problem() == nil)

        let view = await MainActor.run {
            UncheckedBox(DataSourceHarness<String, String>.makeView(executor: .main))
        }
        let onMain = DiffableDataSource<String, String, TestCell<String, String>>(view: view.value) { _, item in .row(item) }
        DataSourceHarness.provideHeaders(onMain)
        await chain(onMain, snapshots)
        #expect(onMain.snapshot() == snapshots[3])
        #expect(await MainActor.run { view.value.violations }.isEmpty)
    }

    private func chain<Cell>(_ dataSource: DiffableDataSource<String, String, Cell>, _ snapshots: [Snapshot]) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            dataSource.apply(snapshots[0]) {
                dataSource.apply(snapshots[1]) {
                    dataSource.apply(snapshots[2]) {
                        dataSource.apply(snapshots[3]) { continuation.resume() }
                    }
                }
            }
        }
    }

    /// Ten applies queued behind a busy view: performed one by one (Apple's behaviour), or
    /// coalesced into one batch to the newest snapshot that keeps a skipped reconfigure;
    /// every completion runs once, in call order.
    @Test(arguments: [QueuedApplyPolicy.performEach, .coalesce])
    func appliesQueuedBehindABusyView(policy: QueuedApplyPolicy) async {
        let harness = DataSourceHarness<String, String>()
        harness.dataSource.queuedApplyPolicy = policy
        func snapshot(_ version: Int) -> Snapshot { .build(["S"], [["x", "y", "v\(version)"]]) }
        await harness.dataSource.apply(snapshot(0))
        let gate = DispatchSemaphore(value: 0)
        harness.queue.async { gate.wait() }
        let log = CompletionLog()
        let group = DispatchGroup()
        for version in 1...10 {
            var next = snapshot(version)
            if version == 5 { next.reconfigureItems(["x"]) }
            group.enter()
            harness.dataSource.apply(next) {
                log.record(thread: 0, index: version, problem: harness.problemOnView())
                group.leave()
            }
        }
        gate.signal()
        await group.finished()
        #expect(log.order == Array(1...10))
        #expect(log.problems.isEmpty, "\(log.problems)")
        let batches = harness.onView(\.performedBatches)
        let replace = BatchUpdate(deleteItems: [IndexPath(item: 2, section: 0)], insertItems: [IndexPath(item: 2, section: 0)])
        let reconfigure = BatchUpdate(reconfigureItems: [IndexPath(item: 0, section: 0)])
        switch policy {
        case .performEach:
            // The fifth apply's reconfigure rides in its own refresh batch.
            #expect(batches == Array(repeating: replace, count: 5) + [reconfigure] + Array(repeating: replace, count: 5))
        case .coalesce:
            // The first was being diffed when the others queued; they become one apply.
            #expect(batches == [replace, replace, reconfigure])
        }
        #expect(harness.dataSource.snapshot() == snapshot(10))
    }

    /// A reorder committed between an apply's diff (off the executor) and its batch: the
    /// data source diffs again against what the view shows, so the batch stays valid.
    @Test func aReorderBetweenDiffAndBatchIsRespected() async {
        let harness = DataSourceHarness<String, String>()
        harness.dataSource.reorderingHandlers.canReorderItem = { _ in true }
        await harness.dataSource.apply(.build(["A"], [["a", "b", "c", "d"]]))
        let gate = DispatchSemaphore(value: 0)
        harness.queue.async { gate.wait() }
        harness.queue.async {
            _ = try? harness.view.simulateReorder(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 3, section: 0))
        }
        let target = Snapshot.build(["A"], [["a", "b", "c", "d", "e"]])
        let done = DispatchSemaphore(value: 0)
        harness.dataSource.apply(target) { done.signal() }  // diffed here, against [a, b, c, d]
        gate.signal()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        #expect(harness.problem() == nil)
        #expect(harness.dataSource.snapshot() == target)
        let reordered = Snapshot.build(["A"], [["b", "c", "d", "a"]])
        #expect(harness.onView(\.performedBatches) == target.difference(from: reordered).batches)
    }

    /// An app's identifier type whose `==` queries the data source from another thread (a
    /// stand-in for any `==` that reaches the data source): `indexPath(for:)` must not run
    /// that `==` holding the data source's lock, or the query would wait for it. The query
    /// gets 2 s, so a held lock fails the test instead of hanging it. It runs on a thread of
    /// its own: a block on the global queue may wait longer than that for a worker while the
    /// suites running beside it (under ThreadSanitizer, on 2 cores) hold the pool's workers
    /// blocked on their own semaphores.
    @Test func anAppsEqualityMayQueryTheDataSource() async {
        let harness = DataSourceHarness<Int, CallingBackID>()
        await harness.dataSource.apply(.build([0], [[CallingBackID(value: 1), CallingBackID(value: 2)]]))
        let answered = Locked([Bool]())
        CallingBackID.onEquality.withLock {
            $0 = {
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    _ = harness.dataSource.snapshot()
                    done.signal()
                }
                let result = done.wait(timeout: .now() + 2) == .success
                answered.withLock { $0.append(result) }
            }
        }
        defer { CallingBackID.onEquality.withLock { $0 = nil } }
        #expect(harness.dataSource.indexPath(for: CallingBackID(value: 2)) == IndexPath(item: 1, section: 0))
        let results = answered.withLock { $0 }
        #expect(!results.isEmpty && results.allSatisfy { $0 }, "queries from `==` answered: \(results)")
    }
}

/// An identifier whose `==` runs a hook once per comparison (not re-entered by the hook).
private struct CallingBackID: Hashable, Sendable {
    let value: Int
    static let onEquality = Locked<(@Sendable () -> Void)?>(nil)

    static func == (lhs: Self, rhs: Self) -> Bool {
        if let hook = onEquality.withLock({ $0 }) { hook() }
        return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// Records completions from any thread: how often each ran, in which order, what was wrong.
final class CompletionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [[Int]: Int] = [:]
    private var last: [Int: Int] = [:]
    private var sequence: [Int] = []
    private var found: [String] = []
    private var misordered: [String] = []

    func record(thread: Int, index: Int, problem: String?) {
        lock.withLock {
            runs[[thread, index], default: 0] += 1
            if let previous = last[thread], previous >= index { misordered.append("thread \(thread): \(index) after \(previous)") }
            last[thread] = index
            sequence.append(index)
            if let problem { found.append("thread \(thread) apply \(index): \(problem)") }
        }
    }

    func note(_ problem: String) { lock.withLock { found.append(problem) } }

    var counts: [[Int]: Int] { lock.withLock { runs } }

    /// Expects `count` completions, each run exactly once, each thread's in call order, none
    /// having found a problem.
    func expectEachRanOnce(count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(problems.isEmpty, "\(problems.prefix(3))", sourceLocation: sourceLocation)
        #expect(outOfOrder.isEmpty, "\(outOfOrder.prefix(3))", sourceLocation: sourceLocation)
        #expect(counts.count == count && counts.values.allSatisfy { $0 == 1 }, sourceLocation: sourceLocation)
    }
    var order: [Int] { lock.withLock { sequence } }
    var problems: [String] { lock.withLock { found } }
    var outOfOrder: [String] { lock.withLock { misordered } }
}

extension DispatchGroup {
    /// Returns once every entered task has left.
    func finished() async {
        await withCheckedContinuation { continuation in notify(queue: .global()) { continuation.resume() } }
    }
}
