import Diffable
import DiffableTools
import Foundation

/// `diffable bench --suite outline`: a section snapshot of about n items (5 levels, the
/// fan-out that comes nearest: 16 for 10^6, 1,118,480 items) against a naive tree model,
/// operation by operation, in the same run.
enum OutlineBench {
    /// The outline nearest `count` items: 5 levels of fan-out round(count^(1/5)), at least 2.
    static func workload(count: Int) -> OutlineWorkload {
        OutlineWorkload(fanOut: max(2, Int(pow(Double(count), 0.2).rounded())), depth: 5)
    }

    /// The naive tree model: an array of nodes, each with an array of child node
    /// indices, plus a Dictionary from item to node (so lookups are O(1) too).
    struct NaiveOutline<Item: Hashable> {
        struct Node {
            var item: Item
            var parent: Int
            var children: [Int] = []
            var isExpanded = false
        }
        var nodes: [Node] = []
        var roots: [Int] = []
        var nodeOfItem: [Item: Int] = [:]

        mutating func append(_ items: [Item], to parent: Item?) {
            let parentNode = parent.map { nodeOfItem[$0]! } ?? -1
            for item in items {
                nodeOfItem[item] = nodes.count
                if parentNode < 0 { roots.append(nodes.count) } else { nodes[parentNode].children.append(nodes.count) }
                nodes.append(Node(item: item, parent: parentNode))
            }
        }

        mutating func setExpanded(_ items: [Item], _ value: Bool) {
            for item in items {
                if let node = nodeOfItem[item] { nodes[node].isExpanded = value }
            }
        }

        func isVisible(_ item: Item) -> Bool {
            guard var node = nodeOfItem[item] else { return false }
            while nodes[node].parent >= 0 {
                node = nodes[node].parent
                if !nodes[node].isExpanded { return false }
            }
            return true
        }

        var visibleItems: [Item] {
            var result: [Item] = []
            func walk(_ children: [Int]) {
                for node in children {
                    result.append(nodes[node].item)
                    if nodes[node].isExpanded { walk(nodes[node].children) }
                }
            }
            walk(roots)
            return result
        }

        /// The visible rows as node numbers. Two versions of one tree built by appends number
        /// every item alike, so diffing these matches items by a number made when each was
        /// added, as the outline's diff matches the keys it made then: no identifier is hashed.
        var visibleNodes: [Int] {
            var result: [Int] = []
            func walk(_ children: [Int]) {
                for node in children {
                    result.append(node)
                    if nodes[node].isExpanded { walk(nodes[node].children) }
                }
            }
            walk(roots)
            return result
        }
    }

    /// Median of `runs` timed calls of `body`, each after an untimed `setup`.
    static func median(runs: Int, setup: () -> Void = {}, body: () -> Void) -> Double {
        Measure.median(runs: runs, setup: setup, body: body) * 1000
    }

    static func measure(keys: BenchKeys, count: Int, runs: Int, seed: UInt64, log: BenchLog) -> [BenchRow] {
        let workload = workload(count: count)
        switch keys {
        case .int: return measure(keys, workload, runs, seed, log) { $0 }
        case .random64: return measure(keys, workload, runs, seed, log, BenchKeys.scrambled)
        case .string:
            // One name more than the outline holds: the general-path row appends item itemCount.
            let names = (0...workload.itemCount).map(BenchKeys.name)
            return measure(keys, workload, runs, seed, log) { names[$0] }
        }
    }

