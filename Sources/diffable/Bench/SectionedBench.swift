import Diffable
import DiffableTools
import Foundation

/// `difference(from:)` on two snapshots through the public API, against the plain-Swift
/// two-level diff (``BaselineSectionedDiff``) on the same identifiers in the same run:
/// - churn: 1M items in 10k sections, delete 5%, move 5% to random places in any section,
///   insert 5%;
/// - re-sort: one section of 1M items fully shuffled ("sort by name" → "sort by date").
///
/// Each runs with sequential `Int` ids, random 64-bit `Int` ids (UUID-like: the same
/// layout with every id scrambled by a bijection) and `"item-%011d"` strings.
enum SectionedBench {
    struct Row: Codable {
        var workload: String
        var keys: String
        var itemCount: Int
        var sectionCount: Int
        var differenceMilliseconds: Double
        /// The plain-Swift two-level diff, same identifiers, same run.
        var baselineMilliseconds: Double
        var structuralOperations: Int
        var movedItems: Int
        /// Moves the baseline counts (per section matched − LIS, plus cross-section moves).
        var minimalMoves: Int
    }

    /// DifferenceKit's sectioned churn figures on this kind of machine (PERFORMANCE.md).
    static let differenceKitMilliseconds = ["int": 864.0, "string": 1295.0]

    /// The identifier kinds every workload runs with.
    enum Keys: String, CaseIterable {
        case int, random64, string
    }

    static func run(itemCount: Int = 1_000_000, sectionCount: Int = 10_000, runs: Int) -> [Row] {
        let churn = SectionedWorkload.churn(itemCount: itemCount, sectionCount: sectionCount, seed: 3)
        var generator = BenchGenerator(seed: 5)
        let sorted = Array(0..<itemCount)
        let resort = (old: [sorted], new: [sorted.shuffled(using: &generator)])
        var rows: [Row] = []
        for (workload, layout) in [("churn", churn), ("re-sort", resort)] {
            for keys in Keys.allCases {
                FileHandle.standardError.write(Data("bench sectioned: \(workload) \(keys.rawValue) n=\(itemCount)\n".utf8))
                let row: Row
                switch keys {
                case .int: row = measure(workload, keys, layout, runs: runs) { $0 }
                case .random64: row = measure(workload, keys, layout, runs: runs, scrambled)
                case .string: row = measure(workload, keys, layout, runs: runs, BenchKeyKind.name)
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// A bijection of 64-bit integers (SplitMix64's finalizer): distinct ids stay distinct,
    /// and their bits look random, as UUID-derived or database-assigned ids do.
    static func scrambled(_ id: Int) -> Int {
        var z = UInt64(bitPattern: Int64(id)) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(bitPattern: UInt(z ^ (z >> 31)))
    }

    private static func measure<Item: Hashable>(
        _ workload: String, _ keys: Keys, _ layout: (old: [[Int]], new: [[Int]]), runs: Int, _ item: (Int) -> Item
    ) -> Row {
        let old = SectionedWorkload.snapshot(layout.old, item), new = SectionedWorkload.snapshot(layout.new, item)
        var difference = new.difference(from: old)
        let seconds = Measure.median(runs: runs) { difference = new.difference(from: old) }
        let oldItems = layout.old.map { $0.map(item) }, newItems = layout.new.map { $0.map(item) }
        let oldSections = Array(layout.old.indices), newSections = Array(layout.new.indices)
        var baseline = BaselineSectionedDiff.Result(deletes: 0, inserts: 0, moves: 0)
        let baselineSeconds = Measure.median(runs: runs) {
            baseline = BaselineSectionedDiff.diff(oldSections: oldSections, old: oldItems, newSections: newSections, new: newItems)
        }
        let batch = difference.structuralBatch ?? BatchUpdate()
        return Row(
            workload: workload, keys: keys.rawValue, itemCount: old.numberOfItems, sectionCount: old.numberOfSections,
            differenceMilliseconds: seconds * 1000, baselineMilliseconds: baselineSeconds * 1000,
            structuralOperations: batch.operationCount, movedItems: batch.moveItems.count, minimalMoves: baseline.moves)
    }

    static func table(_ rows: [Row]) -> String {
        var lines = [
            "| workload | keys | items | sections | difference(from:) ms | naive Swift ms | × | operations | item moves (minimal) "
                + "| DifferenceKit sectioned ms (PERFORMANCE.md) | × |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            let kit = row.workload == "churn" ? differenceKitMilliseconds[row.keys] : nil
            lines.append(
                String(
                    format: "| %@ | %@ | %d | %d | %.1f | %.1f | %.2f | %d | %d (%d) | %@ | %@ |", row.workload, row.keys,
                    row.itemCount, row.sectionCount, row.differenceMilliseconds, row.baselineMilliseconds,
                    row.baselineMilliseconds / max(row.differenceMilliseconds, 1e-6), row.structuralOperations, row.movedItems,
                    row.minimalMoves, kit.map { String(format: "%.0f", $0) } ?? "—",
                    kit.map { String(format: "%.1f", $0 / row.differenceMilliseconds) } ?? "—"))
        }
        return lines.joined(separator: "\n")
    }
}
