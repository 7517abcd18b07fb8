/// Groups values with every position they occur at, in first-occurrence order: the one
/// implementation behind every "identifier … at [positions]" report (duplicate sections,
/// duplicate items, unknown identifiers in request lists).
package enum Occurrences {
    /// One value and every position it was seen at.
    package struct Group<Value> {
        package var value: Value
        package var positions: [[Int]]
    }

    /// - Complexity: O(k) expected hash-and-compare operations for k entries.
    package static func group<Value: Hashable>(_ entries: some Sequence<(Value, [Int])>) -> [Group<Value>] {
        var index: [Value: Int] = [:]
        var groups: [Group<Value>] = []
        for (value, position) in entries {
            if let at = index[value] {
                groups[at].positions.append(position)
            } else {
                index[value] = groups.count
                groups.append(Group(value: value, positions: [position]))
            }
        }
        return groups
    }

    /// The values seen more than once, each with all its positions.
    /// - Complexity: O(k) expected for k entries.
    package static func repeated<Value: Hashable>(_ entries: some Sequence<(Value, [Int])>) -> [Group<Value>] {
        group(entries).filter { $0.positions.count > 1 }
    }
}
