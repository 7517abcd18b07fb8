/// Strict decoding of JSON objects: a key the format does not define is an error that
/// names it and suggests the nearest known key (a typo such as `"reloadItem"` must not
/// silently diff as if the key were absent).
enum KnownKeys {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws `DecodingError.dataCorrupted` for the first key of the object being decoded
    /// that is not in `known`, unless the decoder's user info sets ``SnapshotFormatKeys/lenient``.
    /// - Complexity: O(keys · known · key length).
    static func check(_ decoder: Decoder, _ known: [String]) throws {
        if decoder.userInfo[SnapshotFormatKeys.lenient] as? Bool == true { return }
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath + [key], debugDescription: unknownKeyMessage(key.stringValue, known: known)))
        }
    }

    /// `unknown key "reloadItem" (did you mean "reloadItems"?); known keys: …`: the nearest
    /// known key is suggested when it is close enough to be a typo.
    /// - Complexity: O(known · key length · known key length).
    static func unknownKeyMessage(_ key: String, known: [String]) -> String {
        let hint = NearestName.suggestion(for: key, among: known).map { " (did you mean \"\($0)\"?)" }
        return "unknown key \"\(key)\"\(hint ?? ""); known keys: \(known.joined(separator: ", "))"
    }
}
