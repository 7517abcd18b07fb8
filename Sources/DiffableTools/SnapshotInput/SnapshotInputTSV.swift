internal import CSnapshotJSON

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
    /// Items are numbered in batches of this many (the interner prefetches within a batch).
    static let batchSize = 4096

    /// - Complexity: O(bytes.count) expected.
    static func document(from bytes: UnsafeBufferPointer<UInt8>, source: String, interner: IdentifierInterner) throws(SnapshotInputError)
        -> NumberedSnapshotDocument
    {
        func problem(_ offset: Int, _ message: String) -> SnapshotInputError {
            SnapshotInputError(source: source, location: .init(of: offset, in: bytes), message: message)
        }
        if let invalid = SnapshotInputUTF8.firstInvalidOffset(in: bytes) {
            throw problem(invalid, SnapshotInputUTF8.message(startingWith: bytes[invalid]))
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return NumberedSnapshotDocument(sections: [], sectionItemEnds: [], items: [])
        }
        var sections: [UInt32] = [], sectionItemEnds: [Int] = [], items: [UInt32] = []
        var pending: [snapshot_string] = []
        pending.reserveCapacity(batchSize)
        func string(_ range: Range<Int>) -> snapshot_string {
            snapshot_string(bytes: UnsafeRawPointer(base + range.lowerBound).assumingMemoryBound(to: CChar.self), length: range.count)
        }
        func flush(into numbers: inout [UInt32]) throws(SnapshotInputError) {
            guard interner.intern(pending, into: &numbers) else {
                throw SnapshotInputError(source: source, message: "out of memory while reading \(bytes.count) bytes")
            }
            pending.removeAll(keepingCapacity: true)
        }
        var currentSection: Range<Int>?
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd =
                memchr(base + lineStart, 0x0A, bytes.count - lineStart).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
            let contentEnd = lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
            guard let tabPointer = memchr(base + lineStart, 0x09, contentEnd - lineStart) else {
                throw problem(
                    contentEnd,
                    contentEnd == lineStart ? "an empty line; expected section<TAB>item" : "no TAB in the line; expected section<TAB>item")
            }
            let tab = UnsafeRawPointer(tabPointer) - UnsafeRawPointer(base)
            if let second = memchr(base + tab + 1, 0x09, contentEnd - tab - 1) {
                throw problem(
                    UnsafeRawPointer(second) - UnsafeRawPointer(base),
                    "a second TAB; expected section<TAB>item (identifiers with a TAB need the JSON form)")
            }
            if let crPointer = memchr(base + lineStart, 0x0D, contentEnd - lineStart) {
                throw problem(UnsafeRawPointer(crPointer) - UnsafeRawPointer(base), "a CR inside the line; expected section<TAB>item")
            }
            let section = lineStart..<tab, item = (tab + 1)..<contentEnd
            if currentSection.map({
                $0.count != section.count || memcmp(base + $0.lowerBound, base + section.lowerBound, section.count) != 0
            }) ?? true {
                try flush(into: &items)
                if currentSection != nil { sectionItemEnds.append(items.count) }
                pending.append(string(section))
                try flush(into: &sections)
                currentSection = section
            }
            if !item.isEmpty {
                pending.append(string(item))
                if pending.count == batchSize { try flush(into: &items) }
            }
            lineStart = lineEnd + 1
        }
        try flush(into: &items)
        if currentSection != nil { sectionItemEnds.append(items.count) }
        return NumberedSnapshotDocument(sections: sections, sectionItemEnds: sectionItemEnds, items: items)
    }
}
