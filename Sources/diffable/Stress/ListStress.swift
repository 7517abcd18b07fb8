import Diffable
import DiffableTesting
import DiffableTools

/// The flat (one section) and sectioned shapes: a snapshot of `itemCount` items numbered in
/// order, `perSection` to a section, through build, churn and re-sort diffs, deletes, moves,
/// reloads and a data-source apply. The base snapshot is kept across the scenarios, as an app
/// keeps the snapshot it shows.
struct ListStress {
    typealias Snapshot = DiffableDataSourceSnapshot<Int, Int>

    let shape: String
    let sectionCount: Int
    let perSection: Int
    let seed: UInt64
    var itemCount: Int { sectionCount * perSection }

    /// - Complexity: O(1).
    init(shape: String, itemCount: Int, sectionCount: Int, seed: UInt64) {
        self.shape = shape
        self.sectionCount = max(1, min(sectionCount, itemCount))
        perSection = max(1, itemCount / self.sectionCount)
        self.seed = seed
    }

    /// The item at (section, index) of the base snapshot. - Complexity: O(1).
    func baseItem(_ section: Int, _ index: Int) -> Int { section * perSection + index }

    /// Runs every scenario into `run`. - Complexity: O(n log n) per scenario (flat moves: O(n) each).
    func run(_ run: StressRun) {
        var base = Snapshot()
        run.scenario(shape, "build \(itemCount) items in \(sectionCount) sections") { scenario in
            scenario.time {
                base.appendSections(Array(0..<sectionCount))
                for section in 0..<sectionCount {
                    base.appendItems(Array(baseItem(section, 0)..<baseItem(section + 1, 0)), toSection: section)
                }
            }
            scenario.expect("items", base.numberOfItems, itemCount)
            scenario.expect("sections", base.numberOfSections, sectionCount)
            var generator = SplitMix64(seed: seed)
            for _ in 0..<DifferenceCheck.samples {
                let item = Int.random(in: 0..<itemCount, using: &generator)
                let path = base.indexPath(ofItem: item)
                scenario.check(
                    path?.section == item / perSection && path?.item == item % perSection, "item \(item) is at \(String(describing: path))")
            }
            scenario.detail = "counts, 1,000 positions"
        }
        run.scenario(shape, "churn diff (5% deleted, 5% moved, 5% inserted)") { diffScenario(&$0, base, churnLayout()) }
        run.scenario(shape, "full re-sort diff (shuffle)") { diffScenario(&$0, base, shuffledLayout()) }
        run.scenario(shape, "deleteItems of 5%") { deleteScenario(&$0, base) }
        run.scenario(shape, "moves (\(moveCount) moveItem calls)") { moveScenario(&$0, base) }
        run.scenario(shape, "reloads + reconfigures of 1% each") { reloadScenario(&$0, base) }
        run.scenario(shape, "data source apply (churn) onto SimulatedListView") { scenario in
            ApplyStress.applyChurn(into: &scenario, base: base, newLayout: churnLayout())
        }
    }

    // MARK: Layouts

    /// The churn of docs/PERFORMANCE.md over the base (``LinearChurn``; moves cross sections).
    /// - Complexity: O(n + k log k).
    func churnLayout() -> [[Int32]] { LinearChurn.layout(sectionCount: sectionCount, perSection: perSection, seed: seed &+ 1) }

    /// Every item at a random place, dealt into sections of the base's sizes (most items change section).
    /// - Complexity: O(n).
    func shuffledLayout() -> [[Int32]] {
        var generator = SplitMix64(seed: seed &+ 2)
        var order = (0..<itemCount).map { Int32($0) }
        order.shuffle(using: &generator)
        return (0..<sectionCount).map { Array(order[($0 * perSection)..<(($0 + 1) * perSection)]) }
    }

    // MARK: Scenarios

    private func diffScenario(_ scenario: inout StressScenario, _ base: Snapshot, _ layout: [[Int32]]) {
        let new = LinearChurn.snapshot(layout)
        // What the diff must find: base items missing from the layout, layout items not in the base.
        var present = [Bool](repeating: false, count: itemCount)
        var fresh = 0
        for items in layout {
            for item in items { if item < itemCount { present[Int(item)] = true } else { fresh += 1 } }
        }
        let deleted = present.lazy.filter { !$0 }.count
        let difference = scenario.time { new.difference(from: base) }
        var generator = SplitMix64(seed: seed &+ 3)
        DifferenceCheck(difference: difference, old: base, new: new).run(
            into: &scenario, deleted: deleted, inserted: fresh, generator: &generator, oldItem: baseItem, newItem: { Int(layout[$0][$1]) })
    }

