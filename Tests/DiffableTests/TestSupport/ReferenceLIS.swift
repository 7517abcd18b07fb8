/// Length of the longest increasing subsequence by the O(n²) textbook recurrence:
/// independent of the engine's patience-sorting LIS.
func referenceLISLength(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    var longest = 0
    for j in values.indices {
        for i in 0..<j where values[i] < values[j] { best[j] = max(best[j], best[i] + 1) }
        longest = max(longest, best[j])
    }
    return longest
}
