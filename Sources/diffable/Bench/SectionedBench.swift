import Diffable
import DiffableTools
import Foundation

/// `difference(from:)` on two snapshots of 1M items in 10k sections with 10% churn
/// (delete 5%, move 5% to random places in any section, insert 5%).
enum SectionedBench {
    struct Row: Codable {
        var keys: String
        var itemCount: Int
        var sectionCount: Int
        var differenceMilliseconds: Double
        var structuralOperations: Int
        var movedItems: Int
    }

    /// DifferenceKit's sectioned figures on this kind of machine (PERFORMANCE.md).
    static let differenceKitMilliseconds = ["int": 864.0, "string": 1295.0]

    static func run(itemCount: Int = 1_000_000, sectionCount: Int = 10_000, runs: Int) -> [Row] {
        let (oldLayout, newLayout) = SectionedWorkload.churn(itemCount: itemCount, sectionCount: sectionCount, seed: 3)
        func measure<Item: Hashable>(_ keys: String, _ item: (Int) -> Item) -> Row {
            FileHandle.standardError.write(Data("bench sectioned: \(keys) n=\(itemCount)\n".utf8))
            let old = SectionedWorkload.snapshot(oldLayout, item), new = SectionedWorkload.snapshot(newLayout, item)
            var difference = new.difference(from: old)
            let seconds = Measure.median(runs: runs) { difference = new.difference(from: old) }
            let batch = difference.structuralBatch ?? BatchUpdate()
            return Row(
                keys: keys, itemCount: itemCount, sectionCount: sectionCount, differenceMilliseconds: seconds * 1000,
                structuralOperations: batch.operationCount, movedItems: batch.moveItems.count)
        }
        return [measure("int") { $0 }, measure("string") { BenchKeyKind.name($0) }]
    }

    static func table(_ rows: [Row]) -> String {
        var lines = [
            "| keys | items | sections | difference(from:) ms | operations | item moves | DifferenceKit sectioned ms (PERFORMANCE.md) | × |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            let kit = differenceKitMilliseconds[row.keys] ?? 0
            lines.append(
                String(
                    format: "| %@ | %d | %d | %.1f | %d | %d | %.0f | %.1f |", row.keys, row.itemCount, row.sectionCount,
                    row.differenceMilliseconds, row.structuralOperations, row.movedItems, kit, kit / row.differenceMilliseconds))
        }
        return lines.joined(separator: "\n")
    }
}
