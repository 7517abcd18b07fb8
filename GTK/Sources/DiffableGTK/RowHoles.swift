/// The model positions a batch changes on one side of it (the old list or the new one), as
/// sorted, disjoint ranges; every other position holds an **anchor**, a row the batch leaves in
/// place. Anchors stand in the same order on both sides, so anchor `g` of the old list is
/// anchor `g` of the new one, and the stretch before anchor `g` is **gap** `g`.
///
/// Answers position ↔ anchor questions by binary search, so a batch of k changes is planned
/// without visiting the rows it does not touch.
struct RowHoles {
    /// Start and end of each hole, ascending.
    private(set) var starts: [Int] = []
    private(set) var ends: [Int] = []
    /// The number of positions in the holes before hole `i`.
    private var sizeBefore: [Int] = []
    /// The number of positions in all holes.
    private(set) var total = 0

    /// Merges `ranges` (any order; touching ranges join, empty ones are ignored).
    /// Traps when two ranges overlap: one row would leave (or arrive) twice.
    /// - Complexity: O(r log r) for r ranges.
    init(_ ranges: [Range<Int>]) {
        let sorted = ranges.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        starts.reserveCapacity(sorted.count)
        ends.reserveCapacity(sorted.count)
        sizeBefore.reserveCapacity(sorted.count)
        for range in sorted {
            if let last = ends.last, range.lowerBound <= last {
                precondition(range.lowerBound == last, "DiffableGTK: a batch changes model position \(range.lowerBound) twice")
                ends[ends.count - 1] = range.upperBound
            } else {
                starts.append(range.lowerBound)
                ends.append(range.upperBound)
                sizeBefore.append(total)
            }
            total += range.count
        }
    }

    /// The number of holes. - Complexity: O(1).
    var count: Int { starts.count }

    /// Hole `index` as a range of positions. - Complexity: O(1).
    func range(_ index: Int) -> Range<Int> { starts[index]..<ends[index] }

    /// The gap hole `index` lies in: the number of anchors before it. - Complexity: O(1).
    func gap(ofHole index: Int) -> Int { starts[index] - sizeBefore[index] }

    /// The last hole starting at or before `position`, or nil. - Complexity: O(log holes).
    private func lastHole(startingAtOrBefore position: Int) -> Int? {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= position { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The hole holding `position`, or nil when an anchor is there. - Complexity: O(log holes).
    func hole(containing position: Int) -> Int? {
        guard let index = lastHole(startingAtOrBefore: position), position < ends[index] else { return nil }
        return index
    }

    /// The number of anchors before `position` (for an anchor: its index among the anchors;
    /// for a position in a hole: the hole's gap). - Complexity: O(log holes).
    func anchorsBefore(_ position: Int) -> Int {
        guard let index = lastHole(startingAtOrBefore: position) else { return position }
        if position < ends[index] { return gap(ofHole: index) }
        return position - sizeBefore[index] - (ends[index] - starts[index])
    }

    /// The position of anchor `anchor`. - Complexity: O(log holes).
    func position(ofAnchor anchor: Int) -> Int {
        // The holes before the anchor are those whose gap is at most `anchor`.
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if gap(ofHole: middle) <= anchor { low = middle + 1 } else { high = middle }
        }
        return anchor + (low < starts.count ? sizeBefore[low] : total)
    }
}
