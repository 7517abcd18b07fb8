import Foundation
import Testing

@testable import Diffable

/// The validator on flat arrays (``RowFlags``, packed lists read in place) against the one it
/// replaced (`ReferenceBatchCheck`: Sets and Dictionaries of `IndexPath`): the same verdict, rule
/// and text for random garbage batches, broken diff batches, diff batches (packed lists) against
/// wrong counts, and counts large enough that the flags are kept sparse.
@Suite struct BatchCheckOracleTests {
    typealias Property = BatchValidatorPropertyTests
    static let seed = Property.seed

    /// Both validators' answers for every flavor and mode; records any difference.
    static func compare(_ batch: BatchUpdate, _ oldCounts: [Int], _ newCounts: [Int], _ context: String) -> [String] {
        var rules: [String] = []
        for flavor in [BatchValidator.Flavor.table, .collection] {
            for mode in [BatchValidator.Mode.strict, .compat] {
                let validator = BatchValidator(flavor: flavor, mode: mode)
                var reference = ReferenceBatchCheck(validator: validator, batch: batch, oldCounts: oldCounts, newCounts: newCounts)
                let expected = reference.run()
                var actual: BatchValidator.Violation?
                do { try validator.validate(batch, oldCounts: oldCounts, newCounts: newCounts) } catch { actual = error }
                // The reference reported an out-of-range reload target in Set order (any of them);
                // the rewrite reports the first in reload order.
                let sameE5 = expected?.rule == "E5" && actual?.rule == "E5" && batch.reloadItems.count > 1
                if expected != actual && !sameE5 {
                    Issue.record(
                        "\(flavor) \(mode): reference \(String(describing: expected)), flat \(String(describing: actual))\n\(context)")
                }
                rules.append(actual?.rule ?? "accepted")
            }
        }
        return rules
    }

    @Test func flatChecksAgreeWithTheReference() {
        var generator = SeededGenerator(seed: Self.seed)
        var rules: [String: Int] = [:]
        for round in 0..<4_000 {
            let (old, new) = RandomSnapshots.pair(&generator, maxSections: 4, maxItems: 6)
            let counts = { (snapshot: RandomSnapshots.Snapshot) in
                snapshot.sectionIdentifiers.map { snapshot.numberOfItems(inSection: $0) }
            }
            var oldCounts = counts(old), newCounts = counts(new)
            let batch: BatchUpdate
            switch round % 4 {
            case 0:
                batch = Property.garbageBatch(&generator, sections: oldCounts.count, items: 6)
            case 1:
                guard var broken = new.difference(from: old).batches.first else { continue }
                for _ in 0...Int.random(in: 0...1, using: &generator) { Property.breakOne(&broken, &generator) }
                batch = broken
            case 2:
                // A diff's packed lists, against counts with one section off by one or swapped.
                guard let packed = new.difference(from: old).batches.first else { continue }
                batch = packed
                if !newCounts.isEmpty && Bool.random(using: &generator) {
                    newCounts[Int.random(in: 0..<newCounts.count, using: &generator)] += Bool.random(using: &generator) ? 1 : -1
                } else {
                    swap(&oldCounts, &newCounts)
                }
            default:
                // Counts far larger than the batch: the flags are a dictionary.
                oldCounts = oldCounts.map { $0 == 0 ? 0 : $0 + 5_000 }
                newCounts = newCounts.map { $0 == 0 ? 0 : $0 + 5_000 }
                batch = Property.garbageBatch(&generator, sections: oldCounts.count, items: 6)
            }
            let context = "seed \(Self.seed) round \(round)\nbatch \(batch)\ncounts \(oldCounts) → \(newCounts)"
            for rule in Self.compare(batch, oldCounts, newCounts, context) { rules[rule, default: 0] += 1 }
        }
        print("BatchCheckOracleTests seed \(Self.seed): \(rules.sorted { $0.key < $1.key })")
        #expect(rules.count >= 25, "too few rules exercised: \(rules.keys.sorted())")
        #expect(rules["accepted", default: 0] >= 500)
    }

