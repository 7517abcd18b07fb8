import Diffable
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

    static func layout(itemCount: Int, sectionCount: Int, seed: UInt64) -> (old: [[Int]], new: [[Int]]) {
        var generator = BenchGenerator(seed: seed)
        let perSection = itemCount / sectionCount
        let old = (0..<sectionCount).map { Array(($0 * perSection)..<(($0 + 1) * perSection)) }
        var new = old
        let share = itemCount / 20
        for _ in 0..<share {  // delete 5%
            let s = Int.random(in: 0..<sectionCount, using: &generator)
            if !new[s].isEmpty { new[s].remove(at: Int.random(in: 0..<new[s].count, using: &generator)) }
        }
        for _ in 0..<share {  // move 5%, across sections
            let from = Int.random(in: 0..<sectionCount, using: &generator)
            guard !new[from].isEmpty else { continue }
            let item = new[from].remove(at: Int.random(in: 0..<new[from].count, using: &generator))
            let to = Int.random(in: 0..<sectionCount, using: &generator)
            new[to].insert(item, at: Int.random(in: 0...new[to].count, using: &generator))
        }
        for fresh in itemCount..<(itemCount + share) {  // insert 5%
            let to = Int.random(in: 0..<sectionCount, using: &generator)
            new[to].insert(fresh, at: Int.random(in: 0...new[to].count, using: &generator))
        }
        return (old, new)
    }

    static func snapshot<Item: Hashable>(_ sections: [[Int]], _ item: (Int) -> Item) -> DiffableDataSourceSnapshot<Int, Item> {
        var snapshot = DiffableDataSourceSnapshot<Int, Item>()
        snapshot.appendSections(Array(sections.indices))
        for (index, items) in sections.enumerated() { snapshot.appendItems(items.map(item), toSection: index) }
        return snapshot
    }

    static func run(itemCount: Int = 1_000_000, sectionCount: Int = 10_000, runs: Int) -> [Row] {
        let (oldLayout, newLayout) = layout(itemCount: itemCount, sectionCount: sectionCount, seed: 3)
        func measure<Item: Hashable>(_ keys: String, _ item: (Int) -> Item) -> Row {
            FileHandle.standardError.write(Data("bench sectioned: \(keys) n=\(itemCount)\n".utf8))
            let old = snapshot(oldLayout, item), new = snapshot(newLayout, item)
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
