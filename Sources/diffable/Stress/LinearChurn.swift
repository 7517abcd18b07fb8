import Diffable
import DiffableTools

/// docs/PERFORMANCE.md's churn (delete 5%, move 5% to random places in any section, insert 5% new)
/// over a base of `sectionCount` sections of `perSection` items numbered in order, built in
/// O(n + k log k): the shared workloads remove and insert one item at a time (O(n) each, far
/// too slow at 10^7), so the stress runs draw the same kind of change with marks and one merge.
///
/// Layouts hold `Int32` identifiers (at most 1.05 · 10^8 here): half the memory of `[[Int]]`,
/// which stays alive through a scenario's diff and checks.
enum LinearChurn {
    /// The new layout: survivors in their order, movers and new items (numbered from n) placed
    /// at random (section, position) pairs, several at one place in a random order.
    /// - Complexity: O(n + k log k), k = n/10.
    static func layout(sectionCount: Int, perSection: Int, seed: UInt64) -> [[Int32]] {
        var generator = SplitMix64(seed: seed)
        let itemCount = sectionCount * perSection, share = max(1, itemCount / 20)
        // 0 kept, 1 deleted, 2 moving.
        var fate = [UInt8](repeating: 0, count: itemCount)
        for _ in 0..<share { fate[Int.random(in: 0..<itemCount, using: &generator)] = 1 }
        var incoming: [Int] = []
        incoming.reserveCapacity(2 * share)
        var attempts = 0
        while incoming.count < share && attempts < 4 * itemCount {
            attempts += 1
            let item = Int.random(in: 0..<itemCount, using: &generator)
            if fate[item] == 0 {
                fate[item] = 2
                incoming.append(item)
            }
        }
        incoming += itemCount..<(itemCount + share)
        var layout = (0..<sectionCount).map { section in
            (section * perSection..<(section + 1) * perSection).lazy.filter { fate[$0] == 0 }.map { Int32($0) }
        }.map(Array.init)
        // Each incoming item gets a section and a place before the survivor at that index (or the end).
        let places = incoming.map { item in
            let section = Int.random(in: 0..<sectionCount, using: &generator)
            return (section: section, index: Int.random(in: 0...layout[section].count, using: &generator), item: item)
        }.sorted { ($0.section, $0.index) < ($1.section, $1.index) }
        var next = 0
        for section in 0..<sectionCount {
            guard next < places.count, places[next].section == section else { continue }
            var merged: [Int32] = []
            merged.reserveCapacity(layout[section].count + 2 * share / sectionCount + 16)
            let survivors = layout[section]
            for (index, survivor) in survivors.enumerated() {
                while next < places.count && places[next].section == section && places[next].index == index {
                    merged.append(Int32(places[next].item))
                    next += 1
                }
                merged.append(survivor)
            }
            while next < places.count && places[next].section == section {
                merged.append(Int32(places[next].item))
                next += 1
            }
            layout[section] = merged
        }
        return layout
    }

    /// The snapshot of `layout`: section `i` holds `layout[i]`.
    /// - Complexity: O(n + s).
    static func snapshot(_ layout: [[Int32]]) -> DiffableDataSourceSnapshot<Int, Int> {
        var snapshot = DiffableDataSourceSnapshot<Int, Int>()
        snapshot.appendSections(Array(layout.indices))
        for (section, items) in layout.enumerated() { snapshot.appendItems(items.map(Int.init), toSection: section) }
        return snapshot
    }
}
