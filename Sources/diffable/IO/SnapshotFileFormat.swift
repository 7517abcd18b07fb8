import ArgumentParser

/// The file forms a snapshot can be read from or written in (docs/CLI.md "Input forms").
enum SnapshotFileFormat: String, CaseIterable, ExpressibleByArgument {
    /// `{"sections": [{"id": …, "items": […]}], "reloadItems": …}` (the fixture old/new form).
    case json
    /// One `section<TAB>item` line per item; `section<TAB>` alone is a section without items.
    case tsv
    /// One JSON array `["section", "item"]` per line; `["section"]` alone is a section without items.
    case ndjson

    /// The form a path's extension names (`.tsv`, `.ndjson`/`.jsonl`), else JSON.
    /// - Complexity: O(path length).
    static func guess(path: String) -> SnapshotFileFormat {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".tsv") { return .tsv }
        if lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".jsonl") { return .ndjson }
        return .json
    }
}
