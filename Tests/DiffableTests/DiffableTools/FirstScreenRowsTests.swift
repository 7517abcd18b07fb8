import Diffable
import Foundation
import Testing

@testable import DiffableTools

/// The benchmarks' headless list asks, after a batch, only the cells a real list binds anew.
@Suite struct FirstScreenRowsTests {
    typealias Snapshot = DiffableDataSourceSnapshot<Int, Int>

    static func snapshot(_ layout: [(section: Int, items: [Int])]) -> Snapshot {
        var snapshot = Snapshot()
        snapshot.appendSections(layout.map(\.section))
        for (section, items) in layout where !items.isEmpty { snapshot.appendItems(items, toSection: section) }
        return snapshot
    }

    static func counts(_ snapshot: Snapshot) -> [Int] {
        snapshot.sectionIdentifiers.map { snapshot.numberOfItems(inSection: $0) }
    }

    /// The shown paths of `snapshot`'s first `screenRows` rows with their identifiers.
    static func screen(_ snapshot: Snapshot, _ screenRows: Int) -> [(path: IndexPath, item: Int)] {
        var shown: [(IndexPath, Int)] = []
        for (section, identifier) in snapshot.sectionIdentifiers.enumerated() {
            for (index, item) in snapshot.itemIdentifiers(inSection: identifier).enumerated() where shown.count < screenRows {
                shown.append((IndexPath(item: index, section: section), item))
            }
        }
        return shown
    }

    /// What a list asks after `batch`, told by identity: a shown row keeps its cell when its
    /// item was on the old screen and the batch neither inserted it (nor its section) nor
    /// reconfigured it; a refresh-only batch asks exactly the rows it names.
    static func expected(_ batch: BatchUpdate, old: Snapshot, new: Snapshot, screenRows: Int) -> [IndexPath] {
        let shown = screen(new, screenRows)
        if batch.isRefreshOnly {
            let named = Set(batch.reloadItems + batch.reconfigureItems)
            return shown.map(\.path).filter { named.contains($0) || batch.reloadSections.contains($0.section) }
        }
        let before = Set(screen(old, screenRows).map(\.item))
        let fresh = Set(batch.insertItems + batch.reconfigureItems)
        return shown.filter { row in
            batch.insertSections.contains(row.path.section) || fresh.contains(row.path) || !before.contains(row.item)
        }.map(\.path)
    }

