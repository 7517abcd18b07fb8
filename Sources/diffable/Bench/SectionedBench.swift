import Diffable
import DiffableTools
import Foundation

/// `diffable bench --suite sectioned`: `difference(from:)` on two snapshots through the public
/// API (``SectionedScenario``: n items in sections of 100, or one section for re-sort), against
/// the plain-Swift two-level diff (``BaselineSectionedDiff``) and Swift's
/// `difference(from:).inferringMoves()` on the flattened item lists, in the same run.
enum SectionedBench {
    static func measure(
        scenario: SectionedScenario, keys: BenchKeys, count: Int, runs: Int, seed: UInt64, budget: BaselineBudget, log: BenchLog
    ) -> BenchRow {
        let label = "sectioned \(scenario.rawValue) \(keys.rawValue) n=\(BenchSizes.label(count))"
        log.step(label, phase: "inputs")
        let layouts = scenario.layouts(itemCount: count, seed: seed &+ UInt64(count))
        switch keys {
        case .int: return measure(layouts, scenario, keys, label: label, runs: runs, seed: seed, budget: budget, log: log) { $0 }
        case .random64:
            return measure(layouts, scenario, keys, label: label, runs: runs, seed: seed, budget: budget, log: log, BenchKeys.scrambled)
        case .string:
            // One String per identifier, shared by both snapshots and the baselines.
            let largest = (layouts.new.lazy.compactMap { $0.max() }.max() ?? 0) + 1
            let names = (0..<max(largest, count)).map(BenchKeys.name)
            return measure(layouts, scenario, keys, label: label, runs: runs, seed: seed, budget: budget, log: log) { names[$0] }
        }
    }

    private static func measure<Item: Hashable>(
        _ layouts: SectionedScenario.Layouts, _ scenario: SectionedScenario, _ keys: BenchKeys, label: String, runs: Int,
        seed: UInt64, budget: BaselineBudget, log: BenchLog, _ item: (Int) -> Item
    ) -> BenchRow {
        var row: BenchRow
        do {  // the snapshots live only while Diffable is timed
            let (old, new) = layouts.snapshots(item)
            let resident = Measure.residentBytes()
            log.step(label, phase: "Diffable")
            var difference: SnapshotDifference<Int, Item>? = new.difference(from: old)
            let seconds = Measure.median(runs: runs) {
                difference = nil  // the previous result is freed before the next diff, as an app would
                difference = new.difference(from: old)
            }
            row = BenchRow(
                suite: "sectioned", scenario: scenario.rawValue, keys: keys.rawValue, count: old.numberOfItems,
                milliseconds: seconds * 1000, runs: runs)
            row.sections = old.numberOfSections
            if let resident, old.numberOfItems >= 1_000_000 {
                row.notes.append("\(label): \(resident >> 20) MB resident before the first diff (inputs and both snapshots)")
            }
            row.moves = (difference?.movedItemCount ?? 0) + (difference?.movedSectionCount ?? 0)
            if let reinserted = difference?.insertedSectionCount, reinserted > 0, scenario == .reverse {
                row.notes.append("the batch deletes and re-inserts \(reinserted) reordered sections instead of moving them and their items")
            }
            difference = nil
        }
        let series = "sectioned|\(scenario.rawValue)|\(keys.rawValue)"
        // One untimed conversion, then one timed run, on the scenario at a smaller n.
        func probe(_ size: Int, _ run: (_ oldSections: [Int], _ old: [[Item]], _ newSections: [Int], _ new: [[Item]]) -> Void) -> Double {
            let small = scenario.layouts(itemCount: size, seed: seed &+ UInt64(size))
            let old = small.old.map { $0.map(item) }, new = small.new.map { $0.map(item) }
            return Measure.seconds { run(small.oldSections, old, small.newSections, new) }
        }
        log.step(label, phase: "plain Swift")
        let growth: BaselineGrowth = [.moveOne, .update].contains(scenario) ? .linear : .quadratic
        let plainPlan = budget.plan(
            .plainSwift, series: series, count: row.count, runs: runs, growth: .linear, label: label, strings: keys == .string,
            probe: { size in probe(size) { _ = BaselineSectionedDiff.diff(oldSections: $0, old: $1, newSections: $2, new: $3) } })
        let swiftPlan = budget.plan(
            .swiftDifference, series: series, count: row.count, runs: runs, growth: growth, label: label, strings: keys == .string,
            probe: { size in probe(size) { _ = FlatBench.swiftDifference(old: Array($1.joined()), new: Array($3.joined())) } })
        var baseline: BaselineSectionedDiff.Result?
        if !plainPlan.skipped || !swiftPlan.skipped {
            let oldItems = layouts.old.map { $0.map(item) }, newItems = layouts.new.map { $0.map(item) }
            row.record(
                .plainSwift,
                budget.measure(plainPlan) {
                    baseline = BaselineSectionedDiff.diff(
                        oldSections: layouts.oldSections, old: oldItems, newSections: layouts.newSections, new: newItems)
                })
            log.step(label, phase: "difference(from:)")
            let flatOld = swiftPlan.skipped ? [] : Array(oldItems.joined()), flatNew = swiftPlan.skipped ? [] : Array(newItems.joined())
            row.record(.swiftDifference, budget.measure(swiftPlan) { _ = FlatBench.swiftDifference(old: flatOld, new: flatNew) })
        } else {
            row.record(.plainSwift, budget.measure(plainPlan) {})
            row.record(.swiftDifference, budget.measure(swiftPlan) {})
        }
        if baseline == nil {  // skipped for time: the same count on the Int identifiers, untimed
            baseline = BaselineSectionedDiff.diffIntegers(
                oldSections: layouts.oldSections, old: layouts.old, newSections: layouts.newSections, new: layouts.new)
        }
        row.minimalMoves = baseline.map { $0.moves + $0.sectionMoves }
        return row
    }
}
