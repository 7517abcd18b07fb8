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

        /// - Complexity: O(size of the decoded value).
        public init(from decoder: Decoder) throws {
            try KnownKeys.check(decoder, SnapshotFormatKeys.Section.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: SnapshotFormatKeys.Section.self)
            id = try container.decode(String.self, forKey: .id)
            items = try container.decode([String].self, forKey: .items)
        }

        /// - Complexity: O(size of the encoded value).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: SnapshotFormatKeys.Section.self)
            try container.encode(id, forKey: .id)
            try container.encode(items, forKey: .items)
        }
    }

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

    /// The refresh list named `key` (``SnapshotFormatKeys/Document/refreshLists``); the
    /// sections' identifiers for `.sections`. - Complexity: O(1).
    public func list(_ key: SnapshotFormatKeys.Document) -> [String] {
        switch key {
        case .sections: sections.map(\.id)
        case .reloadItems: reloadItems
        case .reconfigureItems: reconfigureItems
        case .reloadSections: reloadSections
        }
    }

    /// Decodes the JSON form; unknown keys are an error unless ``SnapshotFormatKeys/lenient`` is set.
    /// - Complexity: O(size of the decoded value).
    public init(from decoder: Decoder) throws {
        try KnownKeys.check(decoder, SnapshotFormatKeys.Document.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: SnapshotFormatKeys.Document.self)
        sections = try container.decode([Section].self, forKey: .sections)
        reloadItems = try container.decodeIfPresent([String].self, forKey: .reloadItems) ?? []
        reconfigureItems = try container.decodeIfPresent([String].self, forKey: .reconfigureItems) ?? []
        reloadSections = try container.decodeIfPresent([String].self, forKey: .reloadSections) ?? []
    }

    /// Encodes every key, the empty refresh lists included.
    /// - Complexity: O(size of the encoded value).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: SnapshotFormatKeys.Document.self)
        try container.encode(sections, forKey: .sections)
        for key in SnapshotFormatKeys.Document.refreshLists { try container.encode(list(key), forKey: key) }
    }

    /// Builds the snapshot through ``DiffableDataSourceSnapshot/init(validating:)``, or
    /// the ALGORITHM.md error for the first kind of problem found: duplicate sections,
    /// then duplicate items, then unknown identifiers in the refresh requests (each
    /// with every identifier of that kind and all its positions). Identifiers compare
    /// as Swift strings (canonical equivalence).
    /// - Parameter side: `"old"` or `"new"`, reported in the error.
    /// - Complexity: O(n + s) expected.
    public func snapshot(side: String) throws(DocumentError) -> DiffableDataSourceSnapshot<String, String> {
        let names = DocumentSnapshotBuilder.Names(
            section: { sections[$0].id }, item: { sections[$0].items[$1] }, request: { list($0)[$1] })
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
