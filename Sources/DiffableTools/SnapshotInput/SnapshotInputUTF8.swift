/// Where input stops being UTF-8: the TSV reader checks its whole input with it, the JSON
/// diagnosis uses it to name the first bad byte.
enum SnapshotInputUTF8 {
    /// The offset of the first byte that does not begin or continue a valid UTF-8 sequence
    /// (overlong forms, surrogates and code points above U+10FFFF are invalid), or nil.
    /// - Complexity: O(bytes.count).
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            // ASCII runs eight bytes at a time.
            if index + 8 <= count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the allowed range of the second byte
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return index
            }
            for position in 1..<length {
                guard index + position < count else { return index }
                let byte = bytes[index + position]
                let (lower, upper) = position == 1 ? (low, high) : (0x80, 0xBF)
                if byte < lower || byte > upper { return index }
            }
            index += length
        }
        return nil
    }

    /// The problem's words for a bad sequence starting with `byte`. - Complexity: O(1).
    static func message(startingWith byte: UInt8) -> String {
        "invalid UTF-8 (a sequence starting with byte \(hex(byte))); expected UTF-8 text"
    }

    /// `0xAB`. - Complexity: O(1).
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
    }
}
