/// The "did you mean" of every message that rejects a name (an unknown key in a snapshot
/// document, an unknown subcommand): the known name nearest to a mistyped one, when it is
/// near enough to be a typo.
public enum NearestName {
    /// The name in `known` nearest to `name` by edit distance, when at most
    /// max(2, a third of its length) edits away; the first such name on a tie.
    /// - Complexity: O(known · |name| · known name length).
    public static func suggestion(for name: String, among known: [String]) -> String? {
        let nearest = known.min { distance(name, $0) < distance(name, $1) }
        return nearest.flatMap { distance(name, $0) <= max(2, $0.count / 3) ? $0 : nil }
    }

    /// Levenshtein distance over Unicode scalars.
    /// - Complexity: O(|a| · |b|).
    public static func distance(_ a: String, _ b: String) -> Int {
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
