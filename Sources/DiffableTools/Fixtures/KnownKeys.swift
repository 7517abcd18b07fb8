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
    /// that is not in `known`, unless the decoder's user info sets ``SnapshotDocument/lenientKey``.
    /// - Complexity: O(keys · known · key length).
    static func check(_ decoder: Decoder, _ known: [String]) throws {
        if decoder.userInfo[SnapshotDocument.lenientKey] as? Bool == true { return }
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
        let nearest = known.min { distance(key, $0) < distance(key, $1) }
        let hint = nearest.flatMap { distance(key, $0) <= max(2, $0.count / 3) ? " (did you mean \"\($0)\"?)" : nil }
        return "unknown key \"\(key)\"\(hint ?? ""); known keys: \(known.joined(separator: ", "))"
    }

    /// Levenshtein distance over Unicode scalars.
    /// - Complexity: O(|a| · |b|).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
