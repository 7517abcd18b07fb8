/// An identifier type's `==` compiled in the caller's module, where the type is known: what
/// the diff uses to check the matches of identifiers the library was not compiled for (an
/// app's own structs and enums), instead of its unspecialized comparison (each identifier
/// copied through its value witness, `==` through the witness table).
///
/// A class whose closure is a `let`: the diff calls it through a borrowed reference, so a
/// call retains nothing (a closure read out of plain memory is retained per call). One
/// closure serves both uses: every pair of a diff at once, and one key match confirmed as
/// the core meets it (a ``MatchedPairs`` of one pair).
@usableFromInline
final class ItemEquality {
    /// Whether every pair a diff matched on keys alone holds equal identifiers: one call for
    /// the whole diff, the loop and `==` specialized for the type.
    @usableFromInline let matchesAreEqual: (MatchedPairs) -> Bool

    @inlinable
    init(matchesAreEqual: @escaping (MatchedPairs) -> Bool) { self.matchesAreEqual = matchesAreEqual }

    /// The caller's `==` for `type`, or nil when the library checks its matches itself:
    /// integers (their keys are the identifiers), and `String` and `UUID`, whose comparisons
    /// it has specialized.
    /// - Complexity: O(1).
    @inlinable
    static func forIdentifiers<T: Equatable>(_ type: T.Type) -> ItemEquality? {
        switch KeyStrategy.of(type) {
        case .hashValue, .id, .provided, .bytes:
            ItemEquality(matchesAreEqual: { $0.allEqual(as: T.self) })
        default: nil
        }
    }
}

@available(*, unavailable)
extension ItemEquality: Sendable {}

/// The pairs of identifiers a diff matched on keys alone, by flat position: new position `j`
/// was matched to old position `newToOld[j]` (negative: unmatched), and position `p` of a
/// side holds the identifier at index `slots[p]` of that side's identifiers, or at index `p`
/// when ``slotsArePositions`` (both sides' slots run in display order, and no slot array was
/// made). Valid only while the diff's buffers are (inside the call that made it).
@usableFromInline
struct MatchedPairs {
    @usableFromInline let oldIDs: UnsafeRawPointer?, oldSlots: UnsafePointer<Int32>?
    @usableFromInline let newIDs: UnsafeRawPointer?, newSlots: UnsafePointer<Int32>?
    @usableFromInline let newToOld: UnsafePointer<Int32>?
    /// New positions (the length of `newToOld`, and of `newSlots` unless ``slotsArePositions``).
    @usableFromInline let newCount: Int
    /// Whether each position is its identifier's index on both sides (`oldSlots` and
    /// `newSlots` are then not read): the check of a pair reads no slot.
    @usableFromInline let slotsArePositions: Bool

    init(
        oldIDs: UnsafeRawPointer?, oldSlots: UnsafePointer<Int32>?, newIDs: UnsafeRawPointer?, newSlots: UnsafePointer<Int32>?,
        newToOld: UnsafePointer<Int32>?, newCount: Int, slotsArePositions: Bool = false
    ) {
        (self.oldIDs, self.oldSlots, self.newIDs, self.newSlots) = (oldIDs, oldSlots, newIDs, newSlots)
        (self.newToOld, self.newCount, self.slotsArePositions) = (newToOld, newCount, slotsArePositions)
    }

    /// Whether every matched pair (from new position `first` on) holds equal identifiers of
    /// type `T`. Each pair is read once,
    /// from `newToOld`: the core returns maps that are a matching or none (`dfc.h`,
    /// DFC_MATCH_DEFERRED: an old identifier found by two new ones stops the diff with
    /// DFC_ERR_SHARED_KEY), so no old identifier can have two partners here.
    /// - Complexity: O(newCount) comparisons.
    @inlinable
    func allEqual<T: Equatable>(as _: T.Type, from first: Int = 0) -> Bool {
        allPairs(as: T.self, from: first) { new, old, _, _ in old.pointee == new.pointee }
    }

    /// How many new positions, from the first, hold only pairs of identifiers with the same
    /// 16 bytes (`newCount` when every pair does), found a block of
    /// ``bitBlock`` positions at a time; for an identifier type of 16 bytes' stride whose
    /// equal bits mean equal values (`UUID`, whose `==` is exactly that; `String`, whose `==`
    /// answers yes for them before reading a character). Within a block no branch depends on a
    /// pair's answer: the pairs' differences are or-ed into one vector, read once at the
    /// block's end, where a loop stopping at the first unequal pair spent about 14.6
    /// instructions a pair (a `UUID` build + diff at 10^3). Blocks bound what pairs with other
    /// bits cost (strings equal but decoded afresh): the check stops at the first block holding
    /// one, and the caller compares the rest with `==`.
    /// Out of line: it is not generic, and inlined into the diff's specializations it kept
    /// the compiler from merging those that differ only in the `==` they call.
    /// - Complexity: O(newCount).
    @inline(never)
    func positionsSharingBits16() -> Int {
        var blockStart = 0
        while blockStart < newCount {
            let blockEnd = Swift.min(blockStart &+ Self.bitBlock, newCount)
            var differing = SIMD2<UInt64>()
            // Read unaligned: a `SIMD2` asks for 16-byte alignment, an identifier array gives 8.
            _ = allPairs(as: SixteenBytes.self, from: blockStart, to: blockEnd) { new, old, _, _ in
                let bits = UnsafeRawPointer(new).loadUnaligned(as: SIMD2<UInt64>.self)
                differing |= bits ^ UnsafeRawPointer(old).loadUnaligned(as: SIMD2<UInt64>.self)
                return true
            }
            if differing != SIMD2() { return blockStart }
            blockStart = blockEnd
        }
        return newCount
    }

    /// An identifier's 16 bytes, as ``positionsSharingBits16()`` reads them.
    @usableFromInline struct SixteenBytes { var low, high: UInt64 }

    /// New positions per block of ``positionsSharingBits16()``: few enough that pairs with
    /// other bits waste at most a block's check, enough that the test at its end is rare.
    @usableFromInline static var bitBlock: Int { 64 }

    /// Whether `body` holds for every matched pair, read in place as `T`: the new and the old
    /// identifier, the new position and its partner's, for the new positions `first..<end`
    /// (`end` by default `newCount`, at most it); stops at the first pair it refuses.
    /// - Complexity: O(newCount) calls of `body`.
    @inlinable @inline(__always)
    func allPairs<T>(
        as _: T.Type, from first: Int = 0, to end: Int? = nil, _ body: (UnsafePointer<T>, UnsafePointer<T>, Int, Int) -> Bool
    ) -> Bool {
        let end = end ?? newCount
        // No identifiers on a side: no pair (an old partner implies an old identifier).
        guard newCount > 0, let oldIDs, let newIDs, let newToOld else { return true }
        let old = oldIDs.assumingMemoryBound(to: T.self), new = newIDs.assumingMemoryBound(to: T.self)
        if slotsArePositions {
            for position in first..<end {
                let partner = Int(newToOld[position])
                if partner < 0 { continue }
                guard body(new + position, old + partner, position, partner) else { return false }
            }
            return true
        }
        // An empty side's slot list may have no buffer: it has no pair either.
        guard let oldSlots, let newSlots else { return true }
        for position in first..<end {
            let partner = Int(newToOld[position])
            if partner < 0 { continue }
            guard body(new + Int(newSlots[position]), old + Int(oldSlots[partner]), position, partner) else { return false }
        }
        return true
    }
}
