/// Says where and why a JSON snapshot document is invalid, for input the fast parser
/// (simdjson) rejected: simdjson reports only that a document is invalid, never where, so
/// this second pass, run on the error path only, walks the snapshot grammar byte by byte.
///
/// It reports the first problem in reading order: broken JSON (`expected ',' or ']'`, end
/// of input inside a string), bytes that are not UTF-8, or a valid JSON value of the wrong
/// shape (a number where an identifier belongs, a missing, repeated or unknown key).
struct SnapshotInputDiagnosis {
    private typealias Document = SnapshotFormatKeys.Document
    private typealias Section = SnapshotFormatKeys.Section

    /// What the grammar expects at a value.
    private enum Expected {
        case document, sections, section, identifiers, identifier, anyValue

        var words: String {
            switch self {
            case .document: "an object {\"\(Document.sections.rawValue)\": [...]}"
            case .sections: "an array of sections"
            case .section: "a section object {\"\(Section.id.rawValue)\": ..., \"\(Section.items.rawValue)\": [...]}"
            case .identifiers: "an array of identifiers"
            case .identifier: "a string (an identifier)"
            case .anyValue: "a JSON value"
            }
        }

        /// The keys an object of this kind may have, the required ones first.
        var keys: (required: [String], optional: [String]) {
            switch self {
            case .document:
                (Document.allCases.filter(\.isRequired).map(\.rawValue), Document.allCases.filter { !$0.isRequired }.map(\.rawValue))
            case .section: (Section.allCases.map(\.rawValue), [])
            default: ([], [])
            }
        }

        /// What the value of a known `key` must be.
        func member(_ key: String) -> Expected {
            switch self {
            case .document: Document(rawValue: key) == .sections ? .sections : .identifiers
            case .section: Section(rawValue: key) == .id ? .identifier : .identifiers
            default: .anyValue
            }
        }

        var element: Expected { self == .sections ? .section : self == .identifiers ? .identifier : .anyValue }
    }

    private struct Problem: Error {
        var offset: Int
        var path: String?
        var message: String
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let lenient: Bool
    private var position = 0
    private var path: [String] = []

    /// The most levels of values one inside another, the document's own object being the
    /// first: simdjson's limit (`DEFAULT_MAX_DEPTH`; a scalar takes a level too), so that
    /// both reject the same documents.
    static let maximumDepth = 1024

    private init(bytes: UnsafeBufferPointer<UInt8>, lenient: Bool) {
        self.bytes = bytes
        self.lenient = lenient
    }

    /// The first problem in `bytes` as a snapshot document, or nil when there is none.
    /// - Complexity: O(bytes.count).
    static func diagnose(_ bytes: UnsafeBufferPointer<UInt8>, source: String, lenient: Bool) -> SnapshotInputError? {
        var walker = SnapshotInputDiagnosis(bytes: bytes, lenient: lenient)
        var problem: Problem?
        do {
            try walker.document()
        } catch {
            problem = error
        }
        if let invalid = SnapshotInputUTF8.firstInvalidOffset(in: bytes), invalid <= problem?.offset ?? Int.max {
            problem = Problem(
                offset: invalid, path: nil,
                message: SnapshotInputUTF8.message(startingWith: bytes[invalid]))
        }
        return problem.map {
            SnapshotInputError(source: source, location: .init(of: $0.offset, in: bytes), path: $0.path, message: $0.message)
        }
    }

    // MARK: - The grammar

    private mutating func document() throws(Problem) {
        try value(.document, depth: 0)
        skipSpace()
        if position < bytes.count { throw fail("expected the end of input after the document, found \(found())") }
    }

    private mutating func value(_ expected: Expected, depth: Int) throws(Problem) {
        skipSpace()
        guard position < bytes.count else { throw fail("expected \(expected.words), found the end of input") }
        if depth >= Self.maximumDepth { throw fail("values nested deeper than \(Self.maximumDepth) levels") }
        let start = position
        func shape(_ what: String) -> Problem {
            Problem(offset: start, path: pathText, message: "expected \(expected.words), found \(what)")
        }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            guard [.document, .section, .anyValue].contains(expected) else { throw shape("an object") }
            try object(expected, depth: depth)
        case UInt8(ascii: "["):
            guard [.sections, .identifiers, .anyValue].contains(expected) else { throw shape("an array") }
            try array(of: expected.element, depth: depth)
        case UInt8(ascii: "\""):
            guard [.identifier, .anyValue].contains(expected) else { throw shape("a string") }
            _ = try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard expected == .anyValue else { throw shape("a number") }
            try number()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            try literal()
            guard expected == .anyValue else { throw shape(bytes[start] == UInt8(ascii: "n") ? "null" : "a boolean") }
        default:
            throw fail("expected \(expected.words), found \(found())")
        }
    }