    /// Every rule of the item lists, one batch each, against the reference (the random rounds
    /// may miss a rule on some seed).
    @Test func eachItemRuleAgreesWithTheReference() {
        func p(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }
        func move(_ from: IndexPath, _ to: IndexPath) -> BatchUpdate.ItemMove { .init(from: from, to: to) }
        let cases: [(String, BatchUpdate, [Int], [Int])] = [
            ("E3", BatchUpdate(deleteItems: [p(0, 3)]), [3], [2]),
            ("E4", BatchUpdate(deleteItems: [p(1, 0)]), [3], [2]),
            ("E5", BatchUpdate(insertItems: [p(0, 4)]), [3], [4]),
            ("E6", BatchUpdate(insertItems: [p(2, 0)]), [3], [4]),
            ("E9", BatchUpdate(deleteItems: [p(0, 1)], reloadItems: [p(0, 1)]), [3], [2]),
            ("E10", BatchUpdate(deleteItems: [p(0, 1)], moveItems: [move(p(0, 1), p(0, 0))]), [3], [2]),
            ("E11", BatchUpdate(insertItems: [p(0, 0)], moveItems: [move(p(0, 2), p(0, 0))]), [3], [4]),
            ("E12", BatchUpdate(moveItems: [move(p(0, 2), p(0, 0))], reloadItems: [p(0, 0)]), [3], [3]),
            ("E13", BatchUpdate(moveItems: [move(p(0, 3), p(0, 0))]), [3], [3]),
            ("E14", BatchUpdate(moveItems: [move(p(0, 2), p(0, 3))]), [3], [3]),
            ("E15", BatchUpdate(moveItems: [move(p(1, 0), p(0, 0))]), [3], [3]),
            ("E16", BatchUpdate(moveItems: [move(p(0, 1), p(0, 0)), move(p(0, 2), p(0, 0))]), [3], [3]),
            ("E17", BatchUpdate(moveItems: [move(p(0, 1), p(0, 0)), move(p(0, 1), p(0, 2))]), [3], [3]),
            ("E18", BatchUpdate(insertSections: [1], moveItems: [move(p(0, 1), p(1, 0))]), [3], [2, 1]),
            ("E19", BatchUpdate(deleteSections: [1], moveItems: [move(p(1, 0), p(0, 0))]), [3, 1], [4]),
            ("E25", BatchUpdate(moveItems: [move(p(0, 1), p(0, 0)), move(p(0, 1), p(0, 0))]), [3], [3]),
            ("E26", BatchUpdate(deleteSections: [1], reloadItems: [p(1, 0)]), [3, 1], [3]),
            ("I1", BatchUpdate(deleteSections: [1], deleteItems: [p(1, 0)]), [3, 1], [3]),
            ("I2", BatchUpdate(insertSections: [1], insertItems: [p(1, 0)]), [3], [3, 1]),
            ("I5", BatchUpdate(moveSections: [.init(from: 1, to: 0)], deleteItems: [p(1, 0)]), [3, 2], [1, 3]),
            ("I8", BatchUpdate(deleteSections: [0], insertSections: [2], moveItems: [move(p(1, 0), p(1, 0))]), [1, 2, 1], [2, 1, 1]),
            ("I9", BatchUpdate(moveItems: [move(p(0, 2), p(0, 0))], reloadItems: [p(0, 1)]), [3], [3]),
            ("R1", BatchUpdate(reloadItems: [p(0, 1)], reconfigureItems: [p(0, 1)]), [3], [3]),
        ]
        for (rule, batch, oldCounts, newCounts) in cases {
            let rules = Self.compare(batch, oldCounts, newCounts, "\(rule): \(batch)")
            #expect(rules.contains(rule), "\(rule): \(batch) answered \(rules)")
        }
    }
}