    /// `count` distinct random items of the base. - Complexity: O(n + count).
    private func distinctItems(_ count: Int, _ generator: inout SplitMix64, excluding taken: inout [Bool]) -> [Int] {
        var chosen: [Int] = []
        chosen.reserveCapacity(count)
        while chosen.count < min(count, itemCount) {
            let item = Int.random(in: 0..<itemCount, using: &generator)
            if !taken[item] {
                taken[item] = true
                chosen.append(item)
            }
        }
        return chosen
    }

    private func deleteScenario(_ scenario: inout StressScenario, _ base: Snapshot) {
        var generator = SplitMix64(seed: seed &+ 4)
        var deleted = [Bool](repeating: false, count: itemCount)
        let victims = distinctItems(itemCount / 20, &generator, excluding: &deleted)
        var snapshot = base
        scenario.time { snapshot.deleteItems(victims) }
        scenario.expect("items left", snapshot.numberOfItems, itemCount - victims.count)
        // Sampled survivors sit at their base index less the deleted items before them in their section.
        var checked = 0
        for _ in 0..<DifferenceCheck.samples {
            let item = Int.random(in: 0..<itemCount, using: &generator)
            let section = item / perSection
            guard !deleted[item] else {
                scenario.check(!snapshot.contains(item: item), "deleted item \(item) is still there")
                continue
            }
            let before = (baseItem(section, 0)..<item).lazy.filter { deleted[$0] }.count
            let path = snapshot.indexPath(ofItem: item)
            scenario.check(
                path?.section == section && path?.item == item - baseItem(section, 0) - before,
                "item \(item) is at \(String(describing: path)) after the deletes")
            checked += 1
            if sectionCount == 1 && checked >= 20 { break }  // each costs O(n) here
        }
        let difference = snapshot.difference(from: base)
        DifferenceCheck(difference: difference, old: base, new: snapshot).run(
            into: &scenario, deleted: victims.count, inserted: 0, generator: &generator, oldItem: baseItem)
    }

    /// Moves per scenario: each costs O(section size), so a flat list of 10^7 gets fewer.
    var moveCount: Int { sectionCount == 1 ? min(200, itemCount / 2) : itemCount / 100 }

    private func moveScenario(_ scenario: inout StressScenario, _ base: Snapshot) {
        var generator = SplitMix64(seed: seed &+ 5)
        var snapshot = base
        var misplaced = 0
        for _ in 0..<moveCount {
            let item = Int.random(in: 0..<itemCount, using: &generator), anchor = Int.random(in: 0..<itemCount, using: &generator)
            guard item != anchor else { continue }
            scenario.time { snapshot.moveItem(item, afterItem: anchor) }
            let moved = snapshot.indexPath(ofItem: item), after = snapshot.indexPath(ofItem: anchor)
            if moved?.section != after?.section || moved?.item != (after?.item ?? -2) + 1 { misplaced += 1 }
        }
        scenario.expect("items moved next to a wrong anchor", misplaced, 0)
        scenario.expect("items", snapshot.numberOfItems, itemCount)
        let difference = snapshot.difference(from: base)
        scenario.check(difference.movedItemCount <= moveCount, "\(difference.movedItemCount) moves for \(moveCount) moveItem calls")
        DifferenceCheck(difference: difference, old: base, new: snapshot).run(
            into: &scenario, deleted: 0, inserted: 0, generator: &generator, oldItem: baseItem)
    }

    private func reloadScenario(_ scenario: inout StressScenario, _ base: Snapshot) {
        var generator = SplitMix64(seed: seed &+ 6)
        var taken = [Bool](repeating: false, count: itemCount)
        let reloaded = distinctItems(itemCount / 100, &generator, excluding: &taken)
        let reconfigured = distinctItems(itemCount / 100, &generator, excluding: &taken)
        var snapshot = base
        scenario.time {
            snapshot.reloadItems(reloaded)
            snapshot.reconfigureItems(reconfigured)
        }
        scenario.expect("reloaded identifiers", snapshot.reloadedItemIdentifiers.count, reloaded.count)
        scenario.expect("reconfigured identifiers", snapshot.reconfiguredItemIdentifiers.count, reconfigured.count)
        let difference = snapshot.difference(from: base)
        scenario.check(difference.structuralBatch == nil, "a refresh-only change produced a structural batch")
        scenario.expect("reloaded rows", difference.reloadedItemCount, reloaded.count)
        scenario.expect("reconfigured rows", difference.reconfiguredItemCount, reconfigured.count)
        DifferenceCheck(difference: difference, old: base, new: snapshot).run(
            into: &scenario, deleted: 0, inserted: 0, generator: &generator, oldItem: baseItem)
    }
}