    private mutating func object(_ expected: Expected, depth: Int) throws(Problem) {
        let start = position
        position += 1  // {
        var seen: Set<String> = []
        let (required, optional) = expected.keys
        skipSpace()
        if peek(UInt8(ascii: "}")) {
            position += 1
        } else {
            while true {
                skipSpace()
                guard peek(UInt8(ascii: "\"")) else {
                    throw fail("expected a key in double quotes\(seen.isEmpty ? " or '}'" : ""), found \(found())")
                }
                let keyStart = position
                let key = try string()
                skipSpace()
                guard peek(UInt8(ascii: ":")) else { throw fail("expected ':' after the key \"\(key)\", found \(found())") }
                position += 1
                let known = expected == .anyValue || required.contains(key) || optional.contains(key)
                if !known && !lenient {
                    throw Problem(offset: keyStart, path: pathText, message: KnownKeys.unknownKeyMessage(key, known: required + optional))
                }
                if expected != .anyValue && known && !seen.insert(key).inserted {
                    throw Problem(offset: keyStart, path: pathText, message: "the key \"\(key)\" appears twice; expected it once")
                }
                path.append("." + key)
                try value(known && expected != .anyValue ? expected.member(key) : .anyValue, depth: depth + 1)
                path.removeLast()
                skipSpace()
                if peek(UInt8(ascii: ",")) {
                    position += 1
                    continue
                }
                guard peek(UInt8(ascii: "}")) else { throw fail("expected ',' or '}' after the value of \"\(key)\", found \(found())") }
                position += 1
                break
            }
        }
        if let missing = required.first(where: { !seen.contains($0) }) {
            throw Problem(offset: start, path: pathText, message: "missing key \"\(missing)\"; expected \(expected.words)")
        }
    }

    private mutating func array(of element: Expected, depth: Int) throws(Problem) {
        position += 1  // [
        skipSpace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            return
        }
        var index = 0
        while true {
            path.append("[\(index)]")
            try value(element, depth: depth + 1)
            path.removeLast()
            skipSpace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                index += 1
                continue
            }
            guard peek(UInt8(ascii: "]")) else { throw fail("expected ',' or ']' after element \(index) of the array, found \(found())") }
            position += 1
            return
        }
    }

    /// A string token; returns its value with escapes resolved (keys are compared by value).
    private mutating func string() throws(Problem) -> String {
        position += 1  // "
        var value: [UInt8] = []
        while true {
            guard position < bytes.count else { throw fail("expected '\"' to close the string, found the end of input") }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &value)
            case ..<0x20:
                throw fail("expected control characters in a string escaped (\\n, \\t, \\u00XX), found byte \(SnapshotInputUTF8.hex(byte))")
            default:
                value.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape(into value: inout [UInt8]) throws(Problem) {
        position += 1  // backslash
        guard position < bytes.count else { throw fail("expected an escape after '\\', found the end of input") }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[bytes[position]] {
            value.append(replacement)
            position += 1
            return
        }
        guard bytes[position] == UInt8(ascii: "u") else {
            throw fail("expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) after '\\', found \(found())")
        }
        position += 1
        var scalar = try hexQuad()
        if (0xD800...0xDBFF).contains(scalar) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw fail("expected \\uDC00...\\uDFFF to complete the surrogate pair, found \(found())")
            }
            position += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("expected a low surrogate \\uDC00...\\uDFFF before this point") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw fail("expected a high surrogate before the low surrogate \\u\(String(scalar, radix: 16, uppercase: true))")
        }
        value.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
    }

    private mutating func hexQuad() throws(Problem) -> UInt32 {
        var scalar: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = Self.hexValue(bytes[position]) else {
                throw fail("expected four hexadecimal digits after \\u, found \(found())")
            }
            scalar = scalar << 4 | digit
            position += 1
        }
        return scalar
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() throws(Problem) {
        if peek(UInt8(ascii: "-")) { position += 1 }
        if peek(UInt8(ascii: "0")) {
            position += 1
        } else {
            try digits("in the number")
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            try digits("after the decimal point")
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            try digits("in the exponent")
        }
    }

    private mutating func digits(_ place: String) throws(Problem) {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        if position == start { throw fail("expected a digit \(place), found \(found())") }
    }

    private mutating func literal() throws(Problem) {
        guard let word = ["true", "false", "null"].first(where: { bytes[position] == $0.utf8.first }) else { return }
        for expected in word.utf8 {
            guard peek(expected) else { throw fail("expected \(word), found \(found())") }
            position += 1
        }
    }

    // MARK: - Helpers

    private mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

    /// The token at the current position, in words.
    private func found() -> String {
        guard position < bytes.count else { return "the end of input" }
        let byte = bytes[position]
        return (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(SnapshotInputUTF8.hex(byte))"
    }

    private var pathText: String? {
        path.isEmpty ? nil : String(path.joined().dropFirst(path[0].hasPrefix(".") ? 1 : 0))
    }

    private func fail(_ message: String) -> Problem { Problem(offset: position, path: pathText, message: message) }
}
