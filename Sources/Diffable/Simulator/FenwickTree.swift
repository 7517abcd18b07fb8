/// Prefix sums over a fixed array of integers with point updates (a binary indexed tree):
/// here, how many occupied slots lie before a slot while rows move one at a time.
struct FenwickTree {
    private var tree: [Int]

    /// A tree over `values`, built in place. - Complexity: O(values.count).
    init(_ values: [Int]) {
        tree = [0] + values
        for index in 1..<max(tree.count, 1) {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
    }

    /// Adds `delta` at `position`. - Complexity: O(log count).
    mutating func add(_ delta: Int, at position: Int) {
        var index = position + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    /// The sum of the values at positions `0..<end`. - Complexity: O(log count).
    func prefixSum(_ end: Int) -> Int {
        var index = end, sum = 0
        while index > 0 {
            sum += tree[index]
            index -= index & -index
        }
        return sum
    }
}
