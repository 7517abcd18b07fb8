import Foundation
import Testing

@testable import Diffable

/// The validator against `ReferenceBatchCheck`, the rules written again from the rules alone
/// (no code shared with the validator): the same verdict, the same rule, and UIKit's text where
/// the rule has one, for random garbage batches, broken diff batches, diff batches (packed
/// lists) against wrong counts, counts large enough that the validator keeps its flags sparse,
/// and one batch per rule.
@Suite struct BatchCheckOracleTests {
    typealias Property = BatchValidatorPropertyTests
    static let seed = Property.seed

    /// Both answers for every flavor and mode; records any difference, returns the validator's rules.
    static func compare(_ batch: BatchUpdate, _ oldCounts: [Int], _ newCounts: [Int], _ context: String) -> [String] {
        var rules: [String] = []
        for flavor in [BatchValidator.Flavor.table, .collection] {
            for mode in [BatchValidator.Mode.strict, .compat] {
                var reference = ReferenceBatchCheck(
                    table: flavor == .table, strict: mode == .strict, batch: batch, oldCounts: oldCounts, newCounts: newCounts)
                let expected = reference.verdict()
                var actual: BatchValidator.Violation?
                do {
                    try BatchValidator(flavor: flavor, mode: mode).validate(batch, oldCounts: oldCounts, newCounts: newCounts)
                } catch {
                    actual = error
                }
                let sameText = expected.map { !ReferenceBatchCheck.uikitTexts.contains($0.rule) || $0.message == actual?.message } ?? true
                if expected?.rule != actual?.rule || !sameText {
                    Issue.record(
                        "\(flavor) \(mode): reference \(String(describing: expected)), validator \(String(describing: actual))\n\(context)")
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

    /// Every rule, one batch each, against the reference (the random rounds may miss a rule on
    /// some seed).
    @Test func eachRuleAgreesWithTheReference() {
        for (rule, batch, oldCounts, newCounts) in BatchRuleCases.all {
            let rules = Self.compare(batch, oldCounts, newCounts, "\(rule): \(batch)")
            #expect(rules.contains(rule), "\(rule): \(batch) answered \(rules)")
        }
    }
}
