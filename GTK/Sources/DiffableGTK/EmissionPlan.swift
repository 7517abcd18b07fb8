import CDiffableGTK

/// One `items-changed` signal of a batch: rows `oldRange` of the list before the batch are
/// replaced by rows `newRange` of the list after it. Emitted front to back, so its position in
/// the model at that moment is `newRange.lowerBound`.
public struct Emission: Equatable, Sendable, CustomStringConvertible {
    public var oldRange: Range<Int>
    public var newRange: Range<Int>
    /// The signal's arguments: (position, removed, added).
    public var signal: (position: Int, removed: Int, added: Int) {
        (newRange.lowerBound, oldRange.count, newRange.count)
    }
    /// - Complexity: O(1).
    public init(oldRange: Range<Int>, newRange: Range<Int>) {
        self.oldRange = oldRange
        self.newRange = newRange
    }
    public var description: String { "items-changed(\(newRange.lowerBound), \(oldRange.count), \(newRange.count))" }
}

/// Groups a batch's changes into the fewest `items-changed` signals that keep every moved row's
/// object inside one signal (GTK re-uses a row's widget only when its item object is removed
/// and added back in the same signal).
///
/// **Anchors** are the rows the batch leaves in place: present before and after, in a section the
/// batch does not move, and neither moved, inserted nor reloaded. They stand in the same
/// relative order in both lists. Gap `g` is the stretch between anchor `g - 1` and anchor `g`;
/// every other row lies in one gap of the old list (deleted, or moved from there) and/or one
/// gap of the new list (inserted, or moved there). A deleted or inserted row needs its gap
/// changed; a moved row needs every gap from its old one to its new one in a single signal
/// (a signal is one contiguous replacement, and must hold both the removal and the addition).
/// Merging those gap intervals gives connected runs; each run is one signal, spanning the
/// anchors inside it (those are removed and added back as the same objects, so they keep their
/// widgets too). No fewer signals can keep every move in one signal: two intervals that
/// overlap must share one.
///
/// - Complexity: O(old + new) time and O(anchors) space; the row objects' scratch fields
///   (`in_new`, `anchor`, `old_gap`) are read and written.
enum EmissionPlanner {
    /// - Parameters:
    ///   - old: the rows before the batch.
    ///   - new: the rows after it; every row of `new` has `in_new == serial`, and the anchors
    ///     `anchor == serial` (rows of `old` that are not in `new` carry an older serial).
    /// - Returns: the signals, front to back, and the rows of `old` that are not in `new`.
    static func plan(
        old: UnsafeBufferPointer<RowPointer>, new: UnsafeBufferPointer<RowPointer>, serial: UInt32
    ) -> (emissions: [Emission], removed: [RowPointer]) {
        var anchorsOld: [Int32] = []
        var removed: [RowPointer] = []
        // reach[g]: the last gap that a change starting in gap g must share a signal with (-1: none).
        var reach: [Int32] = [-1]
        for (position, row) in old.enumerated() {
            if row.pointee.anchor == serial {
                anchorsOld.append(Int32(position))
                reach.append(-1)
                continue
            }
            let gap = Int32(anchorsOld.count)
            row.pointee.old_gap = gap
            if row.pointee.in_new != serial {
                removed.append(row)
                reach[Int(gap)] = max(reach[Int(gap)], gap)
            }
        }
        var anchorsNew: [Int32] = []
        anchorsNew.reserveCapacity(anchorsOld.count)
        for (position, row) in new.enumerated() {
            if row.pointee.anchor == serial {
                anchorsNew.append(Int32(position))
                continue
            }
            let gap = Int32(anchorsNew.count)
            // A row made in this batch has old_gap -1 (set by makeRow); any other row of `new`
            // that is not an anchor was in `old`, whose pass above wrote its gap.
            let from = row.pointee.old_gap
            let low = from >= 0 ? min(from, gap) : gap
            let high = from >= 0 ? max(from, gap) : gap
            reach[Int(low)] = max(reach[Int(low)], high)
        }
        precondition(anchorsOld.count == anchorsNew.count, "DiffableGTK: anchors differ between the old and new list")
        var emissions: [Emission] = []
        let anchorCount = anchorsOld.count
        var gap = 0
        while gap <= anchorCount {
            var last = Int(reach[gap])
            if last < 0 {
                gap += 1
                continue
            }
            let first = gap
            var scan = gap + 1
            while scan <= last {
                last = max(last, Int(reach[scan]))
                scan += 1
            }
            let oldStart = first == 0 ? 0 : Int(anchorsOld[first - 1]) + 1
            let oldEnd = last == anchorCount ? old.count : Int(anchorsOld[last])
            let newStart = first == 0 ? 0 : Int(anchorsNew[first - 1]) + 1
            let newEnd = last == anchorCount ? new.count : Int(anchorsNew[last])
            if oldStart < oldEnd || newStart < newEnd {
                emissions.append(Emission(oldRange: oldStart..<oldEnd, newRange: newStart..<newEnd))
            }
            gap = last + 1
        }
        return (emissions, removed)
    }
}
