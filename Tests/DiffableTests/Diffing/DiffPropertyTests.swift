import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// ALGORITHM.md's correctness properties on random snapshot pairs: the strict
/// simulator accepts every batch, replay reaches the new snapshot exactly and
/// refreshes what was asked, output is deterministic, and with no section
/// changes the moves per section are minimal.
@Suite struct DiffPropertyTests {
    static let pairCount = 12_000

    @Test func randomPairsAreValidExactAndDeterministic() throws {
        var generator = SeededGenerator(seed: 20_261_121)
        var batchesChecked = 0
        for round in 0..<Self.pairCount {
            let (old, new) = RandomSnapshots.pair(&generator)
            let difference = new.difference(from: old)
            var view = ListViewSimulator<String, String>(flavor: round % 2 == 0 ? .collection : .table)
            view.reloadData(old)
            do {
                try view.apply(difference)
            } catch {
                Issue.record(
                    "round \(round) (seed 20261121): \(error)\nold \(old.debugDescription)\nnew \(new.debugDescription)\n\(difference)")
                return
            }
            batchesChecked += difference.batches.count
            #expect(view.visibleSnapshot == new.withoutPendingUpdates())
            #expect(new.difference(from: old).batches == difference.batches, "round \(round): not deterministic")
            #expect(old.difference(from: old).batches.isEmpty)
        }
        #expect(batchesChecked > Self.pairCount / 2)
    }

    @Test func movesAreMinimalWithoutSectionChanges() {
        var generator = SeededGenerator(seed: 77)
        for round in 0..<3_000 {
            let (old, new) = RandomSnapshots.pair(&generator, maxSections: 3, maxItems: 12, sectionChanges: false)
            guard old.sectionIdentifiers == new.sectionIdentifiers else { continue }
            let moves = new.difference(from: old).structuralBatch?.moveItems ?? []
            for (index, section) in new.sectionIdentifiers.enumerated() {
                let oldItems = old.itemIdentifiers(inSection: section)
                let sequence = new.itemIdentifiers(inSection: section).compactMap { oldItems.firstIndex(of: $0) }
                let sameSectionMoves = moves.filter { $0.from.section == index && $0.to.section == index }.count
                #expect(
                    sameSectionMoves == sequence.count - referenceLISLength(sequence),
                    "round \(round) section \(section): not minimal")
            }
        }
    }

    @Test func collidingIdentifiersDiffLikeDistinctOnes() throws {
        var generator = SeededGenerator(seed: 5)
        for round in 0..<1_000 {
            let (old, new) = RandomSnapshots.pair(&generator)
            func colliding(_ snapshot: RandomSnapshots.Snapshot) -> DiffableDataSourceSnapshot<String, CollidingID> {
                var result = DiffableDataSourceSnapshot<String, CollidingID>()
                result.appendSections(snapshot.sectionIdentifiers)
                for section in snapshot.sectionIdentifiers {
                    result.appendItems(
                        snapshot.itemIdentifiers(inSection: section).map { CollidingID(value: $0.hashValue) },
                        toSection: section)
                }
                return result
            }
            let expected = new.withoutPendingUpdates().difference(from: old).batches
            let actual = colliding(new.withoutPendingUpdates()).difference(from: colliding(old)).batches
            #expect(actual == expected, "round \(round)")
        }
    }

    /// Keys alone pair a NaN with a NaN; the confirmation pass must see that they are not
    /// equal and the diff treat them as distinct identifiers, as distinct values would be.
    @Test func identifiersUnequalToThemselvesNeverMatch() {
        func snapshot(_ items: [Double]) -> DiffableDataSourceSnapshot<Int, Double> {
            var snapshot = DiffableDataSourceSnapshot<Int, Double>()
            snapshot.appendSections([0])
            snapshot.appendItems(items, toSection: 0)
            return snapshot
        }
        let withNaN = snapshot([.nan, 2, 1]).difference(from: snapshot([1, .nan, 2]))
        let distinct = snapshot([-2, 2, 1]).difference(from: snapshot([1, -1, 2]))
        #expect(withNaN.batches == distinct.batches)
        #expect(withNaN.deletedItemCount == 1 && withNaN.insertedItemCount == 1)
    }

    /// Identifiers whose numbers differ only in the last bit share a key.
    struct PairwiseCollidingID: Hashable {
        var value: Int
        func hash(into hasher: inout Hasher) { hasher.combine(value >> 1) }
    }

    /// A few identifiers share a key with another one, on the same or the other side:
    /// the diff is the one distinct keys give.
    @Test func occasionalKeyCollisionsDiffLikeDistinctKeys() throws {
        var generator = SeededGenerator(seed: 12)
        for round in 0..<300 {
            let (old, new) = RandomSnapshots.pair(&generator, maxSections: 3, maxItems: 12)
            // Items are named by a number unique in the pair ("i7", "é8-ü"): n and n ^ 1 collide.
            func colliding(_ snapshot: RandomSnapshots.Snapshot) throws -> DiffableDataSourceSnapshot<String, PairwiseCollidingID> {
                var result = DiffableDataSourceSnapshot<String, PairwiseCollidingID>()
                result.appendSections(snapshot.sectionIdentifiers)
                for section in snapshot.sectionIdentifiers {
                    let items = try snapshot.itemIdentifiers(inSection: section).map { name in
                        PairwiseCollidingID(value: try #require(Int(String(name.filter(\.isNumber)))))
                    }
                    result.appendItems(items, toSection: section)
                }
                return result
            }
            let expected = new.withoutPendingUpdates().difference(from: old).batches
            let actual = try colliding(new.withoutPendingUpdates()).difference(from: colliding(old)).batches
            #expect(actual == expected, "round \(round)")
        }
    }

    /// Sections whose identifiers share keys (in pairs, on either side): the section moves,
    /// inserts and deletes are the ones distinct keys give, with items matched as usual.
    @Test func collidingSectionIdentifiersDiffLikeDistinctOnes() {
        var generator = SeededGenerator(seed: 21)
        for round in 0..<400 {
            let oldSections = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Int.random(in: 0..<12, using: &generator) }
            let newSections = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Int.random(in: 0..<12, using: &generator) }
            func build<S: Hashable>(_ sections: [Int], _ name: (Int) -> S) -> DiffableDataSourceSnapshot<S, Int> {
                var snapshot = DiffableDataSourceSnapshot<S, Int>()
                let unique = sections.reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
                snapshot.appendSections(unique.map(name))
                for section in unique { snapshot.appendItems([section * 100, section * 100 + 1], toSection: name(section)) }
                return snapshot
            }
            let expected = build(newSections) { $0 }.difference(from: build(oldSections) { $0 }).batches
            let colliding = build(newSections, PairwiseCollidingID.init).difference(from: build(oldSections, PairwiseCollidingID.init))
            #expect(colliding.batches == expected, "round \(round): \(oldSections) -> \(newSections)")
        }
    }
}
