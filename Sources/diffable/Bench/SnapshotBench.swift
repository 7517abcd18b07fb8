import Diffable
import DiffableTools
import Foundation

/// `diffable bench --suite snapshot`: snapshot operations on n items in n/100 sections,
/// against a plain-Swift model (``PlainSnapshotModel``) in the same run. Every timed region
/// holds only the operation named: copies and set-up are made before it, on both sides, and
/// every row hashes the identifiers it names inside the timing on both sides.
enum SnapshotBench {
    /// The largest n the build + diff row runs at: it is about the fixed costs of small snapshots.
    static let buildAndDiffLimit = 100_000

    /// Seconds per build of both snapshots of a sectioned churn (``SectionedScenario/churn``,
    /// sections of 100) plus their diff, against building the suite's plain model of both and
    /// diffing them through the old model's own indexes (``PlainSnapshotModel/difference(to:)``),
    /// and against the plain-Swift diff (``BaselineSectionedDiff``) on bare copied arrays of
    /// arrays, in the same run; every identifier hashed inside, on every side. Small n repeat the whole body so
    /// that each timed run lasts about as long as one at 10^5.
    /// - Complexity: O(n) per repeat.
    static func buildAndDiff(keys: BenchKeys, itemCount: Int, runs: Int, seed: UInt64) -> (
        diffable: Double, plain: Double, arraysOnly: Double, repeats: Int
    ) {
        switch keys {  // the churn's new ids go past n: identifiers are made from each id
        case .int: buildAndDiff(itemCount: itemCount, runs: runs, seed: seed) { $0 }
        case .random64: buildAndDiff(itemCount: itemCount, runs: runs, seed: seed, BenchKeys.scrambled)
        case .string: buildAndDiff(itemCount: itemCount, runs: runs, seed: seed, BenchKeys.name)
        }
    }

    private static func buildAndDiff<Item: Hashable>(itemCount: Int, runs: Int, seed: UInt64, _ item: (Int) -> Item) -> (
        diffable: Double, plain: Double, arraysOnly: Double, repeats: Int
    ) {
        let layouts = SectionedScenario.churn.layouts(itemCount: itemCount, seed: seed &+ UInt64(itemCount))
        let old = layouts.old.map { $0.map(item) }, new = layouts.new.map { $0.map(item) }
        let repeats = max(1, buildAndDiffLimit / max(itemCount, 1))
        var checksum = 0
        func snapshot(_ sections: [Int], _ items: [[Item]]) -> DiffableDataSourceSnapshot<Int, Item> {
            var snapshot = DiffableDataSourceSnapshot<Int, Item>()
            snapshot.appendSections(sections)
            for (section, ids) in zip(sections, items) { snapshot.appendItems(ids, toSection: section) }
            return snapshot
        }
        let diffable = Measure.median(runs: runs) {
            for _ in 0..<repeats {
                let difference = snapshot(layouts.newSections, new).difference(from: snapshot(layouts.oldSections, old))
                checksum &+= difference.movedItemCount
            }
        }
        // The naive version: the suite's plain model of both snapshots (what a snapshot must
        // answer from), then the plain-Swift diff through the indexes the old model holds.
        func model(_ sections: [Int], _ items: [[Item]]) -> PlainSnapshotModel<Item> {
            PlainSnapshotModel(sections: sections, items: items)
        }
        let plain = Measure.median(runs: runs) {
            for _ in 0..<repeats {
                let before = model(layouts.oldSections, old), after = model(layouts.newSections, new)
                checksum &+= before.difference(to: after).moves
            }
        }
        // The barest version: only the arrays of arrays, copied, then the plain-Swift diff.
        let arraysOnly = Measure.median(runs: runs) {
            for _ in 0..<repeats {
                let before = old.map { $0.map { $0 } }, after = new.map { $0.map { $0 } }
                let result = BaselineSectionedDiff.diff(
                    oldSections: layouts.oldSections.map { $0 }, old: before, newSections: layouts.newSections.map { $0 }, new: after)
                checksum &+= result.moves
            }
        }
        if checksum == -1 { print("") }  // keeps the results alive
        return (diffable / Double(repeats), plain / Double(repeats), arraysOnly / Double(repeats), repeats)
    }

