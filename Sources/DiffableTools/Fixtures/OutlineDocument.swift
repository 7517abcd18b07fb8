import Diffable
import Foundation

/// An outline in the cross-language JSON form of docs/FIXTURES.md (a fixture's `old` or
/// `new`): entries in any order, each an item with its parent (absent for a root) and its
/// expansion (absent: collapsed). Siblings keep the order in which they appear.
///
/// ```json
/// { "outline": [ { "id": "a", "expanded": true }, { "id": "b", "parent": "a" } ] }
/// ```
public struct OutlineDocument: Codable, Equatable, Sendable {
    /// One item of the outline.
    public struct Entry: Codable, Equatable, Sendable {
        public var id: String
        /// The parent's identifier; nil for a root item.
        public var parent: String?
        public var expanded: Bool

        /// - Complexity: O(1).
        public init(id: String, parent: String? = nil, expanded: Bool = false) {
            self.id = id
            self.parent = parent
            self.expanded = expanded
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case id, parent, expanded }

        /// Decodes `{"id": …, "parent": …, "expanded": …}`; unknown keys are an error unless
        /// ``SnapshotFormatKeys/lenient`` is set.
        /// - Complexity: O(size of the decoded value).
        public init(from decoder: Decoder) throws {
            try KnownKeys.check(decoder, CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            parent = try container.decodeIfPresent(String.self, forKey: .parent)
            expanded = try container.decodeIfPresent(Bool.self, forKey: .expanded) ?? false
        }

        /// Encodes the short form: no `parent` for a root, no `expanded` when collapsed.
        /// - Complexity: O(size of the encoded value).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encodeIfPresent(parent, forKey: .parent)
            if expanded { try container.encode(true, forKey: .expanded) }
        }
    }

    /// The entries, in any order.
    public var outline: [Entry]

    /// - Complexity: O(1).
    public init(outline: [Entry]) {
        self.outline = outline
    }

    /// The document of a section snapshot: its items depth first, with their parents and expansion.
    /// - Complexity: O(n) expected.
    public init(_ snapshot: DiffableDataSourceSectionSnapshot<String>) {
        outline = snapshot.items.map { Entry(id: $0, parent: snapshot.parent(of: $0), expanded: snapshot.isExpanded($0)) }
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case outline }

    /// Decodes the JSON form; unknown keys are an error unless ``SnapshotFormatKeys/lenient`` is set.
    /// - Complexity: O(size of the decoded value).
    public init(from decoder: Decoder) throws {
        try KnownKeys.check(decoder, CodingKeys.allCases.map(\.rawValue))
        outline = try decoder.container(keyedBy: CodingKeys.self).decode([Entry].self, forKey: .outline)
    }

    /// Builds the outline through ``DiffableDataSourceSectionSnapshot/init(validating:)-([(item:parent:isExpanded:)])``,
    /// or the docs/FIXTURES.md error for the first kind of problem it reports: duplicate
    /// identifiers, then unknown parents, then cycles, each with its entry indices.
    /// Identifiers compare as Swift strings (canonical equivalence).
    /// - Parameter side: `"old"` or `"new"`, reported in the error.
    /// - Complexity: O(k) expected for k entries.
    public func sectionSnapshot(side: String) throws(DocumentError) -> DiffableDataSourceSectionSnapshot<String> {
        do {
            return try DiffableDataSourceSectionSnapshot(validating: outline.map { ($0.id, $0.parent, $0.expanded) })
        } catch {
            throw documentError(error, side: side)
        }
    }

    /// The first kind of problem of `error` with entry indices as positions. The error names
    /// identifiers by their `String(reflecting:)` text; past duplicates each names one entry.
    private func documentError(_ error: SectionSnapshotError, side: String) -> DocumentError {
        let duplicates = error.problems.compactMap { problem -> [Int]? in
            if case .duplicate(_, let positions) = problem { positions } else { nil }
        }
        if !duplicates.isEmpty {
            return DocumentError(
                kind: .duplicateItem, snapshot: side, identifiers: duplicates.map { outline[$0[0]].id },
                positions: duplicates.map { $0.map { [$0] } })
        }
        var entryOfText: [String: Int] = [:]
        for (index, entry) in outline.enumerated() { entryOfText[String(reflecting: entry.id)] = index }
        let orphans = error.problems.compactMap { problem -> Int? in
            if case .unknownParent(let item, _) = problem { entryOfText[item] } else { nil }
        }
        if !orphans.isEmpty {
            let groups = Occurrences.group(orphans.sorted().map { (outline[$0].parent!, [$0]) })
            return DocumentError(kind: .unknownParent, snapshot: side, identifiers: groups.map(\.value), positions: groups.map(\.positions))
        }
        let looped = error.problems.flatMap { problem -> [Int] in
            if case .cycle(let items) = problem { items.compactMap { entryOfText[$0] } } else { [] }
        }
        guard !looped.isEmpty else { fatalError("Diffable: \(side) outline: \(error)") }
        return DocumentError(
            kind: .cycle, snapshot: side, identifiers: looped.sorted().map { outline[$0].id }, positions: looped.sorted().map { [[$0]] })
    }
}

extension DiffOutcome {
    /// Validates both outlines (old first) and diffs their visible rows: an outline fixture's `expect`.
    /// - Complexity: O(k) expected for k entries, plus the diff.
    public static func of(old: OutlineDocument, new: OutlineDocument) -> DiffOutcome {
        of { () throws(DocumentError) -> [BatchUpdate] in
            let oldOutline = try old.sectionSnapshot(side: "old")
            return try new.sectionSnapshot(side: "new").difference(from: oldOutline).batches
        }
    }
}
