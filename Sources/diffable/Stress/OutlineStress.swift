import Diffable
import DiffableTesting
import DiffableTools
import Foundation

/// The outline shape: ``OutlineWorkload`` with 5 levels and the fan-out that comes nearest to
/// the asked item count (25 → 10,172,525 items), items numbered in outline order, through
/// build, expand all, visibleItems, the visible-rows diff, a data-source apply, collapse all,
/// inserts and deletes.
struct OutlineStress {
    typealias Outline = DiffableDataSourceSectionSnapshot<Int>
    static let shape = "outline"

    let workload: OutlineWorkload
    let seed: UInt64
    var itemCount: Int { workload.itemCount }
    var fanOut: Int { workload.fanOut }

    /// - Complexity: O(1).
    init(itemCount: Int, seed: UInt64) {
        let depth = 5
        let fanOut = max(2, Int(exp(log(Double(max(itemCount, 1))) / Double(depth)).rounded()))
        workload = OutlineWorkload(fanOut: fanOut, depth: depth)
        self.seed = seed
    }

    /// Items in the subtree of an item at `level`, the item included. - Complexity: O(depth).
    func subtreeSize(level: Int) -> Int {
        var size = 0, width = 1
        for _ in level..<workload.depth {
            size += width
            width *= fanOut
        }
        return size
    }

    /// Runs every scenario into `run`. - Complexity: O(n) per scenario.
    func run(_ run: StressRun) {
        let shape = Self.shape
        var outline = Outline()
        run.scenario(shape, "build \(itemCount) items, \(workload.depth) levels of \(fanOut)") { scenario in
            outline = scenario.time { workload.build() }
            var generator = SplitMix64(seed: seed)
            scenario.expect("position of the last item", outline.index(of: itemCount - 1), itemCount - 1)
            scenario.check(!outline.contains(itemCount), "holds an item never appended")
            scenario.expect("root items", outline.rootItems.count, fanOut)
            scenario.expect("visible rows, all collapsed", outline.visibleItems.count, fanOut)
            for level in 0..<workload.depth { scenario.expect("level of item \(level)", outline.level(of: level), level) }
            for _ in 0..<DifferenceCheck.samples {
                let item = Int.random(in: 0..<itemCount, using: &generator)
                scenario.expect("position of item \(item)", outline.index(of: item), item)
            }
            scenario.detail = "count, roots, levels, 1,000 positions"
        }
        // Every item, made by each scenario that passes it (8 bytes an item: kept across the
        // scenarios between, it would sit on top of the apply's peak).
        func everything() -> [Int] { Array(0..<itemCount) }
        run.scenario(shape, "expand all") { scenario in
            let all = everything()
            scenario.time { outline.expand(all) }
            var generator = SplitMix64(seed: seed &+ 1)
            for _ in 0..<DifferenceCheck.samples {
                let item = Int.random(in: 0..<itemCount, using: &generator)
                scenario.check(outline.isVisible(item), "item \(item) is hidden after expand all")
            }
            scenario.detail = "1,000 items visible"
        }
        run.scenario(shape, "visibleItems, all expanded") { scenario in
            let visible = scenario.time { outline.visibleItems }
            scenario.expect("visible rows", visible.count, itemCount)
            var generator = SplitMix64(seed: seed &+ 2)
            for _ in 0..<DifferenceCheck.samples {
                let row = Int.random(in: 0..<itemCount, using: &generator)
                scenario.expect("visible row \(row)", visible[row], row)
            }
            scenario.detail = "count, 1,000 rows"
        }
        let collapsed = collapsedLeafParents()
        var partly = outline
        partly.collapse(collapsed)
        run.scenario(shape, "visible-rows diff (\(collapsed.count) parents expanded)") { scenario in
            visibleRowsDiff(&scenario, old: partly, new: outline, collapsed: collapsed)
        }
        run.scenario(shape, "data source apply (same change) onto SimulatedListView") { scenario in
            ApplyStress.applyOutline(into: &scenario, old: partly, new: outline, visibleCount: itemCount) { $0 }
        }
        partly = Outline()
        run.scenario(shape, "collapse all") { scenario in
            let all = everything()
            scenario.time { outline.collapse(all) }
            scenario.expect("visible rows", outline.visibleItems.count, fanOut)
            scenario.expect("expanded items", outline.expandedItems.count, 0)
            scenario.detail = "visible rows, expanded items"
        }
        run.scenario(shape, "insert 1% in 100 runs") { insertScenario(&$0, outline) }
        run.scenario(shape, "delete 5% (with their subtrees)") { deleteScenario(&$0, outline) }
    }

    /// Parents of leaves (the last level but one): fanOut^(depth − 1). - Complexity: O(depth).
    var leafParentCount: Int { (0..<(workload.depth - 1)).reduce(1) { product, _ in product * fanOut } }

    /// Up to 1,000 distinct random parents of leaves, in outline order.
    /// - Complexity: O(count log count).
    func collapsedLeafParents() -> [Int] {
        let wanted = min(1_000, leafParentCount)
        var generator = SplitMix64(seed: seed &+ 3)
        var chosen = Set<Int>()
        while chosen.count < wanted { chosen.insert(Int.random(in: 0..<leafParentCount, using: &generator)) }
        return chosen.sorted().map(leafParentItem)
    }

