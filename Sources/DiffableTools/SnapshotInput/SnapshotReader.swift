internal import CSnapshotJSON

/// Reads the snapshot documents to be diffed at memory speed: JSON through simdjson, TSV by
/// one scan, every identifier numbered by one ``IdentifierInterner`` so that a number means
/// the same identifier in each document (docs/CLI_IO.md). On invalid input, the error names
/// the source, the line, column and byte offset, and what was expected there.
///
/// ```swift
/// let names = IdentifierInterner()
/// let reader = SnapshotReader(interner: names)
/// let old = try reader.document(from: SnapshotInputBytes(contentsOf: "old.json"), format: .json)
/// let new = try reader.document(from: SnapshotInputBytes(contentsOf: "new.tsv"), format: .tsv)
/// let canonical = names.canonicalNumbers()
/// let difference = try new.snapshot(side: "new", canonical: canonical, names: names)
///     .difference(from: old.snapshot(side: "old", canonical: canonical, names: names))
/// ```
///
/// The reader holds simdjson's buffers (a small multiple of the largest JSON input, touched
/// as needed) for the next document: release it once the documents are read.
public final class SnapshotReader {
    /// Numbers every identifier read.
    public let interner: IdentifierInterner
    /// simdjson's parser, kept so that the second document reuses the first one's buffers.
    private let parser: OpaquePointer

    /// - Complexity: O(1).
    public init(interner: IdentifierInterner) {
        guard let parser = Self.withKeyTable({ snapshot_json_parser_create($0) }) else {
            fatalError("Diffable: out of memory creating a JSON parser")
        }
        self.parser = parser
        self.interner = interner
    }

    /// Calls `body` with the format's key table (``SnapshotFormatKeys``) in the C reader's
    /// form, valid during the call: the C++ reader spells no key itself.
    /// - Complexity: O(total length of the keys).
    private static func withKeyTable<Result>(_ body: (UnsafePointer<snapshot_json_keys>) -> Result) -> Result {
        typealias Document = SnapshotFormatKeys.Document
        typealias Section = SnapshotFormatKeys.Section
        let names = Document.allCases.map(\.rawValue) + Section.allCases.map(\.rawValue)
        let bytes = Array(names.joined().utf8).map { CChar(bitPattern: $0) }
        return bytes.withUnsafeBufferPointer { buffer in
            var strings: [snapshot_string] = []
            var start = 0
            for name in names {
                strings.append(snapshot_string(bytes: buffer.baseAddress! + start, length: name.utf8.count))
                start += name.utf8.count
            }
            func key(_ name: String) -> snapshot_string { strings[names.firstIndex(of: name)!] }
            var keys = snapshot_json_keys(
                sections: key(Document.sections.rawValue), reload_items: key(Document.reloadItems.rawValue),
                reconfigure_items: key(Document.reconfigureItems.rawValue), reload_sections: key(Document.reloadSections.rawValue),
                id: key(Section.id.rawValue), items: key(Section.items.rawValue))
            return body(&keys)
        }
    }

    deinit { snapshot_json_parser_free(parser) }

    /// The document in `input`, read in `format`.
    /// - Parameter lenient: ignore keys the JSON form does not define (else they are an error).
    /// - Throws: ``SnapshotInputError`` for input that is not a snapshot document in `format`
    ///   (one line: source, line, column, byte offset, what was expected there), or, with no
    ///   location, when memory runs out.
    /// - Complexity: O(input bytes + n + s) expected.
    public func document(from input: SnapshotInputBytes, format: SnapshotInputFormat, lenient: Bool = false) throws(SnapshotInputError)
        -> NumberedSnapshotDocument
    {
        if let problem = input.withBytes({ Self.byteOrderMark(in: $0, source: input.source) }) { throw problem }
        switch format {
        case .json: return try json(input, lenient: lenient)
        case .tsv:
            return try input.withBytes { bytes throws(SnapshotInputError) in
                try SnapshotInputTSV.document(from: bytes, source: input.source, interner: interner)
            }
        }
    }

    /// The error for input that starts with a byte-order mark, in words: a UTF-8 one is not
    /// allowed (JSON, RFC 8259 section 8.1; and TSV identifiers would start with it), a UTF-16
    /// or UTF-32 one means the wrong encoding. Nil without one.
    /// - Complexity: O(1).
    static func byteOrderMark(in bytes: UnsafeBufferPointer<UInt8>, source: String) -> SnapshotInputError? {
        let marks: [(bytes: [UInt8], what: String)] = [
            (
                [0xEF, 0xBB, 0xBF],
                "a UTF-8 byte-order mark (bytes EF BB BF), which snapshot files must not have; remove it "
                    + "(e.g. sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)"
            ),
            ([0x00, 0x00, 0xFE, 0xFF], "a UTF-32 byte-order mark (bytes 00 00 FE FF); snapshot files are UTF-8"),
            ([0xFF, 0xFE, 0x00, 0x00], "a UTF-32 byte-order mark (bytes FF FE 00 00); snapshot files are UTF-8"),
            ([0xFE, 0xFF], "a UTF-16 byte-order mark (bytes FE FF); snapshot files are UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)"),
            ([0xFF, 0xFE], "a UTF-16 byte-order mark (bytes FF FE); snapshot files are UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)"),
        ]
        guard let mark = marks.first(where: { bytes.starts(with: $0.bytes) }) else { return nil }
        return SnapshotInputError(source: source, location: .init(of: 0, in: bytes), message: "the input starts with " + mark.what)
    }

    private func json(_ input: SnapshotInputBytes, lenient: Bool) throws(SnapshotInputError) -> NumberedSnapshotDocument {
        var parsed = snapshot_json_document()
        defer { snapshot_json_free(&parsed) }
        let status = snapshot_json_parse(
            parser, input.padded.baseAddress?.assumingMemoryBound(to: CChar.self), input.count, lenient, interner.raw, &parsed)
        switch status {
        case SNAPSHOT_JSON_OK:
            break
        case SNAPSHOT_JSON_OUT_OF_MEMORY:
            throw SnapshotInputError(source: input.source, message: "out of memory while reading \(input.count) bytes")
        default:
            let simdjsonWords = parsed.error_message.map { String(cString: $0) } ?? "invalid"
            throw input.withBytes { SnapshotInputDiagnosis.diagnose($0, source: input.source, lenient: lenient) }
                ?? SnapshotInputError(source: input.source, message: "not a snapshot document: \(simdjsonWords)")
        }
        func numbers(_ list: snapshot_json_ids) -> [UInt32] { Array(UnsafeBufferPointer(start: list.ids, count: list.count)) }
        return NumberedSnapshotDocument(
            sections: numbers(parsed.sections),
            sectionItemEnds: UnsafeBufferPointer(start: parsed.section_item_ends, count: parsed.sections.count).map { Int($0) },
            items: numbers(parsed.items), reloadItems: numbers(parsed.reload_items),
            reconfigureItems: numbers(parsed.reconfigure_items), reloadSections: numbers(parsed.reload_sections))
    }
}

@available(*, unavailable)
extension SnapshotReader: Sendable {}
