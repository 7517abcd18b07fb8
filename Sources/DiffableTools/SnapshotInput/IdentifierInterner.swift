internal import CSnapshotJSON
import Foundation

/// Numbers the identifiers of the documents to be diffed (0, 1, 2, … in order of first
/// appearance, equal bytes equal numbers), so the CLI builds and diffs
/// `DiffableDataSourceSnapshot<Int, Int>`: no Swift `String` per item, integer keys.
///
/// One interner serves both documents of a diff, so a number means the same identifier in
/// each. ``canonicalNumbers()`` then merges spellings that Swift's `==` holds equal
/// (canonical equivalence, `"caf\u{E9}"` and `"cafe\u{301}"`), so the diff of the numbers is
/// the diff of the strings.
public final class IdentifierInterner {
    let raw: OpaquePointer

    /// - Complexity: O(1).
    public init() {
        // An empty interner allocates nothing but its header: failing here means no memory at all.
        guard let raw = snapshot_interner_create() else { fatalError("Diffable: out of memory creating an interner") }
        self.raw = raw
    }

    deinit { snapshot_interner_free(raw) }

    /// How many distinct identifiers (byte strings) were numbered. - Complexity: O(1).
    public var count: Int { snapshot_interner_count(raw) }

    /// The identifier numbered `number`, as it was written; traps unless `number < count`.
    /// - Complexity: O(its length).
    public func string(_ number: Int) -> String {
        precondition((0..<count).contains(number), "no identifier numbered \(number) (\(count) interned)")
        let string = snapshot_interner_string(raw, UInt32(number))
        return String(decoding: UnsafeRawBufferPointer(start: string.bytes, count: string.length), as: UTF8.self)
    }

    /// The numbers of `strings` (byte ranges of `base`), appended to `numbers`.
    /// - Returns: false when out of memory (or past 2^32 − 2 distinct identifiers).
    /// - Complexity: O(total length) expected.
    func intern(_ strings: [snapshot_string], into numbers: inout [UInt32]) -> Bool {
        let first = numbers.count
        numbers.append(contentsOf: repeatElement(0, count: strings.count))
        return numbers.withUnsafeMutableBufferPointer { buffer in
            strings.withUnsafeBufferPointer { snapshot_interner_intern_batch(raw, $0.baseAddress, $0.count, buffer.baseAddress! + first) }
        } == 0
    }

    /// For every number, the number that stands for its equivalence class under Swift's
    /// `==`: itself, unless its identifier is canonically equivalent to another one's (only
    /// identifiers with a non-ASCII byte can be; the NFC spelling, when present, stands for
    /// the class, else the first seen). Nil when every number stands for itself.
    /// - Complexity: O(count) when some class has several spellings, plus O(length) per
    ///   non-ASCII identifier; O(1) when there is none.
    public func canonicalNumbers() -> [Int]? {
        var nonASCIICount = 0
        guard let nonASCII = snapshot_interner_non_ascii(raw, &nonASCIICount), nonASCIICount > 0 else { return nil }
        var canonical: [Int]?
        // Swift's String hashing agrees with its canonical-equivalence `==`.
        var classes: [String: Int] = [:]
        for number in UnsafeBufferPointer(start: nonASCII, count: nonASCIICount).map(Int.init) {
            let identifier = string(number)
            if let representative = classes[identifier] {
                if canonical == nil { canonical = Array(0..<count) }
                canonical![number] = representative
                continue
            }
            // The NFC spelling may be plain ASCII (U+212A KELVIN SIGN is "K"), interned apart.
            var nfc = identifier.precomposedStringWithCanonicalMapping
            let spelled = nfc.withUTF8 {
                snapshot_interner_find(raw, UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: CChar.self), $0.count)
            }
            let representative = spelled == SNAPSHOT_INTERNER_NOT_FOUND ? number : Int(spelled)
            classes[identifier] = representative
            if representative != number {
                if canonical == nil { canonical = Array(0..<count) }
                canonical![number] = representative
            }
        }
        return canonical
    }
}

@available(*, unavailable)
extension IdentifierInterner: Sendable {}
