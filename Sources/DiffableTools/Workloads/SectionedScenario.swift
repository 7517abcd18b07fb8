import Diffable

/// The scenarios of docs/PERFORMANCE.md on a sectioned list: identifiers 0..<n in sections of
/// 100 (the last one shorter), section identifiers 0, 1, 2, …; and the re-sort of one
/// section of n items. `diffable bench --suite sectioned` and its plots use these layouts.
public enum SectionedScenario: String, CaseIterable, Sendable {
    case churn, shuffle, reverse
    case moveOne = "move-one"
    case update, append
    case resort = "re-sort"

    /// Items per section of the old layout (docs/PERFORMANCE.md, Scenarios: N/100 sections of 100).
    public static let sectionSize = 100

    /// What the scenario does to the sectioned list, in words. - Complexity: O(1).
    public var about: String {
        switch self {
        case .churn: "delete 5%, move 5% to random places in any section, insert 5% new"
        case .shuffle: "every item shuffled across all sections (sections keep their identifiers and sizes)"
        case .reverse: "sections in reverse order, items reversed in each"
        case .moveOne: "the first item moved to the end of the last section"
        case .update: "same identifiers, 1% of items reloaded"
        case .append: "10% new items appended in new sections"
        case .resort: "one section of n items fully shuffled"
        }
    }

    /// Two sectioned lists and what the new one reloads.
    public struct Layouts: Sendable {
        /// Section identifiers, old and new; section `k` holds the items `old[k]` / `new[k]`.
        public var oldSections: [Int]
        public var old: [[Int]]
        public var newSections: [Int]
        public var new: [[Int]]
        /// Items the new snapshot reloads (same identifiers, new content).
        public var reloaded: [Int]
    }

    /// The old and new layouts of `n` items (new sections get identifiers after the old ones).
    /// - Complexity: O(n log n).
    public func layouts(itemCount n: Int, seed: UInt64) -> Layouts {
        let (old, new, reloaded) = lists(itemCount: n, seed: seed)
        let oldSections = Array(old.indices)
        var newSections = Array(new.indices)
        if self == .reverse { newSections.reverse() }
        return Layouts(oldSections: oldSections, old: old, newSections: newSections, new: new, reloaded: reloaded)
    }

    private func lists(itemCount n: Int, seed: UInt64) -> (old: [[Int]], new: [[Int]], reloaded: [Int]) {
        var generator = SplitMix64(seed: seed)
        let size = Self.sectionSize
        func cut(_ ids: [Int], sizes: [Int]) -> [[Int]] {
            var start = 0
            return sizes.map { count in
                defer { start += count }
                return Array(ids[start..<(start + count)])
            }
        }
        if self == .resort { return ([Array(0..<n)], [Array(0..<n).shuffled(using: &generator)], []) }
        if self == .churn {
            let sections = max(1, n / size)
            let (old, new) = SectionedWorkload.churn(itemCount: n, sectionCount: sections, seed: seed)
            return (old, new, [])
        }
        let old = stride(from: 0, to: n, by: size).map { Array($0..<min(n, $0 + size)) }
        switch self {
        case .shuffle: return (old, cut(Array(0..<n).shuffled(using: &generator), sizes: old.map(\.count)), [])
        case .reverse: return (old, old.reversed().map { $0.reversed() }, [])
        case .moveOne:
            guard n > 1 else { return (old, old, []) }
            var new = old
            let first = new[0].removeFirst()
            new[new.count - 1].append(first)
            return (old, new, [])
        case .update:
            let reloaded = (0..<max(1, n / 100)).map { _ in Int.random(in: 0..<n, using: &generator) }
            return (old, old, Array(Set(reloaded)).sorted())
        case .append:
            let added = Array(n..<(n + max(1, n / 10)))
            return (old, old + stride(from: 0, to: added.count, by: size).map { Array(added[$0..<min(added.count, $0 + size)]) }, [])
        case .churn, .resort: preconditionFailure("handled above")
        }
    }
}

extension SectionedScenario.Layouts {
    /// The two snapshots, items made by `item(id)`; the new one reloads ``reloaded``.
    /// - Complexity: O(n + s) expected.
    public func snapshots<Item: Hashable>(_ item: (Int) -> Item) -> (
        old: DiffableDataSourceSnapshot<Int, Item>, new: DiffableDataSourceSnapshot<Int, Item>
    ) {
        func build(_ sections: [Int], _ items: [[Int]]) -> DiffableDataSourceSnapshot<Int, Item> {
            var snapshot = DiffableDataSourceSnapshot<Int, Item>()
            snapshot.appendSections(sections)
            for (section, ids) in zip(sections, items) { snapshot.appendItems(ids.map(item), toSection: section) }
            return snapshot
        }
        var new = build(newSections, self.new)
        if !reloaded.isEmpty { new.reloadItems(reloaded.map(item)) }
        return (build(oldSections, old), new)
    }

    /// Items in the old and the new layout. - Complexity: O(s).
    public var itemCounts: (old: Int, new: Int) { (old.reduce(0) { $0 + $1.count }, new.reduce(0) { $0 + $1.count }) }
}
