import Diffable
import Foundation

/// One measured row of `diffable bench`.
struct BenchRow: Codable {
    var scenario: String
    var keys: String
    var count: Int
    /// Trusted input (unique by construction, as a snapshot's): run-following match.
    var coreMilliseconds: Double
    var coreNanosecondsPerItem: Double
    /// Untrusted input: every identifier hashed and checked for duplicates.
    var validatedMilliseconds: Double
    var moves: Int
    var minimalMoves: Int
    var inserts: Int
    var deletes: Int
    var workspaceBytes: Int
    var baselineMilliseconds: Double
    var swiftDifferenceMilliseconds: Double?
    var swiftDifferenceMoves: Int?

    static func measure(
        scenario: BenchScenario, key: BenchKeyKind, count: Int, runs: Int, seed: UInt64, swiftLimit: Int
    ) throws -> BenchRow {
        var generator = BenchGenerator(seed: seed &+ UInt64(count))
        let newOrder = scenario.newOrder(count: count, using: &generator)
        let oldOrder = Array(0..<count)
        let context = DiffContext()
        var core: (moves: Int, inserts: Int, deletes: Int) = (0, 0, 0)
        let oldBytes = key == .string ? DiffContext.ByteList(strings: oldOrder.map(BenchKeyKind.name)) : nil
        let newBytes = key == .string ? DiffContext.ByteList(strings: newOrder.map(BenchKeyKind.name)) : nil
        let oldInts = oldOrder.map { UInt64($0) }, newInts = newOrder.map { UInt64($0) }
        // Strings are hashed inside the timed region: keying is part of their cost.
        func runCore(assumeUnique: Bool) throws {
            let oldKeys = oldBytes?.keys() ?? oldInts, newKeys = newBytes?.keys() ?? newInts
            let identity: DiffContext.Identity =
                if let oldBytes, let newBytes { .bytes(old: oldBytes, new: newBytes) } else { .injective }
            core = try oldKeys.withUnsafeBufferPointer { old in
                try newKeys.withUnsafeBufferPointer { new in
                    try context.withFlatDiff(old: old, new: new, identity: identity, assumeUnique: assumeUnique) {
                        ($0.moveTo.count, $0.inserts.count, $0.deletes.count)
                    }
                }
            }
        }
        let coreSeconds = try Measure.median(runs: runs) { try runCore(assumeUnique: true) }
        let validatedSeconds = try Measure.median(runs: runs) { try runCore(assumeUnique: false) }
        let baseline: BaselineDiff.Result
        let baselineSeconds: Double
        var swiftSeconds: Double?
        var swiftMoves: Int?
        switch key {
        case .int:
            var result = BaselineDiff.Result(deletes: 0, inserts: 0, moves: 0)
            baselineSeconds = Measure.median(runs: runs) { result = BaselineDiff.diff(old: oldOrder, new: newOrder) }
            baseline = result
            if count <= swiftLimit { (swiftSeconds, swiftMoves) = swiftDifference(oldOrder, newOrder, runs: runs) }
        case .string:
            let oldNames = oldOrder.map(BenchKeyKind.name), newNames = newOrder.map(BenchKeyKind.name)
            var result = BaselineDiff.Result(deletes: 0, inserts: 0, moves: 0)
            baselineSeconds = Measure.median(runs: runs) { result = BaselineDiff.diff(old: oldNames, new: newNames) }
            baseline = result
            if count <= swiftLimit { (swiftSeconds, swiftMoves) = swiftDifference(oldNames, newNames, runs: runs) }
        }
        guard core.inserts == baseline.inserts, core.deletes == baseline.deletes else {
            throw BenchError("engine and baseline disagree on \(scenario.rawValue) n=\(count)")
        }
        return BenchRow(
            scenario: scenario.rawValue, keys: key.rawValue, count: count, coreMilliseconds: coreSeconds * 1000,
            coreNanosecondsPerItem: coreSeconds * 1e9 / Double(max(count, 1)),
            validatedMilliseconds: validatedSeconds * 1000, moves: core.moves,
            minimalMoves: baseline.moves, inserts: core.inserts, deletes: core.deletes,
            workspaceBytes: context.byteCount, baselineMilliseconds: baselineSeconds * 1000,
            swiftDifferenceMilliseconds: swiftSeconds.map { $0 * 1000 }, swiftDifferenceMoves: swiftMoves)
    }

    private static func swiftDifference<T: Hashable>(_ old: [T], _ new: [T], runs: Int) -> (Double, Int) {
        var moves = 0
        // Swift's Myers diff is slow: fewer runs keep the row affordable.
        let seconds = Measure.median(runs: min(runs, 3)) {
            let difference = new.difference(from: old).inferringMoves()
            moves = difference.reduce(0) { count, change in
                if case .insert(_, _, let associated) = change, associated != nil { return count + 1 }
                return count
            }
        }
        return (seconds, moves)
    }

    static func table(_ rows: [BenchRow]) -> String {
        func format(_ value: Double) -> String {
            value >= 100 ? String(format: "%.0f", value) : value >= 1 ? String(format: "%.2f", value) : String(format: "%.3f", value)
        }
        var lines = [
            "| scenario | keys | n | C core ms | ns/item | validated ms | moves (minimal) | workspace B/item | Swift baseline ms | × | difference(from:) ms | × |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            let swift = row.swiftDifferenceMilliseconds.map(format) ?? "—"
            let swiftRatio = row.swiftDifferenceMilliseconds.map { format($0 / max(row.coreMilliseconds, 1e-6)) } ?? "—"
            lines.append(
                "| \(row.scenario) | \(row.keys) | \(row.count) | \(format(row.coreMilliseconds)) | "
                    + "\(format(row.coreNanosecondsPerItem)) | \(format(row.validatedMilliseconds)) | "
                    + "\(row.moves) (\(row.minimalMoves)) | \(row.workspaceBytes / max(row.count, 1)) | "
                    + "\(format(row.baselineMilliseconds)) | \(format(row.baselineMilliseconds / max(row.coreMilliseconds, 1e-6))) | "
                    + "\(swift) | \(swiftRatio) |")
        }
        return lines.joined(separator: "\n")
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
