import Testing

@testable import Diffable

/// The trusted `[String]` diff pairs the strings both lists share by their bits
/// (`StringPairKeys`) and hashes only the rest: its results are those of the same lists
/// written as integers, whatever the strings share.
@Suite struct StringPairKeysTests {
    /// The string of `value` in one of three forms: inline (short), on the heap (long), or
    /// needing normalization (its decomposed spelling on one side, the composed one on the other).
    static func name(_ value: Int, composed: Bool) -> String {
        switch value % 3 {
        case 0: "s\(value)"
        case 1: "a heap string longer than fifteen bytes, number \(value)"
        default: composed ? "\u{E9}-\(value)-padding-to-the-heap" : "e\u{301}-\(value)-padding-to-the-heap"
        }
    }

    /// `new` as strings: each value's old `String` itself (same storage), or, for some, an
    /// equal string of its own (another storage, or the other canonical spelling).
    static func names(old: [Int], new: [Int], oldNames: [String], using generator: inout SeededGenerator) -> [String] {
        let position = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1, $0) })
        return new.map { value in
            if let index = position[value], Int.random(in: 0..<10, using: &generator) < 8 { return oldNames[index] }
            // A string built afresh: equal, never the same storage.
            return String(decoding: Array(name(value, composed: true).utf8), as: UTF8.self)
        }
    }

    @Test func sharedStringDiffsEqualTheirIntegerTwins() throws {
        var generator = SeededGenerator(seed: 41)
        let differ = ListDiffer()
        var pairedSome = 0
        for round in 0..<300 {
            let (old, new) = FlatDiffTests.randomPair(&generator, maxCount: round < 100 ? 12 : 1_500)
            let oldNames = old.map { Self.name($0, composed: false) }
            let newNames = Self.names(old: old, new: new, oldNames: oldNames, using: &generator)
            let expected = try differ.difference(from: old, to: new, assumeUnique: true)
            #expect(try differ.difference(from: oldNames, to: newNames, assumeUnique: true) == expected, "round \(round)")
            #expect(try differ.difference(from: oldNames, to: newNames) == expected, "round \(round), validated")
            let keys = StringPairKeys.keys(old: oldNames, new: newNames)
            if zip(keys.new, newNames).contains(where: { $0.0 != IdentifierKey.string($0.1) }) { pairedSome += 1 }
        }
        // The walk paired strings in most rounds (not in shuffles past its probation).
        #expect(pairedSome > 100)
    }

    /// Each key is the canonical one, or a made-up key shared by exactly one old and one new
    /// string that are the same `String` value.
    @Test func madeUpKeysMarkPairsOfTheSameValue() {
        let old = (0..<600).map { Self.name($0, composed: false) }
        var new = Array(old[5...])  // a stretch deleted at the front
        new.insert("a new string of enough length to live on the heap", at: 300)
        new.swapAt(10, 500)
        let keys = StringPairKeys.keys(old: old, new: new)
        #expect(keys.unambiguous)
        let madeUp = Set(keys.old.enumerated().compactMap { $1 == StringPairKeys.defaultBase &+ UInt64($0) ? $1 : nil })
        #expect(madeUp.count > 500)
        for (index, key) in keys.old.enumerated() where !madeUp.contains(key) {
            #expect(key == IdentifierKey.string(old[index]))
        }
        for (index, key) in keys.new.enumerated() {
            if madeUp.contains(key) {
                let partner = Int(key &- StringPairKeys.defaultBase)
                #expect(StringPairKeys.sameBits(old, partner, new, index))
            } else {
                #expect(key == IdentifierKey.string(new[index]))
            }
        }
    }

    /// A made-up key that meets the canonical key of an unequal string matches the two; the
    /// confirmation rejects it and the byte-confirmed diff gives the exact result.
    @Test func aMadeUpKeyMeetingARealKeyIsCaught() throws {
        let shared = "a shared string stored on the heap", fresh = "a fresh string, unequal to the shared one"
        let old = [shared, "b"], new = [fresh, shared]
        // Pair 0 (old index 0) gets base + 0: make that the fresh string's own key.
        let base = IdentifierKey.string(fresh)
        let keys = StringPairKeys.keys(old: old, new: new, base: base)
        #expect(keys.old[0] == keys.new[0] && keys.new[1] == keys.new[0], "the collision this test needs")
        #expect(!keys.unambiguous)
        let difference = try ListDiffer().difference(from: old, to: new, assumeUnique: true, pairKeyBase: base)
        let expected = try ListDiffer().difference(from: [1, 2], to: [3, 1])
        #expect(difference == expected)
    }
}

extension StringPairKeys {
    /// The keys `write` gives `old` and `new`, as arrays.
    static func keys(old: [String], new: [String], base: UInt64 = defaultBase) -> (old: [UInt64], new: [UInt64], unambiguous: Bool) {
        var scratch = StringKeyScratch()
        let unambiguous = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { write(old: old, new: $0, base: base, into: &scratch) }
        }
        return (Array(scratch.old.prefix(old.count)), Array(scratch.new.prefix(new.count)), unambiguous)
    }

    /// `sameBits` on two arrays, for tests.
    static func sameBits(_ old: [String], _ oldIndex: Int, _ new: [String], _ newIndex: Int) -> Bool {
        old.withUnsafeBytes { old in new.withUnsafeBytes { sameBits(old.baseAddress!, oldIndex, $0.baseAddress!, newIndex) } }
    }
}
