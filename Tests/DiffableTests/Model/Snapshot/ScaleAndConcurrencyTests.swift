import Foundation
import Testing

@testable import Diffable

@Suite struct ScaleAndConcurrencyTests {
    /// Bulk operations on a 10^5-item snapshot agree with the naive model after every step.
    @Test func hundredThousandItemsAgreeWithModel() {
        var generator = SeededGenerator(seed: 100_000)
        var snapshot = DiffableDataSourceSnapshot<Int, Int>()
        var model = SnapshotModel<Int, Int>()
        let sections = Array(0..<100)
        snapshot.appendSections(sections)
        model.sections = sections.map { ($0, []) }
        for section in sections {
            let items = Array((section * 1000)..<(section * 1000 + 1000))
            snapshot.appendItems(items, toSection: section)
            model.sections[section].items = items
        }
        var next = 100_000
        for step in 0..<12 {
            switch step % 4 {
            case 0:
                let doomed = (0..<2000).map { _ in Int.random(in: 0..<next, using: &generator) }
                snapshot.deleteItems(doomed)
                model.remove(items: doomed)
            case 1:
                let section = Int.random(in: 0..<model.sections.count, using: &generator)
                let items = Array(next..<(next + 3000))
                next += 3000
                snapshot.appendItems(items, toSection: model.sections[section].id)
                model.sections[section].items += items
            case 2:
                for _ in 0..<50 {
                    let all = model.allItems
                    let picks = (all.randomElement(using: &generator)!, all.randomElement(using: &generator)!)
                    guard picks.0 != picks.1 else { continue }
                    snapshot.moveItem(picks.0, afterItem: picks.1)
                    model.remove(items: [picks.0])
                    let place = model.location(of: picks.1)!
                    model.sections[place.section].items.insert(picks.0, at: place.item + 1)
                }
            default:
                let moving = model.sections[Int.random(in: 0..<model.sections.count, using: &generator)].id
                let anchor = model.sections[Int.random(in: 0..<model.sections.count, using: &generator)].id
                guard moving != anchor else { continue }
                snapshot.moveSection(moving, beforeSection: anchor)
                let section = model.sections.remove(at: model.sectionIndex(moving)!)
                model.sections.insert(section, at: model.sectionIndex(anchor)!)
            }
            #expect(disagreement(snapshot, model, probes: [next, next + 1]) == nil, "step \(step)")
        }
        #expect(snapshot.numberOfItems > 100_000)
    }

    /// Diffs from many threads at once share the context pool and agree with a serial run.
    @Test func concurrentDiffsAreIndependent() async {
        var generator = SeededGenerator(seed: 8)
        let pairs = (0..<64).map { _ in RandomSnapshots.pair(&generator) }
        let serial = pairs.map { $0.new.difference(from: $0.old).batches }
        let parallel = await withTaskGroup(of: (Int, [BatchUpdate]).self) { group in
            for round in 0..<8 {
                for (index, pair) in pairs.enumerated() where index % 8 == round {
                    group.addTask { (index, pair.new.difference(from: pair.old).batches) }
                }
            }
            var results = [[BatchUpdate]](repeating: [], count: pairs.count)
            for await (index, batches) in group { results[index] = batches }
            return results
        }
        #expect(parallel == serial)
    }

    @Test func snapshotsAreSendable() {
        func requireSendable<T: Sendable>(_: T) {}
        requireSendable(DiffableDataSourceSnapshot<String, Int>())
        requireSendable(RandomSnapshots.build([("A", ["a"])]).difference(from: RandomSnapshots.build([])))
        requireSendable(BatchUpdate())
    }
}
