import Diffable
import Foundation

/// `diffable bench --suite flat`: `ListDiffer().difference(from:to:)` (the public flat diff:
/// `[Int]` or `[String]` in, the identifiers' keys made inside the call) on the docs/PERFORMANCE.md
/// scenarios, against the plain-Swift baseline (``BaselineDiff``) and Swift's
/// `difference(from:).inferringMoves()` on the same arrays, in one process.
///
/// Every side gets the same arrays (one `String` per name, shared between old and new as an
/// app's model would), made once before anything is timed.
enum FlatBench {
    static func measure(
        scenario: BenchScenario, keys: BenchKeys, count: Int, runs: Int, seed: UInt64, budget: BaselineBudget, log: BenchLog
    ) throws -> BenchRow {
        let label = "flat \(scenario.rawValue) \(keys.rawValue) n=\(BenchSizes.label(count))"
        log.step(label, phase: "inputs")
        var generator = BenchGenerator(seed: seed &+ UInt64(count))
        let newOrder = scenario.newOrder(count: count, using: &generator)
        let oldOrder = Array(0..<count)
        let context = Context(
            scenario: scenario, keys: keys, count: count, runs: runs, seed: seed, budget: budget, log: log, label: label)
        var row: BenchRow
        switch keys {
        case .int:
            row = try context.measure(old: oldOrder, new: newOrder, convert: \.self) {
                try $0.difference(from: $1, to: $2, assumeUnique: $3)
            }
        case .random64:
            row = try context.measure(
                old: oldOrder.map(BenchKeys.scrambled), new: newOrder.map(BenchKeys.scrambled), convert: BenchKeys.scrambled
            ) {
                try $0.difference(from: $1, to: $2, assumeUnique: $3)
            }
        case .string:
            let oldNames = BenchKeys.names(oldOrder)
            row = try context.measure(old: oldNames, new: BenchKeys.names(newOrder, shared: oldNames), convert: BenchKeys.name) {
                try $0.difference(from: $1, to: $2, assumeUnique: $3)
            }
            // The trusted diff pairs the strings both lists share by their bits and keys the rest.
            row.identifiersHashed = "inside: trusted, the strings the lists do not share; validated, every side"
        }
        if row.minimalMoves == nil { row.minimalMoves = BaselineDiff.minimalMoves(old: oldOrder, new: newOrder) }
        if let minimal = row.minimalMoves, let moves = row.moves, moves != minimal {
            throw BenchError("\(label): ListDiffer found \(moves) moves, the baseline's minimum is \(minimal)")
        }
        return row
    }

    /// What one row needs besides its arrays.
    private struct Context {
        var scenario: BenchScenario
        var keys: BenchKeys
        var count: Int
        var runs: Int
        var seed: UInt64
        var budget: BaselineBudget
        var log: BenchLog
        var label: String

        /// `diff` through a fresh `ListDiffer` (warm after the warm-up run, as an app's reused
        /// one is) on trusted and on validated input, then both baselines on the same arrays.
        func measure<T: Hashable>(
            old: [T], new: [T], convert: @escaping (Int) -> T,
            diff: (ListDiffer, [T], [T], _ assumeUnique: Bool) throws -> ListDifference
        ) throws -> BenchRow {
            let differ = ListDiffer()
            var moves = 0
            func run(assumeUnique: Bool) throws {
                do {
                    moves = try diff(differ, old, new, assumeUnique).moves.count
                } catch {
                    throw BenchError("\(label): \(error)")
                }
            }
            log.step(label, phase: "Diffable")
            let trusted = try Measure.median(runs: runs) { try run(assumeUnique: true) }
            // The validated column is secondary: where one run takes over half a second, 3 runs do.
            let validatedRuns = trusted > 0.5 ? min(runs, 3) : runs
            let validated = try Measure.median(runs: validatedRuns) { try run(assumeUnique: false) }
            var row = BenchRow(
                suite: "flat", scenario: scenario.rawValue, keys: keys.rawValue, count: count, milliseconds: trusted * 1000, runs: runs)
            if validatedRuns < runs { row.notes.append("\(label): validated time is the median of \(validatedRuns) runs") }
            row.validatedMilliseconds = validated * 1000
            row.moves = moves
            row.workingBytesPerItem = Double(differ.workspaceByteCount) / Double(max(count, 1))
            row.identifiersHashed = "inside, every side"
            baselines(old: old, new: new, convert: convert, into: &row)
            return row
        }

        /// Both baselines, each planned first from a probe at a smaller n (skipped or cut
        /// short when over the budget).
        private func baselines<T: Hashable>(old: [T], new: [T], convert: @escaping (Int) -> T, into row: inout BenchRow) {
            log.step(label, phase: "plain Swift")
            let growth: BaselineGrowth = [.moveOne, .update].contains(scenario) ? .linear : .quadratic
            let series = "flat|\(scenario.rawValue)|\(keys.rawValue)"
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
                probe: { size in probe(size) { _ = FlatBench.swiftDifference(old: $0, new: $1) } })
            var result: BaselineDiff.Result?
            row.record(.plainSwift, budget.measure(plainPlan) { result = BaselineDiff.diff(old: old, new: new) })
            row.minimalMoves = result?.moves
            log.step(label, phase: "difference(from:)")
            var swiftMoves = 0
            row.record(.swiftDifference, budget.measure(swiftPlan) { swiftMoves = FlatBench.swiftDifference(old: old, new: new) })
            if row.swiftDifferenceMilliseconds != nil, let minimal = row.minimalMoves, swiftMoves != minimal {
                row.notes.append("difference(from:).inferringMoves() found \(swiftMoves) moves")
            }
        }
    }

    /// Runs `new.difference(from: old).inferringMoves()`; returns the moves it found.
    static func swiftDifference<T: Hashable>(old: [T], new: [T]) -> Int {
        new.difference(from: old).inferringMoves().reduce(0) { count, change in
            if case .insert(_, _, let associated) = change, associated != nil { return count + 1 }
            return count
        }
    }
}