    /// The item number of the `rank`-th parent of leaves in outline order: the digits of `rank`
    /// in base fanOut pick the child at each level; each level down skips the earlier siblings'
    /// subtrees and steps past the parent itself.
    /// - Complexity: O(depth).
    func leafParentItem(_ rank: Int) -> Int {
        var digits: [Int] = [], rest = rank
        for _ in 0..<(workload.depth - 1) {
            digits.append(rest % fanOut)
            rest /= fanOut
        }
        var item = 0
        for (level, digit) in digits.reversed().enumerated() { item += digit * subtreeSize(level: level) + (level > 0 ? 1 : 0) }
        return item
    }

    private func visibleRowsDiff(_ scenario: inout StressScenario, old: Outline, new: Outline, collapsed: [Int]) {
        let difference = scenario.time { new.difference(from: old) }
        var generator = SplitMix64(seed: seed &+ 4)
        for parent in collapsed.prefix(10) {
            scenario.expect("level of collapsed parent \(parent)", old.level(of: parent), workload.depth - 2)
        }
        // How many of `ascending` are below `value` (a binary search). - Complexity: O(log count).
        func countBelow(_ value: Int, in ascending: [Int]) -> Int {
            var low = 0, high = ascending.count
            while low < high {
                let middle = (low + high) / 2
                if ascending[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        // Old row i shows item i + fanOut · (collapsed parents shown before row i).
        let oldRows = collapsed.enumerated().map { $0.element - fanOut * $0.offset }
        func oldItem(_ section: Int, _ row: Int) -> Int { row + fanOut * countBelow(row, in: oldRows) }
        // Positions from the outlines themselves (`new` shows every item at its index; `old`
        // shows a visible item fanOut rows earlier per collapsed parent before it, `collapsed`
        // being ascending): reading `difference.old`/`.new` would build two 10^7-row snapshots
        // just to check 2,000 rows.
        let oldSide = DifferenceCheck.Side(rows: itemCount - fanOut * collapsed.count) { item in
            guard old.contains(item), old.isVisible(item) else { return nil }
            return item - fanOut * countBelow(item, in: collapsed)
        }
        let newSide = DifferenceCheck.Side(rows: itemCount) { item in
            new.contains(item) && new.isVisible(item) ? new.index(of: item) : nil
        }
        DifferenceCheck(difference: difference, old: oldSide, new: newSide).run(
            into: &scenario, deleted: 0, inserted: collapsed.count * fanOut, generator: &generator, oldItem: oldItem,
            newItem: { $1 })
    }

    private func insertScenario(_ scenario: inout StressScenario, _ base: Outline) {
        var outline = base
        var generator = SplitMix64(seed: seed &+ 5)
        let runs = 100, perRun = max(1, itemCount / 100 / runs)
        var anchors: [Int] = [], taken = Set<Int>()
        while anchors.count < min(runs, itemCount) {
            let anchor = Int.random(in: 0..<itemCount, using: &generator)
            if taken.insert(anchor).inserted { anchors.append(anchor) }
        }
        for (run, anchor) in anchors.enumerated() {
            let fresh = Array((itemCount + run * perRun)..<(itemCount + (run + 1) * perRun))
            scenario.time { outline.insert(fresh, before: anchor) }
        }
        let total = itemCount + anchors.count * perRun
        scenario.expect("items", outline.items.count, total)
        for (run, anchor) in anchors.enumerated() {
            let first = itemCount + run * perRun, last = first + perRun - 1
            let before = outline.index(of: anchor).map { $0 - 1 }
            scenario.expect("position of the last item inserted before \(anchor)", outline.index(of: last), before)
            scenario.expect("parent of the items inserted before \(anchor)", outline.parent(of: first), outline.parent(of: anchor))
            scenario.expect("level of the items inserted before \(anchor)", outline.level(of: first), outline.level(of: anchor))
        }
        scenario.detail = "count, each run's place, parent and level"
    }

    private func deleteScenario(_ scenario: inout StressScenario, _ base: Outline) {
        var outline = base
        var generator = SplitMix64(seed: seed &+ 6)
        var gone = [Bool](repeating: false, count: itemCount)
        var victims: [Int] = [], picked = Set<Int>()
        while victims.count < itemCount / 20 {
            let item = Int.random(in: 0..<itemCount, using: &generator)
            guard picked.insert(item).inserted else { continue }
            victims.append(item)
            // A subtree is the contiguous run of items after it in outline order.
            let size = subtreeSize(level: base.level(of: item))
            var next = item
            while next < item + size {
                gone[next] = true
                next += 1
            }
        }
        scenario.time { outline.delete(victims) }
        let removed = gone.lazy.filter { $0 }.count
        scenario.expect("items", outline.items.count, itemCount - removed)
        // Survivors keep outline order: item k sits at k less the removed items before it.
        let samples = (0..<DifferenceCheck.samples).map { _ in Int.random(in: 0..<itemCount, using: &generator) }.sorted()
        var removedBefore = 0, position = 0
        for item in samples {
            while position < item {
                if gone[position] { removedBefore += 1 }
                position += 1
            }
            scenario.expect("position of item \(item)", outline.index(of: item), gone[item] ? nil : item - removedBefore)
        }
        scenario.detail = "\(removed) items gone (\(victims.count) picked), 1,000 positions"
    }
}
