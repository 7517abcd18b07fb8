/// The forms a snapshot can be read from (docs/CLI.md "Input forms").
public enum SnapshotInputFormat: String, CaseIterable, Sendable {
    /// `{"sections": [{"id": …, "items": […]}], "reloadItems": …}`: the fixture old/new form.
    case json
    /// One `section<TAB>item` line per item; `section<TAB>` alone is a section without items.
    case tsv

    /// The form a path names by its extension: `.tsv` is TSV, anything else JSON.
    /// - Complexity: O(path length).
    public static func guess(path: String) -> SnapshotInputFormat {
        path.lowercased().hasSuffix(".tsv") ? .tsv : .json
    }
}
