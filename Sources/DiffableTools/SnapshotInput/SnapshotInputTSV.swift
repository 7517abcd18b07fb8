#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The line-per-item form for pipelines: each line is `section<TAB>item`; consecutive lines
/// with the same section make one section, in order; `section<TAB>` (nothing after the TAB)
/// is a section without items. Lines end in LF (a CR before it is dropped); the last line
/// needs none. Identifiers cannot hold TAB, CR or LF, an item cannot be empty, and there are
/// no refresh requests (use JSON for those). A section that comes back after another one is a
/// second section with that identifier: the duplicate-section error, as in JSON.
enum SnapshotInputTSV {
    /// - Complexity: O(bytes.count).
    static func document(from bytes: UnsafeBufferPointer<UInt8>, source: String) throws(SnapshotInputError) -> SnapshotDocument {
        func problem(_ offset: Int, _ message: String) -> SnapshotInputError {
            SnapshotInputError(source: source, location: .init(of: offset, in: bytes), message: message)
        }
        if let invalid = SnapshotInputUTF8.firstInvalidOffset(in: bytes) {
            throw problem(invalid, SnapshotInputUTF8.message(startingWith: bytes[invalid]))
        }
        guard let base = bytes.baseAddress else { return SnapshotDocument(sections: []) }
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self) }
        var sections: [SnapshotDocument.Section] = []
        var currentID: Range<Int>?, currentItems: [String] = []
        func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            a.count == b.count && (a.isEmpty || memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0)
        }
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart, tab = -1
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A {
                if bytes[lineEnd] == 0x09 {
                    if tab >= 0 {
                        throw problem(lineEnd, "a second TAB; expected section<TAB>item (identifiers with TAB need the JSON form)")
                    }
                    tab = lineEnd
                }
                lineEnd += 1
            }
            let contentEnd = lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
            guard tab >= 0 else {
                throw problem(
                    contentEnd == lineStart ? lineStart : contentEnd,
                    contentEnd == lineStart ? "an empty line; expected section<TAB>item" : "no TAB in the line; expected section<TAB>item")
            }
            let id = lineStart..<tab, item = (tab + 1)..<contentEnd
            if currentID.map({ !sameBytes($0, id) }) ?? true {
                if let finished = currentID { sections.append(.init(id: text(finished), items: currentItems)) }
                currentID = id
                currentItems = []
            }
            if !item.isEmpty { currentItems.append(text(item)) }
            lineStart = lineEnd + 1
        }
        if let finished = currentID { sections.append(.init(id: text(finished), items: currentItems)) }
        return SnapshotDocument(sections: sections)
    }
}
