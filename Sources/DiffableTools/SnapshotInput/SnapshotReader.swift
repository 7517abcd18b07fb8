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
/// The reader holds simdjson's buffers (about 2.5 times the largest JSON input, touched as
/// needed) for the next document: release it once the documents are read.
public final class SnapshotReader {
    /// Numbers every identifier read.
    public let interner: IdentifierInterner
    /// simdjson's parser, kept so that the second document reuses the first one's buffers.
    private let parser: OpaquePointer

    /// - Complexity: O(1).
    public init(interner: IdentifierInterner) {
        guard let parser = snapshot_json_parser_create() else { fatalError("Diffable: out of memory creating a JSON parser") }
        self.parser = parser
        self.interner = interner
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
        switch format {
        case .json: try json(input, lenient: lenient)
        case .tsv:
            try input.withBytes { bytes throws(SnapshotInputError) in
                try SnapshotInputTSV.document(from: bytes, source: input.source, interner: interner)
            }
        }
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
