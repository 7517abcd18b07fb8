/// One `items-changed` signal of a batch: rows `oldRange` of the list before the batch are
/// replaced by rows `newRange` of the list after it. Emitted front to back, so its position in
/// the model at that moment is `newRange.lowerBound`.
public struct Emission: Equatable, Sendable, CustomStringConvertible {
    /// The rows of the list before the batch that the signal removes.
    public var oldRange: Range<Int>
    /// The rows of the list after the batch that the signal adds.
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
    /// The signal as GTK sees it. - Complexity: O(1).
    public var description: String { "items-changed(\(newRange.lowerBound), \(oldRange.count), \(newRange.count))" }
}

/// Groups a batch's changes into the fewest `items-changed` signals that keep every moved row's
/// object inside one signal (GTK re-uses a row's widget only when its item object is removed
/// and added back in the same signal).
///
/// The batch arrives as ``RowHoles`` on both sides (what leaves the old list, what arrives in
/// the new one) and the moves between them; everything else is an anchor. Every hole needs
/// its gap changed; a moved row needs every gap from its old one to its new one inside a single
/// signal (a signal is one contiguous replacement, and must hold both the removal and the
/// addition). Merging those gap intervals gives connected runs; each run is one signal,
/// spanning the anchors inside it (those are removed and added back as the same objects, so
/// they keep their widgets too). No fewer signals can keep every move in one signal: two
/// intervals that overlap must share one.
///
/// Runs separated by at most `mergeSpan` anchors are then joined into one signal: the anchors
/// between them are removed and added back as the same objects (they keep their widgets).
/// GTK 4.8's list view pays a few microseconds per signal but almost nothing per spanned row
/// without a widget (docs/GTK.md, "Time per apply"), so joining nearby runs is cheaper.
///
/// - Complexity: O(k log k) for k holes and moves; the rows themselves are not visited.
enum EmissionPlanner {
    /// - Parameters:
    ///   - oldCount, newCount: the model's row counts before and after.
    ///   - oldHoles, newHoles: the positions that change on each side (the same number of
    ///     anchors must remain).
    ///   - moves: rows (or blocks of rows) moved: a position in an old hole → a position in a
    ///     new hole.
    ///   - mergeSpan: join runs at most this many anchors apart (0: the fewest signals that
    ///     change no anchor outside a run).
    /// - Returns: the signals, front to back.
    static func plan(
        oldCount: Int, newCount: Int, oldHoles: RowHoles, newHoles: RowHoles, moves: [(old: Int, new: Int)],
        mergeSpan: Int = 0
    ) -> [Emission] {
        let anchorCount = oldCount - oldHoles.total
        precondition(anchorCount == newCount - newHoles.total, "DiffableGTK: anchors differ between the old and new list")
        var intervals: [(low: Int, high: Int)] = []
        intervals.reserveCapacity(oldHoles.count + newHoles.count + moves.count)
        for hole in 0..<oldHoles.count { intervals.append((oldHoles.gap(ofHole: hole), oldHoles.gap(ofHole: hole))) }
        for hole in 0..<newHoles.count { intervals.append((newHoles.gap(ofHole: hole), newHoles.gap(ofHole: hole))) }
        for move in moves {
            let from = oldHoles.anchorsBefore(move.old)
            let to = newHoles.anchorsBefore(move.new)
            intervals.append((min(from, to), max(from, to)))
        }
        intervals.sort { $0.low < $1.low }
        var emissions: [Emission] = []
        var index = 0
        while index < intervals.count {
            let first = intervals[index].low
            var last = intervals[index].high
            index += 1
            while index < intervals.count, intervals[index].low <= last + mergeSpan {
                last = max(last, intervals[index].high)
                index += 1
            }
            let oldStart = first == 0 ? 0 : oldHoles.position(ofAnchor: first - 1) + 1
            let oldEnd = last == anchorCount ? oldCount : oldHoles.position(ofAnchor: last)
            let newStart = first == 0 ? 0 : newHoles.position(ofAnchor: first - 1) + 1
            let newEnd = last == anchorCount ? newCount : newHoles.position(ofAnchor: last)
            if oldStart < oldEnd || newStart < newEnd {
                emissions.append(Emission(oldRange: oldStart..<oldEnd, newRange: newStart..<newEnd))
            }
        }
        return emissions
    }
}
