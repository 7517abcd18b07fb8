internal import CDiffCore
import Foundation

/// Equality for identifiers whose keys are hashes: the matches a diff made on keys alone
/// checked in one pass (``matchesAreEqual(old:at:new:at:newCount:slotsArePositions:newToOld:equality:)``), or,
/// when identifiers share a key, each key match confirmed as the C core meets it (the core
/// asks, Swift answers with `==` on the identifiers behind the two positions).
///
/// Scoped like swift-collections' unsafe handles: the `dfc_match` handed to `body`
/// points at a context on this call's stack and at the caller's buffers, and is
/// valid only inside `body`; nothing is allocated and nothing outlives the call.
enum EqualityOracle {
    /// What the C callback reaches through `user_data`: the two sides' identifiers and slots,
    /// and which comparison to run. Plain values only, so a confirmation copies nothing and
    /// retains nothing (a stored closure would be retained and released on every call).
    private struct Context {
        let oldIDs: UnsafeRawPointer?, oldSlots: UnsafePointer<Int32>?
        let newIDs: UnsafeRawPointer?, newSlots: UnsafePointer<Int32>?
        let comparison: any Comparison.Type
        /// The caller's `==` (see ``ItemEquality``), not retained: the caller's reference
        /// outlives the diff. The identifiers are `stride` bytes apart.
        let callerEquality: Unmanaged<ItemEquality>?
        let stride: Int
    }

    /// One `==` between the identifiers at two flat positions.
    private protocol Comparison {
        static func equal(_ context: UnsafePointer<Context>, _ aSide: Int32, _ a: UInt32, _ bSide: Int32, _ b: UInt32) -> Bool
    }

    /// Any identifier type: `==` through its witness, the identifiers borrowed in place.
    private enum Generic<T: Equatable>: Comparison {
        static func equal(_ context: UnsafePointer<Context>, _ aSide: Int32, _ a: UInt32, _ bSide: Int32, _ b: UInt32) -> Bool {
            compare(T.self, context, aSide, a, bSide, b)
        }
    }

    @inline(__always)
    private static func compare<T: Equatable>(
        _: T.Type, _ context: UnsafePointer<Context>, _ aSide: Int32, _ a: UInt32, _ bSide: Int32, _ b: UInt32
    ) -> Bool {
        @inline(__always)
        func identifier(_ side: Int32, _ position: UInt32) -> UnsafePointer<T> {
            let old = side == Int32(DFC_SIDE_OLD)
            let ids = (old ? context.pointee.oldIDs : context.pointee.newIDs)!.assumingMemoryBound(to: T.self)
            return ids + Int((old ? context.pointee.oldSlots : context.pointee.newSlots)![Int(position)])
        }
        return identifier(aSide, a).pointee == identifier(bSide, b).pointee
    }

    /// The match rule of one level for a diff whose matches are checked afterwards: keys decide
    /// (injective keys need no check; hashed ones are checked by
    /// ``matchesAreEqual(old:at:new:at:newCount:slotsArePositions:newToOld:equality:)``).
    /// - Complexity: O(1).
    static func deferredMatch(injective: Bool) -> dfc_match {
        dfc_match(kind: Int32(injective ? DFC_MATCH_INJECTIVE : DFC_MATCH_DEFERRED), equal: nil, user_data: nil)
    }

    /// Whether every pair a diff matched on keys alone (`newToOld`: the result's map by flat
    /// position, a matching whenever the diff succeeded, `newCount` long; with
    /// `slotsArePositions` each position is its identifier's index, the slot lists unread)
    /// holds equal identifiers: through the caller's `equality` when
    /// given (one call, its loop specialized in the caller's module), else here, specialized
    /// for `String` and `UUID` and wherever `T` is known.
    /// - Complexity: O(new positions) comparisons.
    static func matchesAreEqual<T: Equatable>(
        old oldIDs: UnsafeBufferPointer<T>, at oldSlots: UnsafeBufferPointer<Int32>,
        new newIDs: UnsafeBufferPointer<T>, at newSlots: UnsafeBufferPointer<Int32>,
        newCount: Int, slotsArePositions: Bool = false, newToOld: UnsafePointer<Int32>?, equality: ItemEquality? = nil
    ) -> Bool {
        let pairs = MatchedPairs(
            oldIDs: UnsafeRawPointer(oldIDs.baseAddress), oldSlots: oldSlots.baseAddress,
            newIDs: UnsafeRawPointer(newIDs.baseAddress), newSlots: newSlots.baseAddress,
            newToOld: newToOld, newCount: newCount, slotsArePositions: slotsArePositions)
        // Borrowed, not retained: the caller holds the equality for the whole diff.
        if let equality = equality.map(Unmanaged.passUnretained) {
            return equality._withUnsafeGuaranteedRef { $0.matchesAreEqual(pairs) }
        }
        // Both 16 bytes: equal bits settle every pair of UUIDs, and every pair of strings that
        // are the same `String` value (as an app's snapshots mostly hold). From the first block
        // of pairs whose bits differ (strings in storage of their own, or a hash collision) on,
        // the pairs are compared with `==`. One shape for both types: the compiler then merges
        // the diff's specializations for them, which differ only in the `==` called.
        // (A constant test, folded away: both layouts are 16 bytes on every 64-bit platform.)
        guard MemoryLayout<String>.stride == 16, MemoryLayout<UUID>.stride == 16 else { return pairs.allEqual(as: T.self) }
        if T.self == String.self || T.self == UUID.self {
            let shared = pairs.positionsSharingBits16()
            return shared == pairs.newCount || pairs.allEqual(as: T.self, from: shared)
        }
        return pairs.allEqual(as: T.self)
    }

