internal import CDiffCore

/// Equality confirmations for identifiers whose keys are hashes: the C core asks,
/// Swift answers with `==` on the identifiers behind the two positions.
///
/// Scoped like swift-collections' unsafe handles: the `dfc_match` handed to `body`
/// points at a context on this call's stack and at the caller's buffers, and is
/// valid only inside `body`; nothing is allocated and nothing outlives the call.
enum EqualityOracle {
    /// The type-erased comparison the C callback reaches through `user_data`.
    private struct Context {
        let equal: (Int32, UInt32, Int32, UInt32) -> Bool
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
        _ body: (inout dfc_match) -> R
    ) -> R {
        if injective {
            var match = dfc_match(kind: Int32(DFC_MATCH_INJECTIVE), equal: nil, user_data: nil)
            return body(&match)
        }
        if T.self == String.self {
            // Strings are the common hashed identifier: compare them with String's own `==`
            // (specialized code borrows both sides; the generic path copies, and so retains).
            return withCallback(
                UnsafeRawBufferPointer(oldIDs).bindMemory(to: String.self), oldSlots,
                UnsafeRawBufferPointer(newIDs).bindMemory(to: String.self), newSlots, body)
        }
        return withCallback(oldIDs, oldSlots, newIDs, newSlots, body)
    }

    @inline(__always)
    private static func withCallback<T: Equatable, R>(
        _ oldIDs: UnsafeBufferPointer<T>, _ oldSlots: UnsafeBufferPointer<Int32>,
        _ newIDs: UnsafeBufferPointer<T>, _ newSlots: UnsafeBufferPointer<Int32>,
        _ body: (inout dfc_match) -> R
    ) -> R {
        let oldBase = oldIDs.baseAddress, newBase = newIDs.baseAddress
        let equal = { (aSide: Int32, a: UInt32, bSide: Int32, b: UInt32) -> Bool in
            let left = aSide == Int32(DFC_SIDE_OLD) ? oldBase! + Int(oldSlots[Int(a)]) : newBase! + Int(newSlots[Int(a)])
            let right = bSide == Int32(DFC_SIDE_OLD) ? oldBase! + Int(oldSlots[Int(b)]) : newBase! + Int(newSlots[Int(b)])
            return left.pointee == right.pointee
        }
        return withoutActuallyEscaping(equal) { equal in
            var context = Context(equal: equal)
            return withUnsafeMutablePointer(to: &context) { context in
                var match = dfc_match(kind: Int32(DFC_MATCH_CALLBACK), equal: callback, user_data: UnsafeMutableRawPointer(context))
                return body(&match)
            }
        }
    }

    private static let callback: dfc_equal_fn = { user, aSide, a, bSide, b in
        user!.assumingMemoryBound(to: Context.self).pointee.equal(aSide, a, bSide, b) ? 1 : 0
    }
}
