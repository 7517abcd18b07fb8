/// Turns a reordering into moves a view can apply one at a time: each move removes one
/// element and puts it back, at indices valid at that moment.
///
/// Elements live in groups (sections; one group for the section list itself). Elements that
/// *stay* keep their group and their order relative to each other (UIKit's carried rows, B5);
/// every other element moves exactly once. Moved elements are taken in target order and each is
/// put directly after its target predecessor, which is already in place, so after the last move
/// every group holds its target list.
///
/// Positions are found with a ``FenwickTree`` over a fixed list of slots: a group's slots are a
/// head chain (elements moved to its front), then each current element followed, when it
/// stays, by the chain of elements moved directly after it. Occupied slots in slot order are
/// always the current order.
struct SequentialMoves {
    /// One move: the element at `fromIndex` of group `fromGroup` is removed, then inserted at
    /// `toIndex` of group `toGroup` (an index in the state without it).
    struct Move: Equatable {
        var fromGroup: Int
        var fromIndex: Int
        var toGroup: Int
        var toIndex: Int
    }

    /// The moves that turn `current` into `target`.
    ///
    /// - Parameters:
    ///   - current: each group's elements (ids in `0..<stays.count`) in their current order.
    ///   - target: each group's elements in target order; every element of `current` appears once.
    ///   - stays: whether an element keeps its place; staying elements are in the same group in
    ///     `current` and `target`, in the same relative order.
    /// - Complexity: O(e + g + moves · log e), e counting elements and g groups.
    static func moves(current: [[Int]], target: [[Int]], stays: [Bool]) -> [Move] {
        let count = stays.count
        var groupOf = [Int](repeating: 0, count: count)
        for (group, elements) in current.enumerated() { for element in elements { groupOf[element] = group } }
        // Chains: who each moved element follows (-1: its group's head) and its place in that chain.
        var anchor = [Int](repeating: -1, count: count), place = [Int](repeating: 0, count: count)
        var chainLength = [Int](repeating: 0, count: count), headLength = [Int](repeating: 0, count: target.count)
        for (group, elements) in target.enumerated() {
            var last = -1
            for element in elements {
                if stays[element] {
                    last = element
                } else if last < 0 {
                    place[element] = headLength[group]
                    headLength[group] += 1
                } else {
                    anchor[element] = last
                    place[element] = chainLength[last]
                    chainLength[last] += 1
                }
            }
        }
        var slot = [Int](repeating: 0, count: count), chainStart = [Int](repeating: 0, count: count)
        var groupStart = [Int](repeating: 0, count: current.count), occupied: [Int] = []
        for (group, elements) in current.enumerated() {
            groupStart[group] = occupied.count
            occupied += repeatElement(0, count: group < headLength.count ? headLength[group] : 0)
            for element in elements {
                slot[element] = occupied.count
                occupied.append(1)
                chainStart[element] = occupied.count
                occupied += repeatElement(0, count: chainLength[element])
            }
        }
        var slots = FenwickTree(occupied)
        var moves: [Move] = []
        for (group, elements) in target.enumerated() {
            for element in elements where !stays[element] {
                let from = groupOf[element]
                let fromIndex = slots.prefixSum(slot[element]) - slots.prefixSum(groupStart[from])
                slots.add(-1, at: slot[element])
                let destination = (anchor[element] < 0 ? groupStart[group] : chainStart[anchor[element]]) + place[element]
                let toIndex = slots.prefixSum(destination) - slots.prefixSum(groupStart[group])
                slots.add(1, at: destination)
                moves.append(Move(fromGroup: from, fromIndex: fromIndex, toGroup: group, toIndex: toIndex))
            }
        }
        return moves
    }
}
