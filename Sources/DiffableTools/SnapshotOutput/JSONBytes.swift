/// A growing UTF-8 buffer with the few JSON pieces the CLI writes by hand: literal text,
/// decimal integers and quoted strings (escaped as JSONEncoder escapes them).
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    /// - Complexity: O(1).
    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Appends `text` as it is. - Complexity: O(text length).
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as it is. - Complexity: O(text length).
    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Appends a raw byte. - Complexity: O(1) amortized.
    mutating func append(byte: UInt8) { bytes.append(byte) }

    /// Appends `value` in decimal. - Complexity: O(digits).
    mutating func append(_ value: Int) {
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

    /// Appends `string` quoted, escaping `"`, `\` and control characters (not `/`).
    /// - Complexity: O(string length).
    mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case ..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                append("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
