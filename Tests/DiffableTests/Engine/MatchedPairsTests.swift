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

    /// Checks `newToOld` through the diff's own dispatch (`EqualityOracle.matchesAreEqual`),
    /// which settles `UUID` pairs and same-value `String` pairs by their 16 bytes; with
    /// `byPosition` each position is its identifier's index (no slot lists read).
    static func oracle<T: Equatable>(old: [T], new: [T], newToOld: [Int32], byPosition: Bool) -> Bool {
        // Slot lists that reverse each side, so that reading through them differs from by position.
        let oldSlots = byPosition ? [] : (0..<Int32(old.count)).reversed().map { $0 }
        let newSlots = byPosition ? [] : (0..<Int32(new.count)).reversed().map { $0 }
        let (oldIDs, newIDs) = byPosition ? (old, new) : (old.reversed(), new.reversed())
        return oldIDs.withUnsafeBufferPointer { oldIDs in
            newIDs.withUnsafeBufferPointer { newIDs in
                oldSlots.withUnsafeBufferPointer { oldSlots in
                    newSlots.withUnsafeBufferPointer { newSlots in
                        newToOld.withUnsafeBufferPointer { newToOld in
                            EqualityOracle.matchesAreEqual(
                                old: oldIDs, at: oldSlots, new: newIDs, at: newSlots, newCount: newToOld.count,
                                slotsArePositions: byPosition, newToOld: newToOld.baseAddress)
                        }
                    }
                }
            }
        }
    }

    static func uuid(_ bytes: [UInt8]) -> UUID {
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { raw in for (index, byte) in bytes.enumerated() { raw[index] = byte } }
        return UUID(uuid: value)
    }

    @Test(arguments: [false, true]) func uuidPairsAreEqualExactlyWhenAllSixteenBytesAre(byPosition: Bool) {
        let ids = (0..<5).map { Self.uuid(Array(repeating: UInt8($0), count: 16)) }
        // new j holds old 4 - j, new 5 is unmatched (its bytes differ from every old one's).
        let new = ids.reversed() + [Self.uuid(Array(repeating: 9, count: 16))]
        let map: [Int32] = [4, 3, 2, 1, 0, -1]
        #expect(Self.oracle(old: ids, new: new, newToOld: map, byPosition: byPosition))
        // One byte off, in the first half and in the second: the pair is unequal.
        for byte in [0, 7, 8, 15] {
            var changed = Array(repeating: UInt8(2), count: 16)
            changed[byte] ^= 0x80
            var edited = new
            edited[2] = Self.uuid(changed)
            #expect(!Self.oracle(old: ids, new: edited, newToOld: map, byPosition: byPosition), "byte \(byte)")
        }
        // An unmatched position is never read, whatever it holds.
        #expect(Self.oracle(old: ids, new: new, newToOld: [4, 3, -1, 1, 0, -1], byPosition: byPosition))
    }

    @Test(arguments: [false, true]) func stringPairsAreEqualBySameBitsOrByEquality(byPosition: Bool) {
        // Long enough to live in storage of their own: each copy below is another object.
        let old = (0..<4).map { "an identifier long enough for storage \($0)" }
        let shared = Array(old.reversed())
        #expect(Self.oracle(old: old, new: shared, newToOld: [3, 2, 1, 0], byPosition: byPosition))
        // Equal strings in storage of their own, and a canonically equivalent spelling: equal.
        let copies = shared.map { String(decoding: Array($0.utf8), as: UTF8.self) }
        let other = copies + ["caf\u{65}\u{301}"]
        #expect(Self.oracle(old: old + ["caf\u{E9}"], new: other, newToOld: [3, 2, 1, 0, 4], byPosition: byPosition))
        // One unequal pair among same-bits ones: unequal.
        var wrong = shared
        wrong[3] = "an identifier long enough for storage 9"
        #expect(!Self.oracle(old: old, new: wrong, newToOld: [3, 2, 1, 0], byPosition: byPosition))
    }

    /// The bit check alone (`MatchedPairs.positionsSharingBits16`): whether it vouches for every
    /// pair, over `UUID`s or `String`s, through slot lists when given, else by position.
    static func bits<T>(old: [T], oldSlots: [Int32]?, new: [T], newSlots: [Int32]?, newToOld: [Int32]) -> Bool {
        precondition(MemoryLayout<T>.stride == 16)
        return old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                (oldSlots ?? []).withUnsafeBufferPointer { oldSlotBuffer in
                    (newSlots ?? []).withUnsafeBufferPointer { newSlotBuffer in
                        newToOld.withUnsafeBufferPointer { newToOld in
                            MatchedPairs(
                                oldIDs: UnsafeRawPointer(old.baseAddress), oldSlots: oldSlotBuffer.baseAddress,
                                newIDs: UnsafeRawPointer(new.baseAddress), newSlots: newSlotBuffer.baseAddress,
                                newToOld: newToOld.baseAddress, newCount: newToOld.count, slotsArePositions: oldSlots == nil
                            ).positionsSharingBits16() == newToOld.count
                        }
                    }
                }
            }
        }
    }

    @Test func theBitCheckReadsEachSideThroughItsOwnSlots() {
        let (a, b, c, x) = (Self.uuid([1]), Self.uuid([2]), Self.uuid([3]), Self.uuid([4]))
        // Old positions show c, a, b (slots 2, 0, 1); new positions show c, b, x, a (slots 3, 1, 0, 2).
        let old = [a, b, c], oldSlots: [Int32] = [2, 0, 1]
        let new = [x, b, a, c], newSlots: [Int32] = [3, 1, 0, 2]
        #expect(Self.bits(old: old, oldSlots: oldSlots, new: new, newSlots: newSlots, newToOld: [0, 2, -1, 1]))
        // b paired with a, a with b: unequal.
        #expect(!Self.bits(old: old, oldSlots: oldSlots, new: new, newSlots: newSlots, newToOld: [0, 1, -1, 2]))
        // By position, sides of unequal lengths: new c, a, x, b against old a, b, c.
        #expect(Self.bits(old: old, oldSlots: nil, new: [c, a, x, b], newSlots: nil, newToOld: [2, 0, -1, 1]))
        #expect(!Self.bits(old: old, oldSlots: nil, new: [c, a, x, b], newSlots: nil, newToOld: [2, 1, -1, 0]))
        // Unmatched positions (x) are never read; no pair at all is vacuously true.
        #expect(Self.bits(old: old, oldSlots: nil, new: [x, x, x], newSlots: nil, newToOld: [-1, -1, -1]))
    }

    @Test func theBitCheckSaysNoForEqualStringsInStorageOfTheirOwn() {
        let old = ["an identifier long enough for storage"]
        let copy = [String(decoding: Array(old[0].utf8), as: UTF8.self)]
        #expect(Self.bits(old: old, oldSlots: nil, new: old, newSlots: nil, newToOld: [0]))
        // Equal, but other bits: the bit check cannot tell, so the caller goes on to `==`.
        #expect(!Self.bits(old: old, oldSlots: nil, new: copy, newSlots: nil, newToOld: [0]))
        #expect(Self.oracle(old: old, new: copy, newToOld: [0], byPosition: true))
    }

    @Test func theBitCheckStopsAtTheFirstBlockWithOtherBits() {
        // 200 positions, each new one the old one at its position; then one pair changed.
        let ids = (0..<200).map { Self.uuid([UInt8($0 % 256), UInt8($0 / 256), 7]) }
        let map = (0..<200).map { Int32($0) }
        func sharing(_ new: [UUID]) -> Int {
            ids.withUnsafeBufferPointer { old in
                new.withUnsafeBufferPointer { new in
                    map.withUnsafeBufferPointer { map in
                        MatchedPairs(
                            oldIDs: UnsafeRawPointer(old.baseAddress), oldSlots: nil, newIDs: UnsafeRawPointer(new.baseAddress),
                            newSlots: nil, newToOld: map.baseAddress, newCount: map.count, slotsArePositions: true
                        ).positionsSharingBits16()
                    }
                }
            }
        }
        #expect(sharing(ids) == 200)
        let block = MatchedPairs.bitBlock
        for changed in [0, block - 1, block, 150, 199] {
            var new = ids
            new[changed] = Self.uuid([9, 9, 9])
            // Every block before the changed pair's is vouched for, none from it on.
            #expect(sharing(new) == changed / block * block, "pair \(changed)")
            // The diff's check: the pairs from there on are compared with `==`, and one differs.
            #expect(!Self.oracle(old: ids, new: new, newToOld: map, byPosition: true))
        }
    }
}
