import Diffable
import Foundation

/// `diffable bench --suite flat`: the C core's flat diff on the PERFORMANCE.md scenarios,
/// against the plain-Swift baseline (``BaselineDiff``) and Swift's
/// `difference(from:).inferringMoves()` on the same lists, in one process.
///
/// Inputs are made in phases so that a 10^7 row stays within memory: the engine's keys
/// (strings packed as bytes, hashed inside the timed region) are freed before the
/// baselines' arrays (`Int`s, or `String`s shared between old and new) exist.
enum FlatBench {
    static func measure(
        scenario: BenchScenario, keys: BenchKeys, count: Int, runs: Int, seed: UInt64, budget: BaselineBudget, log: BenchLog
    ) throws -> BenchRow {
        let label = "flat \(scenario.rawValue) \(keys.rawValue) n=\(BenchSizes.label(count))"
        log.step(label, phase: "inputs")
        var generator = BenchGenerator(seed: seed &+ UInt64(count))
        let newOrder = scenario.newOrder(count: count, using: &generator)
        var row = try engine(newOrder: newOrder, keys: keys, count: count, runs: runs, label: label, log: log)
        row.scenario = scenario.rawValue
        log.step(label, phase: "plain Swift")
        let oldOrder = Array(0..<count)
        let growth: BaselineGrowth = [.moveOne, .update].contains(scenario) ? .linear : .quadratic
        let series = "flat|\(scenario.rawValue)|\(keys.rawValue)"
        // Both baselines are planned first: their inputs (10^7 Strings take seconds to make
        // and to free) are made only when one of them runs.
        func baselines<T: Hashable>(_ convert: @escaping (Int) -> T, make: () -> (old: [T], new: [T])) {
            // One untimed conversion, then one timed run, on the scenario at a smaller n.
            func probe(_ size: Int, _ run: ([T], [T]) -> Void) -> Double {
                var generator = BenchGenerator(seed: seed &+ UInt64(size))
                let new = scenario.newOrder(count: size, using: &generator).map(convert)
                let old = (0..<size).map(convert)
                return Measure.seconds { run(old, new) }
            }
            let plainPlan = budget.plan(
                .plainSwift, series: series, count: count, runs: runs, growth: .linear, label: label, strings: keys == .string,
                probe: { size in probe(size) { _ = BaselineDiff.diff(old: $0, new: $1) } })
            let swiftPlan = budget.plan(
                .swiftDifference, series: series, count: count, runs: runs, growth: growth, label: label, strings: keys == .string,
                probe: { size in probe(size) { _ = swiftDifference(old: $0, new: $1) } })
            let (old, new) = plainPlan.skipped && swiftPlan.skipped ? ([], []) : make()
            var result: BaselineDiff.Result?
            row.record(.plainSwift, budget.measure(plainPlan) { result = BaselineDiff.diff(old: old, new: new) })
            row.minimalMoves = result?.moves
            log.step(label, phase: "difference(from:)")
            var swiftMoves = 0
            row.record(.swiftDifference, budget.measure(swiftPlan) { swiftMoves = swiftDifference(old: old, new: new) })
            if row.swiftDifferenceMilliseconds != nil, let minimal = row.minimalMoves, swiftMoves != minimal {
                row.notes.append("difference(from:).inferringMoves() found \(swiftMoves) moves")
            }
        }
        switch keys {
        case .int: baselines({ $0 }, make: { (oldOrder, newOrder) })
        case .random64: baselines(BenchKeys.scrambled) { (oldOrder.map(BenchKeys.scrambled), newOrder.map(BenchKeys.scrambled)) }
        case .string:
            baselines(BenchKeys.name) {
                let oldNames = BenchKeys.names(oldOrder)
                return (oldNames, BenchKeys.names(newOrder, shared: oldNames))
            }
        }
        if row.minimalMoves == nil { row.minimalMoves = BaselineDiff.minimalMoves(old: oldOrder, new: newOrder) }
        if let minimal = row.minimalMoves, let moves = row.moves, moves != minimal {
            throw BenchError("\(label): the engine emitted \(moves) moves, the baseline's minimum is \(minimal)")
        }
        return row
    }

    /// The core on trusted and on validated input: moves, workspace and times.
    private static func engine(newOrder: [Int], keys: BenchKeys, count: Int, runs: Int, label: String, log: BenchLog) throws -> BenchRow {
        let context = DiffContext()
        var outcome: (moves: Int, inserts: Int, deletes: Int) = (0, 0, 0)
        let oldIDs = Array(0..<count)
        let oldBytes = keys == .string ? BenchKeys.packedNames(oldIDs) : nil
        let newBytes = keys == .string ? BenchKeys.packedNames(newOrder) : nil
        let oldInts = keys == .string ? [] : oldIDs.map { UInt64(bitPattern: Int64(keys.integer($0))) }
        let newInts = keys == .string ? [] : newOrder.map { UInt64(bitPattern: Int64(keys.integer($0))) }
        // Strings are hashed inside the timed region: keying is part of their cost.
        func run(assumeUnique: Bool) throws {
            let oldKeys = oldBytes?.keys() ?? oldInts, newKeys = newBytes?.keys() ?? newInts
            let identity: DiffContext.Identity =
                if let oldBytes, let newBytes { .bytes(old: oldBytes, new: newBytes) } else { .injective }
            outcome = try oldKeys.withUnsafeBufferPointer { old in
                try newKeys.withUnsafeBufferPointer { new in
                    try context.withFlatDiff(old: old, new: new, identity: identity, assumeUnique: assumeUnique) {
                        ($0.moveTo.count, $0.inserts.count, $0.deletes.count)
                    }
                }
            }
        }
        log.step(label, phase: "Diffable")
        let trusted = try Measure.median(runs: runs) { try run(assumeUnique: true) }
        // The validated column is secondary: where one run takes over half a second, 3 runs do.
        let validatedRuns = trusted > 0.5 ? min(runs, 3) : runs
        let validated = try Measure.median(runs: validatedRuns) { try run(assumeUnique: false) }
        var row = BenchRow(suite: "flat", scenario: "", keys: keys.rawValue, count: count, milliseconds: trusted * 1000, runs: runs)
        if validatedRuns < runs { row.notes.append("\(label): validated time is the median of \(validatedRuns) runs") }
        row.validatedMilliseconds = validated * 1000
        row.moves = outcome.moves
        row.workingBytesPerItem = Double(context.byteCount) / Double(max(count, 1))
        return row
    }

    /// Runs `new.difference(from: old).inferringMoves()`; returns the moves it found.
    static func swiftDifference<T: Hashable>(old: [T], new: [T]) -> Int {
        new.difference(from: old).inferringMoves().reduce(0) { count, change in
            if case .insert(_, _, let associated) = change, associated != nil { return count + 1 }
            return count
        }
    }
}
