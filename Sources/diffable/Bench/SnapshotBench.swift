import Diffable
import Foundation

/// Snapshot operations at 1M items in 10k sections (issue figures: ra1028's
/// DiffableDataSources took 3.96 s to build, 73 ms per lookup, 1.9 s per move),
/// against a plain Array + Dictionary model in the same run.
enum SnapshotBench {
    struct Row: Codable {
        var operation: String
        var diffableMilliseconds: Double
        var plainSwiftMilliseconds: Double
    }

    /// A plain-Swift snapshot model: arrays of items per section and a Dictionary item → section.
    struct PlainModel {
        var sectionIDs: [Int] = []
        var items: [[Int]] = []
        var sectionOfItem: [Int: Int] = [:]
        var sectionIndex: [Int: Int] = [:]

        mutating func appendSection(_ id: Int) {
            sectionIndex[id] = items.count
            sectionIDs.append(id)
            items.append([])
        }
        mutating func append(_ ids: [Int], to section: Int) {
            let index = sectionIndex[section]!
            items[index].append(contentsOf: ids)
            for id in ids { sectionOfItem[id] = index }
        }
        func indexOfItem(_ id: Int) -> Int? {
            guard let section = sectionOfItem[id] else { return nil }
            var flat = 0
            for s in 0..<section { flat += items[s].count }
            return flat + items[section].firstIndex(of: id)!
        }
        mutating func moveItem(_ id: Int, after anchor: Int) {
            let from = sectionOfItem[id]!
            items[from].remove(at: items[from].firstIndex(of: id)!)
            let to = sectionOfItem[anchor]!
            items[to].insert(id, at: items[to].firstIndex(of: anchor)! + 1)
            sectionOfItem[id] = to
        }
        mutating func deleteItems(_ ids: [Int]) {
            let gone = Set(ids)
            for s in items.indices where items[s].contains(where: gone.contains) { items[s].removeAll { gone.contains($0) } }
            for id in ids { sectionOfItem[id] = nil }
        }
    }

    static func run(itemCount: Int = 1_000_000, sectionCount: Int = 10_000, runs: Int) -> [Row] {
        let perSection = itemCount / sectionCount
        var rows: [Row] = []
        var snapshot = DiffableDataSourceSnapshot<Int, Int>()
        var model = PlainModel()
        func log(_ text: String) { FileHandle.standardError.write(Data("bench snapshot: \(text)\n".utf8)) }

        log("build")
        let build = Measure.median(runs: runs) {
            snapshot = DiffableDataSourceSnapshot()
            snapshot.appendSections(Array(0..<sectionCount))
            for section in 0..<sectionCount {
                snapshot.appendItems(Array((section * perSection)..<((section + 1) * perSection)), toSection: section)
            }
        }
        let plainBuild = Measure.median(runs: runs) {
            model = PlainModel()
            for section in 0..<sectionCount {
                model.appendSection(section)
                model.append(Array((section * perSection)..<((section + 1) * perSection)), to: section)
            }
        }
        rows.append(
            Row(
                operation: "build \(itemCount) items in \(sectionCount) sections", diffableMilliseconds: build * 1000,
                plainSwiftMilliseconds: plainBuild * 1000))

        log("indexOfItem")
        var generator = BenchGenerator(seed: 9)
        let probes = (0..<100_000).map { _ in Int.random(in: 0..<itemCount, using: &generator) }
        var checksum = 0
        let lookups = Measure.median(runs: runs) { for probe in probes { checksum &+= snapshot.indexOfItem(probe)! } }
        let plainLookups = Measure.median(runs: 1) { for probe in probes.prefix(1000) { checksum &+= model.indexOfItem(probe)! } } * 100
        rows.append(
            Row(operation: "indexOfItem × 100,000", diffableMilliseconds: lookups * 1000, plainSwiftMilliseconds: plainLookups * 1000))

        log("moveItem")
        var movedSnapshot = snapshot
        movedSnapshot.reloadItems([0])  // forces a private copy before timing
        let oneMove = Measure.seconds { movedSnapshot.moveItem(0, afterItem: itemCount - 1) }
        var movedModel = model
        let plainMove = Measure.seconds { movedModel.moveItem(0, after: itemCount - 1) }
        rows.append(
            Row(
                operation: "one moveItem (first → last) at \(itemCount)", diffableMilliseconds: oneMove * 1000,
                plainSwiftMilliseconds: plainMove * 1000))

        log("deleteItems")
        let doomed = Array(stride(from: 0, to: itemCount, by: 20))
        var deleting = snapshot
        deleting.reloadItems([1])
        let delete = Measure.seconds { deleting.deleteItems(doomed) }
        var deletingModel = model
        let plainDelete = Measure.seconds { deletingModel.deleteItems(doomed) }
        rows.append(
            Row(
                operation: "deleteItems 5% at \(itemCount)", diffableMilliseconds: delete * 1000, plainSwiftMilliseconds: plainDelete * 1000
            ))
        if checksum == 42 { log("") }
        return rows
    }

    static func table(_ rows: [Row]) -> String {
        var lines = ["| operation | Diffable ms | plain Swift model ms | × |", "|---|---:|---:|---:|"]
        for row in rows {
            lines.append(
                String(
                    format: "| %@ | %.2f | %.2f | %.1f |", row.operation, row.diffableMilliseconds,
                    row.plainSwiftMilliseconds, row.plainSwiftMilliseconds / max(row.diffableMilliseconds, 1e-6)))
        }
        return lines.joined(separator: "\n")
    }
}