    private static func measure<Item: Hashable>(
        _ keys: BenchKeys, _ workload: OutlineWorkload, _ runs: Int, _ seed: UInt64, _ benchLog: BenchLog, _ id: (Int) -> Item
    ) -> [BenchRow] {
        let label = "outline \(keys.rawValue) n=\(workload.itemCount)"
        func log(_ text: String) { benchLog.step(label, phase: text) }
        var rows: [BenchRow] = []
        func row(_ operation: String, _ diffable: Double, _ naive: Double, hashed: Bool = true) {
            var row = BenchRow(
                suite: "outline", scenario: operation, keys: keys.rawValue, count: workload.itemCount, milliseconds: diffable, runs: runs)
            row.baselineMilliseconds = naive
            row.baselineRuns = runs
            row.identifiersHashed = hashed ? "inside, both sides" : "neither side"
            row.notes = ["\(workload.depth) levels, fan-out \(workload.fanOut)"]
            rows.append(row)
        }
        // The calls' arguments are made before any timing, as an app has its children lists
        // before it builds an outline: the build rows time the appends, not the making of
        // 135,000 small arrays (the same cost for both models: docs/PERFORMANCE.md).
        var appends: [([Item], Item?)] = []
        workload.forEachAppend { appends.append(($0.map(id), $1.map(id))) }
        func forEachAppend(_ body: ([Item], Item?) -> Void) { for (children, parent) in appends { body(children, parent) } }
        var outline = DiffableDataSourceSectionSnapshot<Item>()
        var naive = NaiveOutline<Item>()

        log("build")
        // Page faults per build, counted apart: on a machine where the kernel's first touch of
        // a page is slow, they are much of both models' build time.
        var faults: [Int] = [], naiveFaults: [Int] = []
        func countingFaults(_ counts: inout [Int], _ body: () -> Void) {
            let before = MemoryFloor.minorFaults()
            body()
            counts.append(MemoryFloor.minorFaults() - before)
        }
        let build = median(
            runs: runs, setup: { outline = DiffableDataSourceSectionSnapshot() },
            body: { countingFaults(&faults) { forEachAppend { outline.append($0, to: $1) } } })
        let naiveBuild = median(
            runs: runs, setup: { naive = NaiveOutline() },
            body: { countingFaults(&naiveFaults) { forEachAppend { naive.append($0, to: $1) } } })
        let items = outline.items
        let count = items.count
        row("build (append in outline order)", build, naiveBuild)
        // The floors, where they matter: a small outline stays in the caches and makes few pages.
        let showsFloors = count >= 100_000
        if showsFloors {
            let pageMicroseconds = MemoryFloor.firstTouchMicrosecondsPerPage(bytes: 64 << 20, runs: runs)
            func kernelShare(_ counts: [Int]) -> String {
                let median = counts.sorted()[counts.count / 2]
                return "\(median) page faults (\(BenchTable.number(Double(median) * pageMicroseconds / 1000)) ms)"
            }
            rows[rows.count - 1].notes.append(
                "build: a page's first touch costs \(BenchTable.number(pageMicroseconds)) µs here; Diffable's build took "
                    + "\(kernelShare(faults)), the naive tree's \(kernelShare(naiveFaults)); 10× the naive tree would be "
                    + "\(BenchTable.number(naiveBuild / 10)) ms in all")
        }

        // Every timed mutation starts from the same state, in storage of its own (no copy is timed).
        // Each model is reset on its own: the other keeps the state its last timed run left.
        func reset(_ expanded: Bool) { if expanded { outline.expand(items) } else { outline.collapse(items) } }
        func resetNaive(_ expanded: Bool) { naive.setExpanded(items, expanded) }
        log("expand all")
        let expandAll = median(runs: runs, setup: { reset(false) }, body: { outline.expand(items) })
        let naiveExpandAll = median(runs: runs, setup: { resetNaive(false) }, body: { naive.setExpanded(items, true) })
        row("expand all", expandAll, naiveExpandAll)

        log("visibleItems")
        var checksum = 0
        precondition(outline.visibleItems == naive.visibleItems && naive.visibleItems.count == count, "expand all did not show everything")
        let visible = median(runs: runs) { checksum &+= outline.visibleItems.count }
        let naiveVisible = median(runs: runs) { checksum &+= naive.visibleItems.count }
        row("visibleItems, all expanded", visible, naiveVisible, hashed: false)

        log("isVisible")
        // Each model is read through a local constant, as a function handed a snapshot reads it:
        // a captured variable would make every call retain and release the storage.
        let isVisible = median(runs: runs) {
            let model = outline
            for item in items where model.isVisible(item) { checksum &+= 1 }
        }
        let naiveIsVisible = median(runs: runs) {
            let model = naive
            for item in items where model.isVisible(item) { checksum &+= 1 }
        }
        row("isVisible on every item, all expanded", isVisible, naiveIsVisible)

        log("collapse all")
        let collapseAll = median(runs: runs, setup: { reset(true) }, body: { outline.collapse(items) })
        let naiveCollapseAll = median(runs: runs, setup: { resetNaive(true) }, body: { naive.setExpanded(items, false) })
        row("collapse all", collapseAll, naiveCollapseAll)

        log("random expand/collapse")
        var generator = BenchGenerator(seed: seed &+ 5)
        let toggles = (0..<1_000).map { _ in items[Int.random(in: 0..<count, using: &generator)] }
        // A tap finds nothing cached: both models start each run with cold caches (each one's
        // reset touched its own structures in a different way).
        let toggle = median(
            runs: runs,
            setup: {
                reset(false)
                Measure.evictCaches()
            },
            body: {
                for (index, item) in toggles.enumerated() {
                    if index % 2 == 0 { outline.expand([item]) } else { outline.collapse([item]) }
                }
            })
        let naiveToggle = median(
            runs: runs,
            setup: {
                resetNaive(false)
                Measure.evictCaches()
            },
            body: { for (index, item) in toggles.enumerated() { naive.setExpanded([item], index % 2 == 0) } })
        row("1,000 random expand/collapse", toggle, naiveToggle)
        if showsFloors {
            let coldRead = MemoryFloor.dependentColdReadNanoseconds(
                bytes: count * MemoryLayout<Item>.stride, reads: toggles.count, runs: runs, seed: seed &+ 6)
            rows[rows.count - 1].notes.append(
                "expand/collapse: a cold read whose address comes from the read before costs \(BenchTable.number(coldRead)) ns "
                    + "here, and a toggle needs two such reads (a table slot, then the identifier it names); 10× the naive tree "
                    + "would leave \(BenchTable.number(naiveToggle * 1e6 / Double(toggles.count) / 10)) ns per toggle")
        }

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
        // With everything expanded the rows are the identifiers themselves, shared; with some
        // parents collapsed they are gathered run by run.
        log("visibleItems, some collapsed")
        precondition(old.visibleItems == naiveOld.visibleItems, "the visible rows disagree")
        let someVisible = median(runs: runs) { checksum &+= old.visibleItems.count }
        let naiveSomeVisible = median(runs: runs) { checksum &+= naiveOld.visibleItems.count }
        row("visibleItems, 1,000 parents of leaves collapsed", someVisible, naiveSomeVisible, hashed: false)
        var inserted = 0
        let difference = median(runs: runs) { inserted = outline.difference(from: old).insertedItemCount }
        var naiveInserted = 0
        let naiveDifference = median(runs: runs) {
            naiveInserted = BaselineDiff.diff(old: naiveOld.visibleNodes, new: naive.visibleNodes).inserts
        }
        precondition(
            inserted == naiveInserted && inserted == parents.count * workload.fanOut, "the diffs disagree: \(inserted) vs \(naiveInserted)")
        row("visible-rows diff after expanding 1,000 parents", difference, naiveDifference, hashed: false)

        // The same change plus one new root item: the trees differ, so the diff takes the
        // general path (the visible keys through the flat engine) instead of the
        // expansion-only walk.
        log("difference, general path")
        let extra = id(workload.itemCount)
        outline.append([extra])
        naive.append([extra], to: nil)
        let generalDifference = median(runs: runs) { inserted = outline.difference(from: old).insertedItemCount }
        let naiveGeneralDifference = median(runs: runs) {
            naiveInserted = BaselineDiff.diff(old: naiveOld.visibleNodes, new: naive.visibleNodes).inserts
        }
        precondition(
            inserted == naiveInserted && inserted == parents.count * workload.fanOut + 1,
            "the diffs disagree: \(inserted) vs \(naiveInserted)")
        row("same diff, one root item appended too (general path)", generalDifference, naiveGeneralDifference, hashed: false)
        if checksum == 42 { log("") }
        return rows
    }
}
