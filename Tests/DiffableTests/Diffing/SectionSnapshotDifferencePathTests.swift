import DiffableTesting
import DiffableTools
import Foundation
import Testing

@testable import Diffable

/// The outline diff's two paths against each other and against the flat snapshot diff
/// of the visible rows (what `difference(from:)` computed before it had paths of its own):
/// the expansion-only walk is taken exactly when only expansion differs, and every path
/// gives the same batches, position maps and snapshots.
@Suite struct SectionSnapshotDifferencePathTests {
    typealias Outline = DiffableDataSourceSectionSnapshot<Int>

    /// Everything a difference says, the snapshots made on request included (as their
    /// item counts when `==` cannot tell: an identifier unequal to itself).
    static func same<S, I>(_ a: SnapshotDifference<S, I>, _ b: SnapshotDifference<S, I>, snapshots: Bool = true) -> Bool {
        let sameSnapshots =
            snapshots
            ? a.old == b.old && a.new == b.new
            : a.old.numberOfItems == b.old.numberOfItems && a.new.numberOfItems == b.new.numberOfItems
        return sameSnapshots && a.batches == b.batches && itemMaps(a) == itemMaps(b)
            && Array(a.oldSectionToNew) == Array(b.oldSectionToNew) && Array(a.newSectionToOld) == Array(b.newSectionToOld)
            && a.oldStarts == b.oldStarts
            && a.newStarts == b.newStarts
    }

    /// The item position maps old → new and new → old, the identity spelled out when the
    /// difference keeps them implicit (every item in place).
    static func itemMaps<S, I>(_ difference: SnapshotDifference<S, I>) -> [[Int32]] {
        guard difference.itemsInPlace else { return [difference.oldItemToNew, difference.newItemToOld] }
        let identity = Array(0..<Int32(difference.oldStarts.last ?? 0))
        return [identity, identity]
    }

    /// The flat snapshot engine on snapshots of the visible rows.
    static func flatDifference<I>(_ new: DiffableDataSourceSectionSnapshot<I>, _ old: DiffableDataSourceSectionSnapshot<I>)
        -> SnapshotDifference<Int, I>
    {
        new.storage.rows.snapshot(inSection: 0).difference(from: old.storage.rows.snapshot(inSection: 0))
    }

    /// The general path, whatever the pair.
    static func generalDifference<I>(_ new: DiffableDataSourceSectionSnapshot<I>, _ old: DiffableDataSourceSectionSnapshot<I>)
        -> SnapshotDifference<Int, I>
    {
        let oldRows = old.storage.rows, newRows = new.storage.rows
        return OutlineRows.difference(
            from: oldRows, to: newRows, inSection: 0, injective: new.storage.items.strategy.isInjective,
            old: .snapshot(oldRows.snapshot(inSection: 0)), new: .snapshot(newRows.snapshot(inSection: 0)))
    }

    static func takesExpansionPath<I>(_ new: DiffableDataSourceSectionSnapshot<I>, _ old: DiffableDataSourceSectionSnapshot<I>) -> Bool {
        new.storage.rows.hasSameItemsInSamePlaces(as: old.storage.rows, injective: new.storage.items.strategy.isInjective)
    }

    /// `outline` with a random expansion (deep outlines have long hidden and visible runs).
    static func reexpanded<I>(_ outline: DiffableDataSourceSectionSnapshot<I>, _ g: inout SeededGenerator, rate: Int)
        -> DiffableDataSourceSectionSnapshot<I>
    {
        var changed = outline
        for item in outline.items where Int.random(in: 0..<100, using: &g) < rate {
            if changed.isExpanded(item) { changed.collapse([item]) } else { changed.expand([item]) }
        }
        return changed
    }

    @Test func expansionOnlyPairsTakeTheWalkAndAgreeWithTheGeneralPath() {
        var generator = SeededGenerator(seed: 9_001)
        for pair in 0..<2_000 {
            let old = SectionSnapshotDifferenceTests.randomOutline(&generator, first: 0, size: 60)
            let new = Self.reexpanded(old, &generator, rate: [0, 5, 30, 100][pair % 4])
            #expect(Self.takesExpansionPath(new, old), "pair \(pair)")
            let difference = new.difference(from: old)
            #expect(difference.movedItemCount == 0, "pair \(pair)")
            #expect(Self.same(difference, Self.generalDifference(new, old)), "pair \(pair): \(difference)")
            #expect(Self.same(difference, Self.flatDifference(new, old)), "pair \(pair)")
            var view = ListViewSimulator<Int, Int>()
            view.reloadData(difference.old)
            #expect(throws: Never.self) { try view.apply(difference) }
        }
    }

    @Test func outlinesBuiltApartTakeTheWalkWhenTheirTreesAreEqual() {
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<200 {
            let old = SectionSnapshotDifferenceTests.randomOutline(&generator, first: 0, size: 40)
            // The same tree rebuilt entry by entry: equal arrays in buffers of their own.
            let entries = old.items.map { (item: $0, parent: old.parent(of: $0), isExpanded: Bool.random(using: &generator)) }
            let new = try! Outline(validating: entries)
            #expect(Self.takesExpansionPath(new, old))
            #expect(Self.same(new.difference(from: old), Self.flatDifference(new, old)))
        }
    }

    @Test func stringsAndIdentifiersUnequalToThemselvesAgreeWithTheFlatEngine() throws {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<300 {
            let ints = SectionSnapshotDifferenceTests.randomOutline(&generator, first: 0, size: 30)
            let entries = ints.items.map { (item: "s\($0)", parent: ints.parent(of: $0).map { "s\($0)" }, isExpanded: ints.isExpanded($0)) }
            let old = try DiffableDataSourceSectionSnapshot(validating: entries)
            let new = Self.reexpanded(old, &generator, rate: 20)
            #expect(Self.takesExpansionPath(new, old))
            #expect(Self.same(new.difference(from: old), Self.flatDifference(new, old)))
        }
        // NaN is never equal to itself: the flat engine deletes and inserts its row, so the walk must not run.
        var old = DiffableDataSourceSectionSnapshot<Double>()
        old.append([1, .nan, 3])
        old.append([4], to: 1)
        var new = old
        new.expand([1])
        #expect(!Self.takesExpansionPath(new, old))
        let difference = new.difference(from: old)
        #expect(Self.same(difference, Self.flatDifference(new, old), snapshots: false))
        #expect(difference.insertedItemCount == 2 && difference.deletedItemCount == 1)
    }

    @Test func theSnapshotsAreMadeOnceOnRequestFromTheRowsOfTheTimeOfTheDiff() async {
        var old = OutlineWorkload(fanOut: 4, depth: 4).build()
        old.expand(old.items)
        var new = old
        new.collapse([0, 2])
        let difference = new.difference(from: old, inSection: "rows")
        let oldRows = old.visibleItems, newRows = new.visibleItems
        // Changing the outlines afterwards does not change what the difference shows.
        old.deleteAll()
        new.append([-1])
        let seen = await withTaskGroup(of: [Int].self) { group in
            for task in 0..<8 { group.addTask { task % 2 == 0 ? difference.old.itemIdentifiers : difference.new.itemIdentifiers } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen.filter { $0 == oldRows }.count == 4 && seen.filter { $0 == newRows }.count == 4)
        #expect(difference.new.sectionIdentifiers == ["rows"] && difference.new.indexOfItem(newRows.last!) == newRows.count - 1)
        #expect(difference.deletedItemCount == oldRows.count - newRows.count && difference.insertedItemCount == 0)
    }
}
