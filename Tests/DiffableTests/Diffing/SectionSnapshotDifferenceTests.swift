import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// `difference(from:)` of two outlines: the visible rows diffed by the flat engine,
/// proven by the strict list-view simulator.
@Suite struct SectionSnapshotDifferenceTests {
    typealias Outline = DiffableDataSourceSectionSnapshot<Int>

    /// A random outline of up to `size` items numbered from `first`, with random expansion.
    static func randomOutline(_ g: inout SeededGenerator, first: Int, size: Int) -> Outline {
        var outline = Outline()
        for item in first..<(first + Int.random(in: 0...size, using: &g)) {
            let existing = outline.items
            let parent = existing.isEmpty || Int.random(in: 0..<4, using: &g) == 0 ? nil : existing.randomElement(using: &g)
            outline.append([item], to: parent)
            if Int.random(in: 0..<2, using: &g) == 0 { outline.expand([item]) }
        }
        return outline
    }

    /// `old` changed the ways an app changes an outline: expand, collapse, delete,
    /// insert, and move subtrees (with their expansion).
    static func randomChange(of old: Outline, _ g: inout SeededGenerator, fresh: inout Int) -> Outline {
        var new = old
        for _ in 0..<Int.random(in: 0...4, using: &g) {
            let items = new.items
            guard let item = items.randomElement(using: &g) else { break }
            switch Int.random(in: 0..<6, using: &g) {
            case 0: new.expand([item])
            case 1: new.collapse([item])
            case 2: new.delete([item])
            case 3:
                new.insert(Array(fresh..<(fresh + 2)), after: item)
                fresh += 2
            default:
                let subtree = new.snapshot(of: item, includingParent: true)
                new.delete([item])
                let remaining = new.items
                if let anchor = remaining.randomElement(using: &g) {
                    if Bool.random(using: &g) { new.append(subtree, to: anchor) } else { new.insert(subtree, before: anchor) }
                } else {
                    new.append(subtree)
                }
            }
        }
        return new
    }

    /// Whether the structural batch has the fewest moves: matched rows minus a longest
    /// increasing subsequence of their old positions taken in new order.
    static func movesAreMinimal(_ difference: SnapshotDifference<Int, Int>, old: [Int], new: [Int]) -> Bool {
        let oldIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1, $0) })
        let sequence = new.compactMap { oldIndex[$0] }
        return difference.movedItemCount == sequence.count - referenceLISLength(sequence)
    }

    @Test func randomOutlinePairsPassTheStrictSimulator() throws {
        var generator = SeededGenerator(seed: 2_024)
        var accepted = 0, structural = 0
        for pair in 0..<2_500 {
            var fresh = 1_000
            let old = Self.randomOutline(&generator, first: 0, size: 30)
            let new = Self.randomChange(of: old, &generator, fresh: &fresh)
            let difference = new.difference(from: old)
            var view = ListViewSimulator<Int, Int>()
            view.reloadData(difference.old)
            do {
                try view.apply(difference)
            } catch {
                Issue.record("pair \(pair): \(error)\nold \(old.visualDescription())\nnew \(new.visualDescription())\n\(difference)")
                return
            }
            #expect(difference.old.itemIdentifiers == old.visibleItems)
            #expect(view.visibleSnapshot?.itemIdentifiers == new.visibleItems, "pair \(pair)")
            #expect(Self.movesAreMinimal(difference, old: old.visibleItems, new: new.visibleItems), "pair \(pair): \(difference)")
            #expect(new.difference(from: old).batches == difference.batches, "pair \(pair): not deterministic")
            #expect(new.difference(from: new).isEmpty)
            // The expansion-only walk exactly when the trees are equal; the same result either way.
            let sameTree = old.items == new.items && old.items.allSatisfy { old.parent(of: $0) == new.parent(of: $0) }
            #expect(SectionSnapshotDifferencePathTests.takesExpansionPath(new, old) == sameTree, "pair \(pair)")
            #expect(SectionSnapshotDifferencePathTests.same(difference, SectionSnapshotDifferencePathTests.flatDifference(new, old)))
            if !sameTree { structural += 1 }
            accepted += 1
        }
        #expect(accepted == 2_500 && structural > 1_000)
    }

    @Test func expandingInsertsTheNewlyVisibleDescendantsAfterTheParent() {
        var old = Outline()
        old.append([1, 2, 3])
        old.append([10, 11], to: 2)
        old.append([20], to: 10)
        old.expand([10])  // expanded, but hidden under collapsed 2
        var new = old
        new.expand([2])
        let difference = new.difference(from: old)
        #expect(difference.batches == [BatchUpdate(insertItems: [IndexPath(item: 2, section: 0), [0, 3], [0, 4]])])
        // Collapsing is the exact reverse.
        #expect(old.difference(from: new).batches == [BatchUpdate(deleteItems: [[0, 2], [0, 3], [0, 4]])])
    }

    @Test func aMovedSubtreeMovesItsVisibleRows() {
        var old = Outline()
        old.append([1, 2, 3])
        old.append([10, 11], to: 1)
        old.expand([1])
        var new = old
        let subtree = new.snapshot(of: 1, includingParent: true)
        new.delete([1])
        new.insert(subtree, after: 3)
        #expect(new.visibleItems == [2, 3, 1, 10, 11])
        let difference = new.difference(from: old)
        // Two rows move past three: the fewest moves keep 1, 10, 11 and move 2 and 3.
        #expect(difference.movedItemCount == 2 && difference.insertedItemCount == 0 && difference.deletedItemCount == 0)
        var view = ListViewSimulator<Int, Int>()
        view.reloadData(difference.old)
        #expect(throws: Never.self) { try view.apply(difference) }
    }

    @Test func reparentingWithoutReorderingChangesNoRow() {
        var old = Outline()
        old.append([1, 2])
        old.expand([1])
        var new = Outline()
        new.append([1])
        new.append([2], to: 1)
        new.expand([1])
        #expect(old.visibleItems == new.visibleItems)
        #expect(new.difference(from: old).isEmpty)
    }

    @Test func theSectionCanBeNamed() {
        var new = Outline()
        new.append([7])
        let difference = new.difference(from: Outline(), inSection: "outline")
        #expect(difference.new.sectionIdentifiers == ["outline"] && difference.old.sectionIdentifiers == ["outline"])
        #expect(difference.batches == [BatchUpdate(insertItems: [[0, 0]])])
        #expect(Outline().difference(from: Outline()).isEmpty)
    }

    @Test func collidingHashesDiffLikeDistinctKeys() {
        var generator = SeededGenerator(seed: 77)
        for _ in 0..<300 {
            var fresh = 1_000
            let old = Self.randomOutline(&generator, first: 0, size: 20)
            let new = Self.randomChange(of: old, &generator, fresh: &fresh)
            func colliding(_ outline: Outline) -> DiffableDataSourceSectionSnapshot<CollidingID> {
                let entries = outline.items.map {
                    (item: CollidingID(value: $0), parent: outline.parent(of: $0).map(CollidingID.init), isExpanded: outline.isExpanded($0))
                }
                return try! DiffableDataSourceSectionSnapshot(validating: entries)
            }
            #expect(colliding(new).difference(from: colliding(old)).batches == new.difference(from: old).batches)
        }
    }
}
