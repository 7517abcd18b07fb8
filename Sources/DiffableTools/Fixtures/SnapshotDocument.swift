import Diffable
import Foundation

/// A snapshot in the cross-language JSON form of FIXTURES.md (a fixture's `old`
/// or `new`): string identifiers, optional refresh requests.
///
/// ```json
/// { "sections": [ { "id": "S", "items": ["a", "b"] } ],
///   "reloadItems": [], "reconfigureItems": [], "reloadSections": [] }
/// ```
public struct SnapshotDocument: Codable, Equatable, Sendable {
    /// One section: its identifier and its items in order.
    public struct Section: Codable, Equatable, Sendable {
        public var id: String
        public var items: [String]
        /// - Complexity: O(1).
        public init(id: String, items: [String]) {
            self.id = id
            self.items = items
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case id, items }

        /// - Complexity: O(size of the decoded value).
        public init(from decoder: Decoder) throws {
            try KnownKeys.check(decoder, CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            items = try container.decode([String].self, forKey: .items)
        }
    }

    /// A `JSONDecoder.userInfo` key: `true` ignores keys the format does not define
    /// (by default they are a decoding error naming the key and the nearest known one).
    public static let lenientKey = CodingUserInfoKey(rawValue: "diffable.lenient")!

    /// Items in all sections. - Complexity: O(s).
    public var itemCount: Int { sections.reduce(0) { $0 + $1.items.count } }

    /// The sections, in order.
    public var sections: [Section]
    /// Refresh requests carried by the snapshot (optional in JSON).
    public var reloadItems: [String]
    public var reconfigureItems: [String]
    public var reloadSections: [String]

    /// - Complexity: O(1).
    public init(sections: [Section], reloadItems: [String] = [], reconfigureItems: [String] = [], reloadSections: [String] = []) {
        self.sections = sections
        self.reloadItems = reloadItems
        self.reconfigureItems = reconfigureItems
        self.reloadSections = reloadSections
    }

    /// The document of a snapshot (its pending refresh requests included).
    /// - Complexity: O(n + s).
    public init(_ snapshot: DiffableDataSourceSnapshot<String, String>) {
        sections = snapshot.sectionIdentifiers.map { Section(id: $0, items: snapshot.itemIdentifiers(inSection: $0)) }
        reloadItems = snapshot.reloadedItemIdentifiers
        reconfigureItems = snapshot.reconfiguredItemIdentifiers
        reloadSections = snapshot.reloadedSectionIdentifiers
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case sections, reloadItems, reconfigureItems, reloadSections }

    /// Decodes the JSON form; unknown keys are an error unless ``lenientKey`` is set.
    /// - Complexity: O(size of the decoded value).
    public init(from decoder: Decoder) throws {
        try KnownKeys.check(decoder, CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sections = try container.decode([Section].self, forKey: .sections)
        reloadItems = try container.decodeIfPresent([String].self, forKey: .reloadItems) ?? []
        reconfigureItems = try container.decodeIfPresent([String].self, forKey: .reconfigureItems) ?? []
        reloadSections = try container.decodeIfPresent([String].self, forKey: .reloadSections) ?? []
    }

    /// Builds the snapshot through ``DiffableDataSourceSnapshot/init(validating:)``, or
    /// the ALGORITHM.md error for the first kind of problem found: duplicate sections,
    /// then duplicate items, then unknown identifiers in the refresh requests (each
    /// with every identifier of that kind and all its positions). Identifiers compare
    /// as Swift strings (canonical equivalence).
    /// - Parameter side: `"old"` or `"new"`, reported in the error.
    /// - Complexity: O(n + s) expected.
    public func snapshot(side: String) throws(DocumentError) -> DiffableDataSourceSnapshot<String, String> {
        let lists = ["reloadItems": reloadItems, "reconfigureItems": reconfigureItems, "reloadSections": reloadSections]
        let names = DocumentSnapshotBuilder.Names(
            section: { sections[$0].id }, item: { sections[$0].items[$1] }, request: { lists[$0]![$1] })
        do {
            return try DocumentSnapshotBuilder.build(
                sections: sections.map { ($0.id, $0.items) }, reloadItems: reloadItems, reconfigureItems: reconfigureItems,
                reloadSections: reloadSections, side: side, names: names)
        } catch {
            switch error {
            case .rejected(let error): throw error
            case .outOfMemory: fatalError("Diffable: out of memory building the \(side) snapshot")
            }
        }
    }
}

/// The error object of FIXTURES.md / ALGORITHM.md "Errors": what kind of bad
/// input, in which snapshot, every identifier of that kind (first occurrence
/// order, as first written) and, per identifier, all its positions
/// (`[section, item]` for items, `[section]` for sections, `[index]` in the
/// request list named by `list` for unknown identifiers).
public struct DocumentError: Error, Codable, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable { case duplicateSection, duplicateItem, unknownIdentifier }
    public var kind: Kind
    public var snapshot: String
    public var identifiers: [String]
    public var positions: [[[Int]]]
    public var list: String?

    /// - Complexity: O(1).
    public init(kind: Kind, snapshot: String, identifiers: [String], positions: [[[Int]]], list: String? = nil) {
        self.kind = kind
        self.snapshot = snapshot
        self.identifiers = identifiers
        self.positions = positions
        self.list = list
    }

    public var description: String {
        let places = zip(identifiers, positions).map { identifier, positions in
            "\(identifier.debugDescription) at "
                + positions.map { "[" + $0.map(String.init).joined(separator: ", ") + "]" }.joined(separator: ", ")
        }
        return "\(snapshot) snapshot: \(kind.rawValue)\(list.map { " in \($0)" } ?? ""): " + places.joined(separator: "; ")
    }
}

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
        do {
            let oldSnapshot = try old.snapshot(side: "old")
            let newSnapshot = try new.snapshot(side: "new")
            return .batches(newSnapshot.difference(from: oldSnapshot).batches)
        } catch {
            return .error(error)
        }
    }
}