    /// The O(1) queries by item on the same random probes, against the plain model:
    /// `indexOfItem`, `sectionIdentifier(containingItem:)`, and a data source's `indexPath(for:)`
    /// (a thread-safe query, asked on the thread that drives its view, and then from another,
    /// where it takes the data source's lock) against the model's own index path. Each row
    /// goes to `row`, as the caller's do.
    /// The snapshot and the model are parameters, not the caller's captured variables: a call
    /// on a snapshot held in a closure's box retains and releases it around every lookup (the
    /// compiler cannot see that the library's query leaves the box alone), two atomic
    /// operations that keep one lookup's cache misses from overlapping the next's, while the
    /// model's inlined query needed no retain (indexOfItem at 10^6 paid about 25–60 ns more per
    /// lookup than the same probe's `sectionIdentifier(containingItem:)`, which was timed here).
    /// Inlined into the caller, so that it is specialized with it: called from unspecialized
    /// code, the library's queries would run their generic bodies, not the pre-specialized ones
    /// an app with these identifier types calls.
    /// - Complexity: O(probes) per run.
    @inline(__always)
    private static func lookupRows<Item: Hashable & Sendable>(
        _ snapshot: DiffableDataSourceSnapshot<Int, Item>, _ model: PlainSnapshotModel<Item>, probes: [Item], runs: Int,
        row: (String, Double, Double, Int) -> Void
    ) {
        var checksum = 0
        let lookups = Measure.median(runs: runs) { for probe in probes { checksum &+= snapshot.indexOfItem(probe)! } }
        let plainLookups = Measure.median(runs: runs) { for probe in probes { checksum &+= model.indexOfItem(probe)! } }
        row("indexOfItem × 100,000", lookups, plainLookups, runs)
        let sections = Measure.median(runs: runs) {
            for probe in probes { checksum &+= snapshot.sectionIdentifier(containingItem: probe)! }
        }
        let plainSections = Measure.median(runs: runs) {
            for probe in probes { checksum &+= model.sectionIdentifier(containingItem: probe)! }
        }
        row("sectionIdentifier(containingItem:) × 100,000", sections, plainSections, runs)
        // A data source showing the snapshot, its view driven on this thread: the main queue's
        // executor, as an app's on the main thread (`.main` asks `Thread.isMainThread` on every
        // query), or one that is always current when the bench runs elsewhere.
        let here = Thread.isMainThread ? ViewExecutor.main : ViewExecutor(enqueue: { $0() }, isCurrent: { true })
        let dataSource = DiffableDataSource<Int, Item, Item>(view: FirstScreenListView<Item>(checking: false), executor: here) { _, item in
            item
        }
        dataSource.applySnapshotUsingReloadData(snapshot, completion: nil)
        let paths = Measure.median(runs: runs) { for probe in probes { checksum &+= dataSource.indexPath(for: probe)!.item } }
        let plainPaths = Measure.median(runs: runs) { for probe in probes { checksum &+= model.indexPath(for: probe)!.item } }
        row("data source indexPath(for:) × 100,000", paths, plainPaths, runs)
        // The same asked from a thread other than the view's: the lock is inside the timing. The
        // executor is current while the view is loaded (the view asks on it), then not.
        let viewIsLoading = BenchFlag(true)
        let elsewhere = DiffableDataSource<Int, Item, Item>(
            view: FirstScreenListView<Item>(checking: false), executor: ViewExecutor(enqueue: { $0() }, isCurrent: { viewIsLoading.value })
        ) { _, item in item }
        elsewhere.applySnapshotUsingReloadData(snapshot, completion: nil)
        viewIsLoading.value = false
        let lockedPaths = Measure.median(runs: runs) { for probe in probes { checksum &+= elsewhere.indexPath(for: probe)!.item } }
        row("data source indexPath(for:) off its view's thread × 100,000", lockedPaths, plainPaths, runs)
        if checksum == -1 { print("") }  // keeps the results alive
    }

    static func measure(keys: BenchKeys, count: Int, runs: Int, seed: UInt64, log: BenchLog) -> [BenchRow] {
        switch keys {
        case .int: measure(keys, count, runs, seed, log) { $0 }
        case .random64: measure(keys, count, runs, seed, log, BenchKeys.scrambled)
        case .string:
            { names in measure(keys, count, runs, seed, log) { names[$0] } }((0..<count).map(BenchKeys.name))
        }
    }

