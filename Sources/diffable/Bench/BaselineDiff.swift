/// ALGORITHM.md's flat diff written in plain Swift (Dictionary + patience LIS):
/// the in-process baseline every benchmark row is compared with.
enum BaselineDiff {
    struct Result {
        var deletes: Int
        var inserts: Int
        var moves: Int
    }

    static func diff<T: Hashable>(old: [T], new: [T]) -> Result {
        var oldIndex = [T: Int](minimumCapacity: old.count)
        for (index, element) in old.enumerated() { oldIndex[element] = index }
        var matchedOld = [Bool](repeating: false, count: old.count)
        var sequence: [Int] = []
        sequence.reserveCapacity(new.count)
        var inserts = 0
        for element in new {
            if let index = oldIndex[element] {
                matchedOld[index] = true
                sequence.append(index)
            } else {
                inserts += 1
            }
        }
        let deletes = matchedOld.lazy.filter { !$0 }.count
        return Result(deletes: deletes, inserts: inserts, moves: sequence.count - lisLength(sequence))
    }

    /// The fewest moves turning `old` into `new` (matched − LIS of the matched old positions),
    /// for identifiers that are small non-negative integers: positions are found through an
    /// array, not a Dictionary, so the check stays cheap when the timed baseline is skipped.
    /// - Complexity: O(n + m + max id) plus O(k log k) for the k matched identifiers.
    static func minimalMoves(old: [Int], new: [Int]) -> Int {
        var position = [Int](repeating: -1, count: (max(old.max() ?? 0, new.max() ?? 0)) + 1)
        for (index, id) in old.enumerated() { position[id] = index }
        let sequence = new.compactMap { position[$0] >= 0 ? position[$0] : nil }
        return sequence.count - lisLength(sequence)
    }

    /// Patience-sorting LIS length, O(n log n).
    static func lisLength(_ values: [Int]) -> Int {
        var tails: [Int] = []
        for value in values {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle] > value { high = middle } else { low = middle + 1 }
            }
            if low == tails.count { tails.append(value) } else { tails[low] = value }
        }
        return tails.count
    }
}
