internal import CDiffCore

/// Refresh requests decided once the core has matched the items (the core's
/// `dfc_refresh_decider`), for a diff whose items are matched by something other than
/// their `==`: values matched by `id`, where a value that changed behind a kept `id` is
/// refreshed, and which values changed is known only once each new value's old partner is.
///
/// Such a diff's keys are those of the `id`s, so its decider also checks the matches keys
/// made: it refuses the matching when a pair's `id`s differ (two `id`s with one key), and
/// the diff is then run again with each key match confirmed by ``sameID``.
struct RefreshDecider {
    /// Sets `marks[j]` (one zeroed byte per new position) to the mark given (``mark``) for
    /// each matched new position `j` to refresh; false when a matched pair is not one (their
    /// `id`s differ), which stops the diff. The mark is an argument, not a capture: a closure
    /// capturing it was an allocation an apply.
    let decide: (MatchedPairs, UnsafeMutablePointer<UInt8>, UInt8) -> Bool
    /// `DFC_REFRESH_RELOAD` or `DFC_REFRESH_RECONFIGURE` (``reloadMark``, ``reconfigureMark``).
    let mark: UInt8
    /// Whether the identifiers of a key match are the same item (their `id`s are equal):
    /// each key match confirmed with it when the decider refused keys alone.
    let sameID: ItemEquality
    /// Called before that confirmed diff: it assumes each side's items unique by `id`, which
    /// this must establish (it reports repeated `id`s, as an apply of them must).
    let beforeConfirming: () -> Void

    /// The marks `decide` sets: a reload, a reconfigure.
    static let reloadMark = UInt8(DFC_REFRESH_RELOAD), reconfigureMark = UInt8(DFC_REFRESH_RECONFIGURE)

    /// What the C callback reaches through `user_data`: the decider and both sides' values
    /// with their flat positions' slots (or, with `slotsArePositions`, none: position p is
    /// value p).
    struct Context {
        let decide: (MatchedPairs, UnsafeMutablePointer<UInt8>, UInt8) -> Bool
        let mark: UInt8
        let oldIDs: UnsafeRawPointer?, oldSlots: UnsafePointer<Int32>?
        let newIDs: UnsafeRawPointer?, newSlots: UnsafePointer<Int32>?
        /// Whether each position is its value's index on both sides (see ``MatchedPairs``).
        let slotsArePositions: Bool

        /// `decider`'s context for the values `old` and `new` and their slot lists (unread when
        /// `slotsArePositions`). - Complexity: O(1).
        @inline(__always)
        init<I>(
            _ decider: RefreshDecider, old: UnsafeBufferPointer<I>, oldSlots: UnsafeBufferPointer<Int32>,
            new: UnsafeBufferPointer<I>, newSlots: UnsafeBufferPointer<Int32>, slotsArePositions: Bool
        ) {
            (decide, mark, self.slotsArePositions) = (decider.decide, decider.mark, slotsArePositions)
            (oldIDs, self.oldSlots) = (UnsafeRawPointer(old.baseAddress), oldSlots.baseAddress)
            (newIDs, self.newSlots) = (UnsafeRawPointer(new.baseAddress), newSlots.baseAddress)
        }
    }

    /// The core's callback: the maps as ``MatchedPairs`` handed to the context's `decide`.
    static let callback: dfc_refresh_decider = { user, newToOld, newCount, _, _, marks in
        guard newCount > 0, let marks else { return Int32(DFC_OK) }
        let context = user!.assumingMemoryBound(to: Context.self)
        let pairs = MatchedPairs(
            oldIDs: context.pointee.oldIDs, oldSlots: context.pointee.oldSlots, newIDs: context.pointee.newIDs,
            newSlots: context.pointee.newSlots, newToOld: newToOld, newCount: newCount,
            slotsArePositions: context.pointee.slotsArePositions)
        return context.pointee.decide(pairs, marks, context.pointee.mark) ? Int32(DFC_OK) : Int32(DFC_ERR_SHARED_KEY)
    }
}
