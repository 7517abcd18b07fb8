internal import CSnapshotJSON

/// Reads snapshot documents fast: JSON through simdjson into flat arrays, TSV by one scan,
/// then Swift strings. On invalid input, ``SnapshotInputDiagnosis`` says where and why.
public enum SnapshotInput {
    /// The document in `input`, read in `format`.
    /// - Parameter lenient: ignore keys the JSON form does not define (else they are an error).
    /// - Throws: ``SnapshotInputError`` for input that is not a snapshot document (one line:
    ///   source, line, column, byte offset, what was expected); `SnapshotInputError` with
    ///   no location for memory exhaustion.
    /// - Complexity: O(input bytes + n + s).
    public static func document(from input: SnapshotInputBytes, format: SnapshotInputFormat, lenient: Bool = false) throws
        -> SnapshotDocument
    {
        switch format {
        case .json: try json(input, lenient: lenient)
        case .tsv: try input.withBytes { try SnapshotInputTSV.document(from: $0, source: input.source) }
        }
    }

    static func json(_ input: SnapshotInputBytes, lenient: Bool) throws -> SnapshotDocument {
        var parsed = snapshot_json_document()
        defer { snapshot_json_free(&parsed) }
        let status = input.storage.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { snapshot_json_parse($0.baseAddress, input.count, lenient, &parsed) }
        }
        switch status {
        case SNAPSHOT_JSON_OK:
            break
        case SNAPSHOT_JSON_OUT_OF_MEMORY:
            throw SnapshotInputError(source: input.source, message: "out of memory while parsing \(input.count) bytes")
        default:
            let simdjsonWords = parsed.error_message.map { String(cString: $0) } ?? "invalid"
            throw input.withBytes { SnapshotInputDiagnosis.diagnose($0, source: input.source, lenient: lenient) }
                ?? SnapshotInputError(source: input.source, message: "not a snapshot document: \(simdjsonWords)")
        }
        var sections: [SnapshotDocument.Section] = []
        sections.reserveCapacity(parsed.section_ids.count)
        let ids = strings(parsed.section_ids, 0..<parsed.section_ids.count)
        var itemStart = 0
        for (index, id) in ids.enumerated() {
            let itemEnd = parsed.section_item_ends[index]
            sections.append(SnapshotDocument.Section(id: id, items: strings(parsed.items, itemStart..<itemEnd)))
            itemStart = itemEnd
        }
        return SnapshotDocument(
            sections: sections, reloadItems: strings(parsed.reload_items, 0..<parsed.reload_items.count),
            reconfigureItems: strings(parsed.reconfigure_items, 0..<parsed.reconfigure_items.count),
            reloadSections: strings(parsed.reload_sections, 0..<parsed.reload_sections.count))
    }

    /// Identifiers `range` of a flat list as Swift strings (simdjson has validated the UTF-8).
    /// - Complexity: O(bytes of those identifiers).
    private static func strings(_ list: snapshot_json_strings, _ range: Range<Int>) -> [String] {
        guard !range.isEmpty, let bytes = list.bytes, let ends = list.ends else { return [] }
        return UnsafeRawPointer(bytes).withMemoryRebound(to: UInt8.self, capacity: ends[range.upperBound - 1]) { base in
            var start = range.lowerBound == 0 ? 0 : ends[range.lowerBound - 1]
            return range.map { index in
                let end = ends[index]
                defer { start = end }
                return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
            }
        }
    }
}
