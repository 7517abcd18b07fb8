/// Input that is not a snapshot: not readable, not UTF-8, not JSON or TSV, or not shaped as a
/// snapshot document. Names the source, where (line, column and byte offset) and what was
/// expected there, in one line.
public struct SnapshotInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file name, or `stdin`.
    public var source: String
    /// Where the problem is: 1-based line and column (in bytes) and the 0-based byte offset;
    /// nil when it is not at one place (an unreadable file).
    public var location: Location?
    /// The JSON path of the value in question (`sections[3].items`), when there is one.
    public var path: String?
    /// What is wrong and what was expected, e.g. `expected ',' or ']', found end of input`.
    public var message: String

    /// A place in the input.
    public struct Location: Equatable, Sendable {
        public var line: Int
        public var column: Int
        public var byteOffset: Int

        /// The location of `byteOffset` in `bytes`.
        /// - Complexity: O(byteOffset).
        public init(of byteOffset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
            var line = 1, lineStart = 0
            for index in 0..<min(byteOffset, bytes.count) where bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            self.line = line
            self.column = byteOffset - lineStart + 1
            self.byteOffset = byteOffset
        }
    }

    /// - Complexity: O(1).
    public init(source: String, location: Location? = nil, path: String? = nil, message: String) {
        self.source = source
        self.location = location
        self.path = path
        self.message = message
    }

    /// `'old.json' line 3, column 7 (byte offset 41) at sections[0].items: expected …`.
    public var description: String {
        var text = "'\(source)'"
        if let location {
            text += " line \(location.line), column \(location.column) (byte offset \(location.byteOffset))"
        }
        if let path { text += " at \(path)" }
        return text + ": " + message
    }
}
