/// The forms a snapshot can be read from (docs/CLI_IO.md "Input forms").
public enum SnapshotInputFormat: String, CaseIterable, Sendable {
    /// `{"sections": [{"id": …, "items": […]}], "reloadItems": …}`: the fixture old/new form.
    case json
    /// One `section<TAB>item` line per item; `section<TAB>` alone is a section without items.
    case tsv

    /// The form of an input whose form was not given: a `.json` or `.tsv` path says it;
    /// otherwise (stdin, other names) JSON when the first byte that is not white space is
    /// `{`, else TSV (an empty input is an empty TSV document: no sections).
    /// - Complexity: O(path length), plus O(leading white space) when the name does not say.
    public static func detect(path: String, bytes: UnsafeBufferPointer<UInt8>) -> SnapshotInputFormat {
        let lowercased = path.lowercased()
        if lowercased.hasSuffix(".tsv") { return .tsv }
        if lowercased.hasSuffix(".json") { return .json }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") ? .json : .tsv
    }
}
