import DiffableTools
import Testing

@testable import Diffable

/// The prefix sums behind `indexOfItem` and the simulator's sequential moves, against a plain
/// array on random appends, updates and truncations.
@Suite struct FenwickTreeTests {
    @Test func everyPrefixSumMatchesAPlainArray() {
        var generator = SplitMix64(seed: 41)
        var tree = FenwickTree()
        var values: [Int] = []
        for step in 0..<4_000 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let value = Int.random(in: 0..<100, using: &generator)
                tree.append(value)
                values.append(value)
            case 5..<8 where !values.isEmpty:
                let position = Int.random(in: 0..<values.count, using: &generator)
                let value = Int.random(in: 0..<100, using: &generator)
                tree.set(value, at: position)
                values[position] = value
            case 8 where !values.isEmpty:
                let position = Int.random(in: 0...values.count, using: &generator)
                tree.removeSuffix(from: position)
                values.removeSubrange(position...)
            default:
                tree = FenwickTree(values)
            }
            #expect(tree.count == values.count, "step \(step)")
            let end = Int.random(in: 0...values.count, using: &generator)
            #expect(tree.prefixSum(end) == values[..<end].reduce(0, +), "step \(step): prefix \(end) of \(values)")
            if !values.isEmpty {
                let position = Int.random(in: 0..<values.count, using: &generator)
                #expect(tree.value(at: position) == values[position], "step \(step)")
            }
        }
    }

    @Test func indexOfItemStaysExactWhileSectionsFillInAnyOrder() {
        var snapshot = DiffableDataSourceSnapshot<Int, Int>()
        snapshot.appendSections(Array(0..<200))
        var generator = SplitMix64(seed: 7)
        var next = 0
        for section in (0..<200).shuffled(using: &generator) {
            snapshot.appendItems(Array(next..<next + 3), toSection: section)
            next += 3
        }
        let flat = snapshot.itemIdentifiers
        for (index, item) in flat.enumerated() where index % 7 == 0 {
            #expect(snapshot.indexOfItem(item) == index)
        }
        snapshot.deleteSections([5, 150])
        snapshot.moveSection(199, beforeSection: 0)
        for (index, item) in snapshot.itemIdentifiers.enumerated() {
            #expect(snapshot.indexOfItem(item) == index)
        }
    }
}
