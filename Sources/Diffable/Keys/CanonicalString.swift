import Foundation

/// The canonical byte form of a string identifier.
///
/// Swift's `==` treats canonically equivalent strings as equal (`"caf\u{E9}" ==
/// "cafe\u{301}"`), so their keys must be equal too: keys are computed over the
/// NFC form. ASCII is already NFC and skips normalization.
enum CanonicalString {
    /// The NFC form of `string`.
    /// - Complexity: O(1) extra work for ASCII beyond one scan, else O(length).
    static func nfc(_ string: String) -> String {
        if string.utf8.allSatisfy({ $0 < 0x80 }) { return string }
        return string.precomposedStringWithCanonicalMapping
    }
}
