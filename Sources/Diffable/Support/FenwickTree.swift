/// Prefix sums over a growable array of integers with point updates (a binary indexed tree).
///
/// Two users: a snapshot's flat item offsets (items per displayed section, so that a read
/// never rebuilds anything and a write touches O(log s) entries), and the simulator's count
/// of occupied slots before a slot while rows move one at a time.
struct FenwickTree: Equatable {
    /// `tree[i]` (1-based) holds the sum of the values at positions `i - lowbit(i) ..< i`.
    private var tree: [Int] = [0]

    /// An empty tree. - Complexity: O(1).
    init() {}

    /// A tree over `values`, built in place. - Complexity: O(values.count).
    init(_ values: some Sequence<Int>) {
        tree = [0]
        tree.append(contentsOf: values)
        for index in 1..<tree.count {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
    }

    /// The number of values. - Complexity: O(1).
    var count: Int { tree.count - 1 }

    /// Adds `delta` at `position`. - Complexity: O(log count).
    mutating func add(_ delta: Int, at position: Int) {
        var index = position + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    /// Replaces the value at `position`. - Complexity: O(log count).
    mutating func set(_ value: Int, at position: Int) {
        add(value - self.value(at: position), at: position)
    }

    /// The value at `position`. - Complexity: O(log count).
    func value(at position: Int) -> Int { prefixSum(position + 1) - prefixSum(position) }

    /// Appends `value` after the last position. - Complexity: O(log count).
    mutating func append(_ value: Int) {
        let index = tree.count
        // The new node covers positions index - lowbit(index) ..< index: the new value and
        // the values before it in that range.
        tree.append(value + prefixSum(index - 1) - prefixSum(index - (index & -index)))
    }

    /// Drops the values from `position` on (a node depends only on the positions before it).
    /// - Complexity: O(count - position).
    mutating func removeSuffix(from position: Int) {
        tree.removeSubrange((position + 1)...)
    }

    /// The sum of the values at positions `0..<end`. - Complexity: O(log count).
    func prefixSum(_ end: Int) -> Int {
        precondition(end >= 0 && end < tree.count, "Fenwick tree: prefix end \(end) out of 0...\(count)")
        // Indices only fall from a checked end; the sum of counts cannot overflow: unchecked reads.
        return tree.withUnsafeBufferPointer { tree in
            var index = end, sum = 0
            while index > 0 {
                sum &+= tree[index]
                index &-= index & -index
            }
            return sum
        }
    }
}
