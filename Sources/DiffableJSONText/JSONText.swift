/// A growing UTF-8 buffer with the few JSON pieces written by hand where an encoder's
/// per-value work would dominate (the CLI's outputs, the web package's messages): literal
/// text, decimal integers and quoted strings. One writer for both, so escaping is decided once.
public struct JSONText: Sendable {
    /// The text so far.
    public private(set) var bytes: [UInt8] = []

    /// - Complexity: O(1).
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// The bytes as a `String`. - Complexity: O(bytes).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `text` as it is. - Complexity: O(text length).
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as it is. - Complexity: O(text length).
    public mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Appends another writer's text. - Complexity: O(its length).
    public mutating func append(_ other: JSONText) { bytes.append(contentsOf: other.bytes) }

    /// Appends a raw byte. - Complexity: O(1) amortized.
    public mutating func append(byte: UInt8) { bytes.append(byte) }

    /// Appends `value` in decimal. - Complexity: O(digits).
    public mutating func append(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            if value == .min {
                append(String(value).dropFirst().description)
                return
            }
        }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Appends `string` quoted, escaping `"`, `\`, control characters (as JSONEncoder does; not
    /// `/`) and U+2028/U+2029, so the text is also safe inside an HTML script element.
    /// - Complexity: O(string length).
    public mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var utf8 = string.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case ..<0x20:
                append("\\u00")
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; other E2 sequences pass through.
                guard let second = utf8.next() else {
                    bytes.append(byte)
                    break
                }
                guard second == 0x80, let third = utf8.next() else {
                    bytes.append(contentsOf: [byte, second])
                    break
                }
                switch third {
                case 0xA8: append("\\u2028")
                case 0xA9: append("\\u2029")
                default: bytes.append(contentsOf: [byte, second, third])
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}
