import Diffable
import DiffableTools
import Foundation

/// `diffable bench --suite outline`: a section snapshot of 1,118,480 items (5 levels,
/// fan-out 16) against a naive tree model, operation by operation, in the same run.
enum OutlineBench {
    struct Row: Codable {
        var operation: String
        var diffableMilliseconds: Double
        var naiveMilliseconds: Double
    }

    /// The naive tree model: an array of nodes, each with an array of child node
    /// indices, plus a Dictionary from item to node (so lookups are O(1) too).
    struct NaiveOutline {
        struct Node {
            var item: Int
            var parent: Int
            var children: [Int] = []
            var isExpanded = false
        }
        var nodes: [Node] = []
        var roots: [Int] = []
        var nodeOfItem: [Int: Int] = [:]

        mutating func append(_ items: [Int], to parent: Int?) {
            let parentNode = parent.map { nodeOfItem[$0]! } ?? -1
            for item in items {
                nodeOfItem[item] = nodes.count
                if parentNode < 0 { roots.append(nodes.count) } else { nodes[parentNode].children.append(nodes.count) }
                nodes.append(Node(item: item, parent: parentNode))
            }
        }

        mutating func setExpanded(_ items: [Int], _ value: Bool) {
            for item in items {
                if let node = nodeOfItem[item] { nodes[node].isExpanded = value }
            }
        }

        func isVisible(_ item: Int) -> Bool {
            guard var node = nodeOfItem[item] else { return false }
            while nodes[node].parent >= 0 {
                node = nodes[node].parent
                if !nodes[node].isExpanded { return false }
            }
            return true
        }

        var visibleItems: [Int] {
            var result: [Int] = []
            func walk(_ children: [Int]) {
                for node in children {
                    result.append(nodes[node].item)
                    if nodes[node].isExpanded { walk(nodes[node].children) }
                }
            }
            walk(roots)
            return result
        }
    }

    static let workload = OutlineWorkload()

    /// Median of `runs` timed calls of `body`, each after an untimed `setup`.
    static func median(runs: Int, setup: () -> Void = {}, body: () -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<max(1, runs) {
            setup()
            samples.append(Measure.seconds(body))
        }
        return samples.sorted()[samples.count / 2] * 1000
    }

    static func run(runs: Int) -> [Row] {
        func log(_ text: String) { FileHandle.standardError.write(Data("bench outline: \(text)\n".utf8)) }
        var rows: [Row] = []
        var outline = DiffableDataSourceSectionSnapshot<Int>()
        var naive = NaiveOutline()

        log("build")
        let build = median(
            runs: runs, setup: { outline = DiffableDataSourceSectionSnapshot() },
            body: { workload.forEachAppend { outline.append($0, to: $1) } })
        let naiveBuild = median(
            runs: runs, setup: { naive = NaiveOutline() }, body: { workload.forEachAppend { naive.append($0, to: $1) } })
        let items = outline.items
        let count = items.count
        rows.append(Row(operation: "build (append in outline order)", diffableMilliseconds: build, naiveMilliseconds: naiveBuild))

        // Every timed mutation starts from the same state, in storage of its own (no copy is timed).
        // Each model is reset on its own: the other keeps the state its last timed run left.
        func reset(_ expanded: Bool) { if expanded { outline.expand(items) } else { outline.collapse(items) } }
        func resetNaive(_ expanded: Bool) { naive.setExpanded(items, expanded) }
        log("expand all")
        let expandAll = median(runs: runs, setup: { reset(false) }, body: { outline.expand(items) })
        let naiveExpandAll = median(runs: runs, setup: { resetNaive(false) }, body: { naive.setExpanded(items, true) })
        rows.append(Row(operation: "expand all (\(count) items)", diffableMilliseconds: expandAll, naiveMilliseconds: naiveExpandAll))

        log("visibleItems")
        var checksum = 0
        precondition(outline.visibleItems == naive.visibleItems && naive.visibleItems.count == count, "expand all did not show everything")
        let visible = median(runs: runs) { checksum &+= outline.visibleItems.count }
        let naiveVisible = median(runs: runs) { checksum &+= naive.visibleItems.count }
        rows.append(Row(operation: "visibleItems, all expanded", diffableMilliseconds: visible, naiveMilliseconds: naiveVisible))

        log("isVisible")
        let isVisible = median(runs: runs) { for item in items where outline.isVisible(item) { checksum &+= 1 } }
        let naiveIsVisible = median(runs: runs) { for item in items where naive.isVisible(item) { checksum &+= 1 } }
        rows.append(
            Row(operation: "isVisible on every item, all expanded", diffableMilliseconds: isVisible, naiveMilliseconds: naiveIsVisible))

        log("collapse all")
        let collapseAll = median(runs: runs, setup: { reset(true) }, body: { outline.collapse(items) })
        let naiveCollapseAll = median(runs: runs, setup: { resetNaive(true) }, body: { naive.setExpanded(items, false) })
        rows.append(
            Row(operation: "collapse all (\(count) items)", diffableMilliseconds: collapseAll, naiveMilliseconds: naiveCollapseAll))

        log("random expand/collapse")
        var generator = BenchGenerator(seed: 5)
        let toggles = (0..<1_000).map { _ in items[Int.random(in: 0..<count, using: &generator)] }
        let toggle = median(
            runs: runs, setup: { reset(false) },
            body: {
                for (index, item) in toggles.enumerated() {
                    if index % 2 == 0 { outline.expand([item]) } else { outline.collapse([item]) }
                }
            })
        let naiveToggle = median(
            runs: runs, setup: { resetNaive(false) },
            body: { for (index, item) in toggles.enumerated() { naive.setExpanded([item], index % 2 == 0) } })
        rows.append(
            Row(operation: "1,000 random expand/collapse", diffableMilliseconds: toggle, naiveMilliseconds: naiveToggle))

        log("difference")
        // Everything expanded but 1,000 random parents of leaves; then those are expanded too.
        let lastInternal = items.filter { outline.level(of: $0) == workload.depth - 2 }
        let parents = Array(lastInternal.shuffled(using: &generator).prefix(1_000))
        outline.expand(items)
        naive.setExpanded(items, true)
        var old = outline
        old.collapse(parents)
        var naiveOld = naive
        naiveOld.setExpanded(parents, false)
        var inserted = 0
        let difference = median(runs: runs) { inserted = outline.difference(from: old).insertedItemCount }
        var naiveInserted = 0
        let naiveDifference = median(runs: runs) {
            naiveInserted = BaselineDiff.diff(old: naiveOld.visibleItems, new: naive.visibleItems).inserts
        }
        precondition(
            inserted == naiveInserted && inserted == 1_000 * workload.fanOut, "the diffs disagree: \(inserted) vs \(naiveInserted)")
        rows.append(
            Row(
                operation: "visible-rows diff after expanding 1,000 parents (\(old.visibleItems.count) → \(count) rows)",
                diffableMilliseconds: difference, naiveMilliseconds: naiveDifference))
        if checksum == 42 { log("") }
        return rows
    }

    static func table(_ rows: [Row]) -> String {
        var lines = ["| operation | Diffable ms | naive tree ms | × |", "|---|---:|---:|---:|"]
        for row in rows {
            lines.append(
                String(
                    format: "| %@ | %.2f | %.2f | %.1f |", row.operation, row.diffableMilliseconds, row.naiveMilliseconds,
                    row.naiveMilliseconds / max(row.diffableMilliseconds, 1e-6)))
        }
        return lines.joined(separator: "\n")
    }
}