    /// Calls `body` with the match rule for one level (sections or items): injective keys
    /// need no confirmation; hashed keys are confirmed by comparing, in place through the
    /// buffers, the identifiers at flat positions (position `i` of a side holds
    /// `identifiers[slots[i]]`) — no copy and no retain of either identifier per call.
    /// - Complexity: O(1) plus `body`; each confirmation is one `==`.
    static func withMatch<T: Equatable, R>(
        injective: Bool,
        old oldIDs: UnsafeBufferPointer<T>, at oldSlots: UnsafeBufferPointer<Int32>,
        new newIDs: UnsafeBufferPointer<T>, at newSlots: UnsafeBufferPointer<Int32>,
        equality: ItemEquality? = nil,
        _ body: (inout dfc_match) -> R
    ) -> R {
        if injective {
            var match = dfc_match(kind: Int32(DFC_MATCH_INJECTIVE), equal: nil, user_data: nil)
            return body(&match)
        }
        var context = Context(
            oldIDs: UnsafeRawPointer(oldIDs.baseAddress), oldSlots: oldSlots.baseAddress,
            newIDs: UnsafeRawPointer(newIDs.baseAddress), newSlots: newSlots.baseAddress,
            comparison: Generic<T>.self, callerEquality: equality.map { Unmanaged.passUnretained($0) },
            stride: MemoryLayout<T>.stride)
        // The hashed identifier types the library knows get a callback of their own, their
        // `==` specialized and inlined; a comparison reached through the context's metatype
        // runs the unspecialized body (a copy of each identifier through its value witness and
        // `==` through the witness table: a quarter of a 10^3-item UUID build + diff).
        let callback =
            T.self == String.self
            ? stringCallback : T.self == UUID.self ? uuidCallback : equality != nil ? callerCallback : genericCallback
        return withExtendedLifetime(equality) {
            withUnsafeMutablePointer(to: &context) { context in
                var match = dfc_match(kind: Int32(DFC_MATCH_CALLBACK), equal: callback, user_data: UnsafeMutableRawPointer(context))
                return body(&match)
            }
        }
    }

    /// The caller's `==` on the identifiers at two flat positions, reached by address.
    private static let callerCallback: dfc_equal_fn = { user, aSide, a, bSide, b in
        let context = UnsafePointer(user!.assumingMemoryBound(to: Context.self))
        @inline(__always)
        func identifier(_ side: Int32, _ position: UInt32) -> UnsafeRawPointer {
            let old = side == Int32(DFC_SIDE_OLD)
            let ids = (old ? context.pointee.oldIDs : context.pointee.newIDs)!
            return ids + Int((old ? context.pointee.oldSlots : context.pointee.newSlots)![Int(position)]) &* context.pointee.stride
        }
        // One pair, checked as the pairs of a whole diff are (the caller's only closure).
        var zero: Int32 = 0
        let equal = withUnsafePointer(to: &zero) { zero in
            let pair = MatchedPairs(
                oldIDs: identifier(aSide, a), oldSlots: zero, newIDs: identifier(bSide, b), newSlots: zero,
                newToOld: zero, newCount: 1)
            return context.pointee.callerEquality!._withUnsafeGuaranteedRef { $0.matchesAreEqual(pair) }
        }
        return equal ? 1 : 0
    }

    private static let genericCallback: dfc_equal_fn = { user, aSide, a, bSide, b in
        let context = UnsafePointer(user!.assumingMemoryBound(to: Context.self))
        return context.pointee.comparison.equal(context, aSide, a, bSide, b) ? 1 : 0
    }

    private static let stringCallback: dfc_equal_fn = { user, aSide, a, bSide, b in
        compare(String.self, UnsafePointer(user!.assumingMemoryBound(to: Context.self)), aSide, a, bSide, b) ? 1 : 0
    }

    private static let uuidCallback: dfc_equal_fn = { user, aSide, a, bSide, b in
        compare(UUID.self, UnsafePointer(user!.assumingMemoryBound(to: Context.self)), aSide, a, bSide, b) ? 1 : 0
    }
}