    /// A random change of `old`: sections deleted, inserted and moved, items deleted, inserted
    /// and moved within and across sections, and some kept items reconfigured.
    static func change(_ old: [(section: Int, items: [Int])], _ random: inout SplitMix64) -> (
        layout: [(section: Int, items: [Int])], reconfigured: [Int], reloaded: [Int], reloadedSections: [Int]
    ) {
        var new = old.filter { _ in Int.random(in: 0..<6, using: &random) != 0 }
        var nextSection = 1_000, nextItem = 10_000
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            new.insert(
                (nextSection, (0..<Int.random(in: 0...4, using: &random)).map { nextItem + $0 }),
                at: Int.random(in: 0...new.count, using: &random))
            nextSection += 1
            nextItem += 10
        }
        if new.count > 1, Bool.random(using: &random) { new.swapAt(0, Int.random(in: 1..<new.count, using: &random)) }
        guard !new.isEmpty else { return (new, [], [], []) }
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            let from = Int.random(in: 0..<new.count, using: &random), to = Int.random(in: 0..<new.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where !new[from].items.isEmpty:
                new[from].items.remove(at: Int.random(in: 0..<new[from].items.count, using: &random))
            case 1:
                new[to].items.insert(nextItem, at: Int.random(in: 0...new[to].items.count, using: &random))
                nextItem += 1
            case 2 where !new[from].items.isEmpty:
                let item = new[from].items.remove(at: Int.random(in: 0..<new[from].items.count, using: &random))
                new[to].items.insert(item, at: Int.random(in: 0...new[to].items.count, using: &random))
            default: break
            }
        }
        let oldItems = Set(old.flatMap(\.items)), oldSections = Set(old.map(\.section))
        var reconfigured: [Int] = [], reloaded: [Int] = []
        for item in new.flatMap(\.items) where oldItems.contains(item) {
            switch Int.random(in: 0..<12, using: &random) {
            case 0: reconfigured.append(item)
            case 1: reloaded.append(item)
            default: break
            }
        }
        let reloadedSections = new.map(\.section).filter { oldSections.contains($0) && Int.random(in: 0..<10, using: &random) == 0 }
        return (new, reconfigured, reloaded, reloadedSections)
    }

    @Test func everyBatchOfRandomChangesAsksWhatTheIdentitiesSay() throws {
        var random = SplitMix64(seed: 0x5C2E)
        for round in 0..<2_000 {
            let sectionCount = Int.random(in: 1...5, using: &random)
            var first = 0
            let layout = (0..<sectionCount).map { section in
                let count = Int.random(in: 0...12, using: &random)
                defer { first += count }
                return (section: section, items: Array(first..<(first + count)))
            }
            let (newLayout, reconfigured, reloaded, reloadedSections) = Self.change(layout, &random)
            let old = Self.snapshot(layout)
            var new = Self.snapshot(newLayout)
            if !reconfigured.isEmpty { new.reconfigureItems(reconfigured) }
            if !reloaded.isEmpty { new.reloadItems(reloaded) }
            if !reloadedSections.isEmpty { new.reloadSections(reloadedSections) }
            let screenRows = Int.random(in: 1...25, using: &random)
            // A refresh batch follows the structural one, on the new state.
            var before = old
            for batch in new.difference(from: old).batches {
                let asked = FirstScreenRows.toBind(
                    after: batch, oldCounts: Self.counts(before), newCounts: Self.counts(new), screenRows: screenRows)
                let expected = Self.expected(batch, old: before, new: new, screenRows: screenRows)
                #expect(asked == expected, "round \(round), screen of \(screenRows): \(layout) → \(newLayout), \(batch)")
                if asked != expected { return }
                // The same lists as `IndexPath`s (a batch made by hand, not packed by a diff).
                let byHand = BatchUpdate(
                    deleteSections: batch.deleteSections, insertSections: batch.insertSections, moveSections: batch.moveSections,
                    reloadSections: batch.reloadSections, deleteItems: batch.deleteItems, insertItems: batch.insertItems,
                    moveItems: batch.moveItems, reloadItems: batch.reloadItems, reconfigureItems: batch.reconfigureItems)
                #expect(
                    FirstScreenRows.toBind(
                        after: byHand, oldCounts: Self.counts(before), newCounts: Self.counts(new), screenRows: screenRows) == expected)
                before = new
            }
        }
    }

    /// Batches made by hand: a structural batch that reloads asks the whole screen (UIKit
    /// derives where reloads land); a reconfigure names a new position; rows out of range are
    /// ignored, not written past the view's working memory.
    @Test func handMadeBatches() {
        let counts = [10, 10]
        func asked(_ batch: BatchUpdate, old: [Int] = counts, new: [Int] = counts) -> [IndexPath] {
            FirstScreenRows.toBind(after: batch, oldCounts: old, newCounts: new, screenRows: 12)
        }
        let screen = (0..<10).map { IndexPath(item: $0, section: 0) } + [IndexPath(item: 0, section: 1), IndexPath(item: 1, section: 1)]
        #expect(
            asked(
                BatchUpdate(insertItems: [IndexPath(item: 3, section: 1)], reloadItems: [IndexPath(item: 0, section: 0)]),
                new: [10, 11]) == screen)
        #expect(asked(BatchUpdate(reloadSections: [1], deleteItems: [IndexPath(item: 9, section: 1)]), new: [10, 9]) == screen)
        // Row 0 moves below row 4 and is reconfigured at its new place: rows 0-3 shift up (kept).
        #expect(
            asked(
                BatchUpdate(
                    moveItems: [.init(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 4, section: 0))],
                    reconfigureItems: [IndexPath(item: 4, section: 0)])) == [IndexPath(item: 4, section: 0)])
        // Section 1 moves to the top: its two rows that were shown keep their cells, its other
        // eight come onto the screen; old section 0's first two rows stay shown, below it.
        #expect(asked(BatchUpdate(moveSections: [.init(from: 1, to: 0)])) == (2..<10).map { IndexPath(item: $0, section: 0) })
        // Negative and too large items, a batch that does not fit the counts: no crash.
        let wild = BatchUpdate(
            deleteItems: [IndexPath(item: -3, section: 0), IndexPath(item: 50, section: 0)]
                + (0..<30).map { IndexPath(item: $0, section: 1) },
            insertItems: [IndexPath(item: -1, section: 0), IndexPath(item: 99, section: 0)],
            reconfigureItems: [IndexPath(item: -2, section: 1)])
        #expect(asked(wild).count <= 12)
    }

    /// A data source of 100 items in one section on a 20-row screen.
    static func shownList() -> (DiffableDataSource<Int, Int, Int>, FirstScreenListView<Int>, [Int]) {
        let view = FirstScreenListView<Int>(checking: true)
        let dataSource = DiffableDataSource<Int, Int, Int>(view: view, executor: ViewExecutor(enqueue: { $0() }, isCurrent: { true })) {
            _, item in item
        }
        view.target = { dataSource.snapshot() }
        let items = Array(0..<100)
        dataSource.applySnapshotUsingReloadData(snapshot([(0, items)]), completion: nil)
        return (dataSource, view, items)
    }

    @Test(arguments: [
        // (what changes, cells asked after the batch)
        ("insert at 5", 1), ("delete row 0", 1), ("move row 50 to the top", 1), ("move row 3 below row 10", 0),
        ("reconfigure row 2 and row 60", 1), ("move row 3 to the end", 1), ("delete rows 30-39", 0),
    ])
    func aBatchAsksOnlyTheRowsItBringsToTheScreen(change: String, cells: Int) {
        let (dataSource, view, items) = Self.shownList()
        #expect(view.cellRequests == 20)
        var new = Self.snapshot([(0, items)])
        switch change {
        case "insert at 5": new.insertItems([1_000], beforeItem: 5)
        case "delete row 0": new.deleteItems([0])
        case "move row 50 to the top": new.moveItem(50, beforeItem: 0)
        case "move row 3 below row 10": new.moveItem(3, afterItem: 10)
        case "reconfigure row 2 and row 60": new.reconfigureItems([2, 60])
        case "move row 3 to the end": new.moveItem(3, afterItem: 99)
        default: new.deleteItems(Array(30..<40))
        }
        dataSource.apply(new, completion: nil)
        #expect(view.batchCount == 1)
        #expect(view.problems.isEmpty)
        #expect(view.cellRequests - 20 == cells, "\(change)")
    }
}
