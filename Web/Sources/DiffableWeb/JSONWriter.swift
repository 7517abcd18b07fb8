/// Builds the compact JSON text of the messages sent to the browser, without an encoder's
/// per-value overhead (a 10^5-row reload is one pass over the rows).
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ other: JSONWriter) {
        bytes.append(contentsOf: other.bytes)
    }

    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A JSON string: quotes, backslashes and control characters escaped; U+2028/2029 too, so
    /// the text is also safe inside a script element.
    mutating func string(_ value: String) {
        bytes.append(0x22)
        var utf8 = value.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x00..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 / E2 80 A9.
                guard let second = utf8.next() else {
                    bytes.append(byte)
                    break
                }
                guard second == 0x80, let third = utf8.next() else {
                    bytes.append(contentsOf: [byte, second])
                    break
                }
                if third == 0xA8 || third == 0xA9 {
                    bytes.append(contentsOf: third == 0xA8 ? "\\u2028".utf8 : "\\u2029".utf8)
                } else {
                    bytes.append(contentsOf: [byte, second, third])
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}
