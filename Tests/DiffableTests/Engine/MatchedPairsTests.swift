import Foundation
import Testing

@testable import Diffable

/// The check that accepts a diff matched on keys alone: every matched pair equal; anything
/// else sends the diff to the confirming path. (That no old identifier has two partners is the
/// core's promise for DFC_MATCH_DEFERRED, tested in C: `map_pair_is_a_matching` in test_match.c.)
@Suite struct MatchedPairsTests {
    /// Checks `newToOld` over identifiers reached through slots.
    static func check(old: [String], oldSlots: [Int32], new: [String], newSlots: [Int32], newToOld: [Int32]) -> Bool {
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                oldSlots.withUnsafeBufferPointer { oldSlots in
                    newSlots.withUnsafeBufferPointer { newSlots in
                        newToOld.withUnsafeBufferPointer { newToOld in
                            let pairs = MatchedPairs(
                                oldIDs: UnsafeRawPointer(old.baseAddress), oldSlots: oldSlots.baseAddress,
                                newIDs: UnsafeRawPointer(new.baseAddress), newSlots: newSlots.baseAddress,
                                newToOld: newToOld.baseAddress, newCount: newSlots.count)
                            return pairs.allEqual(as: String.self)
                        }
                    }
                }
            }
        }
    }

    /// Old positions hold slots 1, 0, 2 ("b", "a", "c"); new positions hold "c", "x", "a".
    static let old = ["a", "b", "c"], oldSlots: [Int32] = [1, 0, 2]
    static let new = ["a", "c", "x"], newSlots: [Int32] = [1, 2, 0]

    @Test func equalPairsPass() {
        // new 0 ("c") ↔ old 2 ("c"), new 2 ("a") ↔ old 1 ("a"), new 1 ("x") unmatched.
        #expect(
            Self.check(
                old: Self.old, oldSlots: Self.oldSlots, new: Self.new, newSlots: Self.newSlots, newToOld: [2, -1, 1]))
    }

    @Test func anUnequalPairFails() {
        // new 1 ("x") paired with old 0 ("b"): one key, two identifiers.
        #expect(
            !Self.check(
                old: Self.old, oldSlots: Self.oldSlots, new: Self.new, newSlots: Self.newSlots, newToOld: [2, 0, 1]))
    }

    @Test func theLastPairIsChecked() {
        // new 0 ("c") ↔ old 2 ("c"), then new 2 ("a") paired with old 0 ("b").
        #expect(
            !Self.check(old: Self.old, oldSlots: Self.oldSlots, new: Self.new, newSlots: Self.newSlots, newToOld: [2, -1, 0]))
    }

    @Test func noPairsPass() {
        #expect(Self.check(old: [], oldSlots: [], new: Self.new, newSlots: Self.newSlots, newToOld: [-1, -1, -1]))
        #expect(Self.check(old: Self.old, oldSlots: Self.oldSlots, new: [], newSlots: [], newToOld: []))
    }
}
