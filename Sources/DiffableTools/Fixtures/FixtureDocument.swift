/// A fixture's `old` or `new`: a snapshot of sections, or an outline (docs/FIXTURES.md).
/// The JSON object's `outline` key tells them apart.
public enum FixtureDocument: Codable, Equatable, Sendable {
    case sections(SnapshotDocument)
    case outline(OutlineDocument)

    private enum FormKey: String, CodingKey { case outline }

    /// - Complexity: O(size of the decoded value).
    public init(from decoder: Decoder) throws {
        if try decoder.container(keyedBy: FormKey.self).contains(.outline) {
            self = .outline(try OutlineDocument(from: decoder))
        } else {
            self = .sections(try SnapshotDocument(from: decoder))
        }
    }

    /// - Complexity: O(size of the encoded value).
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .sections(let document): try document.encode(to: encoder)
        case .outline(let document): try document.encode(to: encoder)
        }
    }
}
