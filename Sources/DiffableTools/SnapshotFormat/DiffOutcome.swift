import Diffable

/// The expected-output object of a fixture: `{"batches": [...]}` or `{"error": {...}}`.
public enum DiffOutcome: Codable, Equatable, Sendable {
    case batches([BatchUpdate])
    case error(DocumentError)

    enum CodingKeys: String, CodingKey { case batches, error }

    /// - Complexity: O(size of the decoded value).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let error = try container.decodeIfPresent(DocumentError.self, forKey: .error) {
            self = .error(error)
        } else {
            self = .batches(try container.decode([BatchUpdate].self, forKey: .batches))
        }
    }

    /// - Complexity: O(size of the encoded value).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .batches(let batches): try container.encode(batches, forKey: .batches)
        case .error(let error): try container.encode(error, forKey: .error)
        }
    }

    /// Validates both documents (old first) and diffs them: the fixture's `expect`.
    /// - Complexity: O(n + s) expected plus the diff.
    public static func of(old: SnapshotDocument, new: SnapshotDocument) -> DiffOutcome {
        of { () throws(DocumentError) -> [BatchUpdate] in
            let oldSnapshot = try old.snapshot(side: "old")
            return try new.snapshot(side: "new").difference(from: oldSnapshot).batches
        }
    }

    /// The batches `diff` returns, or the error it throws.
    /// - Complexity: that of `diff`.
    static func of(_ diff: () throws(DocumentError) -> [BatchUpdate]) -> DiffOutcome {
        DiffOutcome(Result(catching: diff))
    }

    /// The batches of a diff, or the error that rejected its input. - Complexity: O(1).
    public init(_ result: Result<[BatchUpdate], DocumentError>) {
        switch result {
        case .success(let batches): self = .batches(batches)
        case .failure(let error): self = .error(error)
        }
    }
}
