import CDiffCore
import Foundation
import Testing

@testable import Diffable

/// String identifiers keyed in place when the core's quick check knows them to be NFC, and
/// `ListDiffer`'s String diff that trusts keys and confirms every match with `==`.
@Suite struct StringKeyTests {
    /// The key by definition: XXH3-64 of the NFC UTF-8, normalized by Foundation every time.
    static func referenceKey(_ string: String) -> UInt64 {
        var canonical = string.precomposedStringWithCanonicalMapping
        return canonical.withUTF8 { dfc_hash_one($0.baseAddress, $0.count, 0) }
    }

    /// Letters from scripts the quick check accepts, combining marks and composing jamo it
    /// must refuse, singletons that normalize to another character, and emoji.
    static let alphabet: [String] = [
        "a", "Z", "0", "-", " ", "\u{E9}", "\u{301}", "\u{327}", "\u{416}", "\u{483}", "\u{3042}", "\u{3099}",
        "\u{65E5}", "\u{AC00}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{212B}", "\u{2126}", "\u{1F600}", "\u{FE0F}",
        "\u{5D0}", "\u{64B}", "\u{F900}",
    ]

    @Test func everyStringGetsTheKeyOfItsNFCForm() {
        var generator = SeededGenerator(seed: 11)
        var keyedInPlace = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...10, using: &generator)
            let string = (0..<count).map { _ in Self.alphabet.randomElement(using: &generator)! }.joined()
            #expect(IdentifierKey.string(string) == Self.referenceKey(string), "\(string.debugDescription)")
            var copy = string
            var key: UInt64 = 0
            if copy.withUTF8({ dfc_hash_if_nfc($0.baseAddress, $0.count, 0, &key) }) == 1 { keyedInPlace += 1 }
        }
        // Both paths ran: the in-place one and the normalizing one.
        #expect(keyedInPlace > 1_000)
        #expect(keyedInPlace < 19_000)
    }

    @Test func keyColumnsMatchOneByOneKeys() {
        let strings = ["", "abc", "item-00000000001", "caf\u{E9}", "cafe\u{301}", "\u{65E5}\u{672C}", String(repeating: "x", count: 100)]
        #expect(IdentifierKey.strings(strings) == strings.map(Self.referenceKey))
        #expect(KeyStrategy.string.keys(strings) == strings.map(Self.referenceKey))
    }

    /// `strings` keys a batch at a time, reading long strings in place and copying short
    /// ones: every representation (inline small strings, literals in static memory, heap
    /// strings, a short string in a large buffer), NFC and not, on either side of every batch
    /// boundary, gets the key of its NFC form.
    @Test func batchedKeysMatchTheReferenceInEveryRepresentation() {
        var generator = SeededGenerator(seed: 29)
        var strings: [String] = ["", "a literal longer than fifteen bytes", "cafe\u{301} is a literal too, not NFC"]
        var roomy = "ab"
        roomy.reserveCapacity(64)  // two bytes in a heap buffer: not a small string
        strings.append(roomy)
        for index in 0..<300 {
            let count = Int.random(in: 0...40, using: &generator)
            var string = (0..<count).map { _ in Self.alphabet.randomElement(using: &generator)! }.joined()
            if index % 3 == 0 { string = "item-" + String(index) + string }
            strings.append(string)
        }
        let keys = IdentifierKey.strings(strings)
        #expect(keys.count == strings.count)
        for (string, key) in zip(strings, keys) {
            #expect(key == Self.referenceKey(string), "\(string.debugDescription)")
        }
        // Both lengths and both answers of the quick check were exercised.
        #expect(strings.contains { $0.utf8.count <= StringKeyBatch.longestInlineUTF8 })
        #expect(strings.contains { $0.utf8.count > StringKeyBatch.longestInlineUTF8 })
        #expect(strings.contains { $0 != $0.precomposedStringWithCanonicalMapping || $0.unicodeScalars.contains { $0.value == 0x301 } })
        #expect(strings.count > 3 * StringKeyBatch.size)
    }

    @Test func uuidKeyColumnsMatchOneByOneKeys() {
        let uuids = (0..<50).map { _ in UUID() } + [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        let oneByOne = uuids.map { uuid in withUnsafeBytes(of: uuid.uuid) { dfc_hash_one($0.baseAddress, $0.count, 0) } }
        #expect(KeyStrategy.uuid.keys(uuids) == oneByOne)
        #expect(oneByOne.map { $0 } == uuids.map { KeyStrategy.uuid.key($0) })
        #expect(Set(oneByOne).count == uuids.count)
    }

    @Test func canonicallyEquivalentSpellingsMatchInAFlatDiff() throws {
        let difference = try ListDiffer().difference(from: ["cafe\u{301}", "b", "\u{212B}"], to: ["b", "\u{C5}", "caf\u{E9}"])
        #expect(difference.deletes.isEmpty && difference.inserts.isEmpty)
        #expect(difference.matched == 3)
        #expect(difference.moves.count == 1)
    }

    @Test func duplicatesAreNamedWithTheirPositions() {
        #expect(throws: ListDifferenceError(duplicates: [.init(side: .new, identifier: "\"caf\u{E9}\"", firstIndex: 0, duplicateIndex: 2)]))
        {
            try ListDiffer().difference(from: ["a"], to: ["caf\u{E9}", "b", "cafe\u{301}"])
        }
    }

    /// The String diff equals the diff of the same lists written as distinct integers.
    @Test func stringDiffsEqualTheirIntegerTwins() throws {
        var generator = SeededGenerator(seed: 5)
        let differ = ListDiffer()
        for round in 0..<300 {
            let (old, new) = FlatDiffTests.randomPair(&generator, maxCount: round < 100 ? 12 : 400)
            // Half the names need normalizing, and the new list spells them the other way.
            func name(_ value: Int, decomposed: Bool) -> String {
                value.isMultiple(of: 2) ? "n\(value)" : (decomposed ? "e\u{301}\(value)" : "\u{E9}\(value)")
            }
            let oldNames = old.map { name($0, decomposed: true) }, newNames = new.map { name($0, decomposed: false) }
            #expect(try differ.difference(from: oldNames, to: newNames) == differ.difference(from: old, to: new))
        }
    }
}