    private static func measure<Item: Hashable & Sendable>(
        _ keys: BenchKeys, _ itemCount: Int, _ runs: Int, _ seed: UInt64, _ log: BenchLog, _ item: (Int) -> Item
    ) -> [BenchRow] {
        let label = "snapshot \(keys.rawValue) n=\(BenchSizes.label(itemCount))"
        let size = 100, sectionCount = (itemCount + size - 1) / size
        let chunks = (0..<sectionCount).map { section in (section * size..<min(itemCount, (section + 1) * size)).map(item) }
        var rows: [BenchRow] = []
        func row(_ operation: String, _ seconds: Double, _ plain: Double, runs: Int) {
            var row = BenchRow(
                suite: "snapshot", scenario: operation, keys: keys.rawValue, count: itemCount, milliseconds: seconds * 1000, runs: runs)
            row.sections = sectionCount
            row.baselineMilliseconds = plain * 1000
            row.baselineRuns = runs
            row.identifiersHashed = "inside, both sides"
            rows.append(row)
        }
        var snapshot = DiffableDataSourceSnapshot<Int, Item>()
        var model = PlainSnapshotModel<Item>()
        log.step(label, phase: "build")
        // The previous snapshot (model) is released in the untimed setup: a run times the
        // build, not freeing the one before, whose cost depends on the allocator's state.
        func buildSnapshot() {
            snapshot.appendSections(Array(0..<sectionCount))
            for (section, items) in chunks.enumerated() { snapshot.appendItems(items, toSection: section) }
        }
        func buildModel() {
            for (section, items) in chunks.enumerated() {
                model.appendSection(section)
                model.append(items, to: section)
            }
        }
        buildSnapshot()
        let build = Measure.median(runs: runs, setup: { snapshot = DiffableDataSourceSnapshot() }, body: buildSnapshot)
        buildModel()
        let plainBuild = Measure.median(runs: runs, setup: { model = PlainSnapshotModel() }, body: buildModel)
        row("build (appendItems per section)", build, plainBuild, runs: runs)

        log.step(label, phase: "indexOfItem")
        // The same 100,000 random probes on both sides, every one timed.
        var generator = BenchGenerator(seed: seed &+ 9)
        let probes = (0..<100_000).map { _ in item(Int.random(in: 0..<itemCount, using: &generator)) }
        lookupRows(snapshot, model, probes: probes, runs: runs) { row($0, $1, $2, runs: $3) }

        if itemCount <= buildAndDiffLimit {
            log.step(label, phase: "build + diff")
            let (diffable, plain, arraysOnly, repeats) = buildAndDiff(keys: keys, itemCount: itemCount, runs: runs, seed: seed)
            row("build + diff (churn)", diffable, plain, runs: runs)
            rows[rows.count - 1].repeats = repeats > 1 ? repeats : nil
            rows[rows.count - 1].notes.append(
                "\(label) build + diff: \(BenchTable.number(arraysOnly * 1000)) ms for plain Swift on bare arrays of arrays (no item → section index)"
            )
        }

        guard itemCount > 2 else { return rows }
        log.step(label, phase: "moveItem")
        let (oneMove, plainMove) = moveAcross(snapshot, model, first: item(0), second: item(1), last: item(itemCount - 1), runs: runs)
        row("one moveItem across sections (first → last)", oneMove, plainMove, runs: runs)
        if itemCount >= 1_000 {
            // The same move where sections are large: what a move costs grows with the sections it touches.
            let few = 10, perSection = itemCount / few
            var wide = DiffableDataSourceSnapshot<Int, Item>()
            wide.appendSections(Array(0..<few))
            for section in 0..<few {
                wide.appendItems((section * perSection..<(section + 1) * perSection).map(item), toSection: section)
            }
            let wideModel = PlainSnapshotModel(
                sections: Array(0..<few), items: (0..<few).map { section in (section * perSection..<(section + 1) * perSection).map(item) })
            let (move, plain) = moveAcross(
                wide, wideModel, first: item(0), second: item(1), last: item(few * perSection - 1), runs: runs)
            row("one moveItem across sections (first → last), \(few) sections", move, plain, runs: runs)
            rows[rows.count - 1].sections = few
        }

        log.step(label, phase: "deleteItems")
        // Each run deletes from a fresh copy that one untimed delete (of an item the timed one
        // keeps) has made own its storage, on both sides; sections that delete did not touch
        // stay shared with the original on both, so both copy the ones they touch when timed.
        let doomed = stride(from: 0, to: itemCount, by: 20).map(item)
        var deleting = snapshot, deletingModel = model
        let delete = Measure.median(
            runs: runs,
            setup: {
                deleting = snapshot
                deleting.deleteItems([item(1)])
            },
            body: { deleting.deleteItems(doomed) })
        let plainDelete = Measure.median(
            runs: runs,
            setup: {
                deletingModel = model
                deletingModel.deleteItems([item(1)])
            },
            body: { deletingModel.deleteItems(doomed) })
        row("deleteItems 5%", delete, plainDelete, runs: max(1, runs))
        return rows
    }

    /// Median seconds of one `moveItem(first, afterItem: last)` on each side. Each run starts
    /// from a fresh copy on which one untimed move (the second item after `last`) wrote every
    /// array a move writes, so the copy owns them, as a snapshot does after any earlier edit;
    /// the timed move then does only its own work.
    private static func moveAcross<Item: Hashable>(
        _ snapshot: DiffableDataSourceSnapshot<Int, Item>, _ model: PlainSnapshotModel<Item>, first: Item, second: Item, last: Item,
        runs: Int
    ) -> (diffable: Double, plain: Double) {
        var moved = snapshot, movedModel = model
        let diffable = Measure.median(
            runs: runs,
            setup: {
                moved = snapshot
                moved.moveItem(second, afterItem: last)
            },
            body: { moved.moveItem(first, afterItem: last) })
        let plain = Measure.median(
            runs: runs,
            setup: {
                movedModel = model
                movedModel.moveItem(second, after: last)
            },
            body: { movedModel.moveItem(first, after: last) })
        precondition(moved.indexOfItem(first) == movedModel.indexOfItem(first), "bench: the two moves disagree")
        return (diffable, plain)
    }
}

/// A flag the bench sets and its executor reads, all on the bench's one thread (the executor
/// runs its work at once, on the caller's thread), so no synchronization is needed.
private final class BenchFlag: @unchecked Sendable {
    var value: Bool
    init(_ value: Bool) { self.value = value }
}
