import Diffable

/// The outline the outline benchmarks use (`diffable bench --suite outline` and Benchmarks/):
/// `depth` levels, every item above the last level with `fanOut` children, items numbered
/// 0, 1, 2, … in outline (depth-first) order. 5 levels of 16 make 1,118,480 items.
public struct OutlineWorkload: Sendable {
    public var fanOut: Int
    public var depth: Int

    /// - Complexity: O(1).
    public init(fanOut: Int = 16, depth: Int = 5) {
        precondition(fanOut >= 1 && depth >= 1, "an outline workload needs at least one level of one item")
        self.fanOut = fanOut
        self.depth = depth
    }

    /// fanOut + fanOut² + … + fanOut^depth.
    /// - Complexity: O(depth).
    public var itemCount: Int {
        var total = 0, level = 1
        for _ in 0..<depth {
            level *= fanOut
            total += level
        }
        return total
    }

    /// Calls `body(items, parent)` for every append that builds the outline in outline order,
    /// as an app loading a tree would: items with children one at a time, then their
    /// children; the children of a last-but-one-level item (leaves) in one call.
    /// - Complexity: O(itemCount).
    public func forEachAppend(_ body: ([Int], Int?) -> Void) {
        var next = 0
        func grow(_ parent: Int?, level: Int) {
            if level == depth - 1 {
                body(Array(next..<(next + fanOut)), parent)
                next += fanOut
                return
            }
            for _ in 0..<fanOut {
                let item = next
                next += 1
                body([item], parent)
                grow(item, level: level + 1)
            }
        }
        grow(nil, level: 0)
    }

    /// The outline built by ``forEachAppend(_:)`` through `append(_:to:)`, all collapsed.
    /// - Complexity: O(itemCount) amortized.
    public func build() -> DiffableDataSourceSectionSnapshot<Int> {
        var outline = DiffableDataSourceSectionSnapshot<Int>()
        forEachAppend { outline.append($0, to: $1) }
        return outline
    }
}
