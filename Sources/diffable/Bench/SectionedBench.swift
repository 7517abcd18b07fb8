import Diffable
import DiffableTools
import Foundation

/// `diffable bench --suite sectioned`: `difference(from:)` on two snapshots through the public
/// API (``SectionedScenario``: n items in sections of 100, or one section for re-sort), against
/// the plain-Swift two-level diff (``BaselineSectionedDiff``) and Swift's
/// `difference(from:).inferringMoves()` on the flattened item lists, in the same run.
///
/// Each side is timed twice, so that no ratio sets work done before the timing against work
/// done inside it: the diff alone, on two snapshots and two plain models built untimed (no
/// identifier hashed inside: the snapshots read the keys made at build, the plain models
/// ``HashCached`` values), and build + diff from the same identifier arrays (every identifier
/// hashed inside, on both sides). Swift's diff can only start from arrays; it is compared with
/// build + diff.
enum SectionedBench {
    static let hashing = "diff: neither side (keys made at build); build + diff, difference(from:): inside"

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
        var moveCount = 0
        let integerKeys = keys != .string
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
        // The identifier arrays both sides' build + diff start from (one String per name, shared).
        let oldItems = layouts.old.map { $0.map(item) }, newItems = layouts.new.map { $0.map(item) }
        log.step(label, phase: "Diffable build + diff")
        let reloaded = layouts.reloaded.map(item)
        let buildAndDiff = Measure.median(runs: runs) {
            let old = AppBench.snapshot(layouts.oldSections, oldItems) { $0 }
            var new = AppBench.snapshot(layouts.newSections, newItems) { $0 }
            if !reloaded.isEmpty { new.reloadItems(reloaded) }
            moveCount &+= new.difference(from: old).movedItemCount
        }
        row.buildAndDiffMilliseconds = buildAndDiff * 1000
        log.step(label, phase: "plain Swift")
        if !plainPlan.skipped {
            // Integers are their own cached hash: the Dictionary mixes them as it would a stored key.
            let (alone, moves) =
                integerKeys
                ? plainDiffAlone(layouts, oldItems, newItems, budget: budget, plan: plainPlan) { $0 }
                : plainDiffAlone(layouts, oldItems, newItems, budget: budget, plan: plainPlan) { HashCached($0) }
            row.record(.plainSwift, alone)
            moveCount &+= moves
        }
        let plainBuildAndDiff = budget.measure(plainPlan) {
            baseline = BaselineSectionedDiff.diff(
                oldSections: layouts.oldSections, old: oldItems, newSections: layouts.newSections, new: newItems)
        }
        row.baselineBuildAndDiffMilliseconds = plainBuildAndDiff.seconds.map { $0 * 1000 }
        if plainPlan.skipped { row.record(.plainSwift, plainBuildAndDiff) }
        log.step(label, phase: "difference(from:)")
        let flatOld = swiftPlan.skipped ? [] : Array(oldItems.joined()), flatNew = swiftPlan.skipped ? [] : Array(newItems.joined())
        row.record(.swiftDifference, budget.measure(swiftPlan) { _ = FlatBench.swiftDifference(old: flatOld, new: flatNew) })
        if baseline == nil {  // skipped for time: the same count on the Int identifiers, untimed
            baseline = BaselineSectionedDiff.diffIntegers(
                oldSections: layouts.oldSections, old: layouts.old, newSections: layouts.newSections, new: layouts.new)
        }
        row.minimalMoves = baseline.map { $0.moves + $0.sectionMoves }
        if moveCount == -1 { log.note("") }  // keeps the timed results alive
        row.identifiersHashed = hashing
        return row
    }

    /// The plain diff alone: both plain models built untimed from `key` of each identifier,
    /// then the old model's own indexes probed with the new one's keys.
    private static func plainDiffAlone<Item: Hashable, Key: Hashable>(
        _ layouts: SectionedScenario.Layouts, _ old: [[Item]], _ new: [[Item]], budget: BaselineBudget,
        plan: BaselineBudget.Plan, _ key: (Item) -> Key
    ) -> (BaselineOutcome, moves: Int) {
        let before = PlainSnapshotModel(sections: layouts.oldSections, items: old.map { $0.map(key) })
        let after = PlainSnapshotModel(sections: layouts.newSections, items: new.map { $0.map(key) })
        var moves = 0
        let outcome = budget.measure(plan) { moves = before.difference(to: after).moves }
        return (outcome, moves)
    }
}
