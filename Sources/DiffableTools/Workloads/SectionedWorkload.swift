import Diffable

/// The sectioned churn of docs/PERFORMANCE.md (Scenarios): 10^6 items in 10^4 sections, 10% churn with
/// cross-section moves (the workload of the sectioned benchmark and the demo).
public enum SectionedWorkload {
    /// Old: identifiers 0..<itemCount in `sectionCount` equal sections; new: 5% deleted, 5%
    /// moved to random places in any section, 5% new identifiers inserted at random places.
    /// - Complexity: O(n · n/s) (inserts into sections of n/s items).
    public static func churn(itemCount: Int, sectionCount: Int, seed: UInt64) -> (old: [[Int]], new: [[Int]]) {
        var generator = SplitMix64(seed: seed)
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

    /// A snapshot with sections 0..<count holding `item(id)` of each identifier.
    /// - Complexity: O(n + s).
    public static func snapshot<Item: Hashable>(_ sections: [[Int]], _ item: (Int) -> Item) -> DiffableDataSourceSnapshot<Int, Item> {
        var snapshot = DiffableDataSourceSnapshot<Int, Item>()
        snapshot.appendSections(Array(sections.indices))
        for (index, items) in sections.enumerated() { snapshot.appendItems(items.map(item), toSection: index) }
        return snapshot
    }
}
