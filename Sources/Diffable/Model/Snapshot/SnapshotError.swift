/// Why a snapshot operation or ``DiffableDataSourceSnapshot/init(validating:)`` rejected its input.
///
/// Identifiers are carried as their `String(reflecting:)` text so the error is
/// `Sendable` whatever the identifier types are. A rejected operation leaves the
/// snapshot exactly as it was.
public enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One identifier that occurs more than once, with every position it occurs at:
    /// `[section]` for section identifiers, `[section, item]` for item identifiers
    /// (for identifiers passed to one call, `[argument index]`).
    public struct Duplicate: Equatable, Sendable, CustomStringConvertible {
        public var identifier: String
        public var positions: [[Int]]

        public var description: String { SnapshotError.located(identifier, positions) }
    }

    /// A stored identifier that breaks `Hashable`'s contract, with its position(s) (`[section]`
    /// or `[section, item]`): its hash value is no longer the one it was stored under (it was
    /// mutated after it was added, or its `hash(into:)` is not deterministic), or it is equal to
    /// another stored identifier (both positions are given) that it was not equal to, or did not
    /// hash like, when they were added.
    public struct HashMismatch: Equatable, Sendable, CustomStringConvertible {
        public var identifier: String
        public var positions: [[Int]]

        public var description: String { SnapshotError.located(identifier, positions) }
    }

    /// `"id at [0, 1], [2, 0]"`: one identifier and where it is.
    static func located(_ identifier: String, _ positions: [[Int]]) -> String {
        "\(identifier) at " + positions.map { "[" + $0.map(String.init).joined(separator: ", ") + "]" }.joined(separator: ", ")
    }

    /// Section identifiers repeated within the input (every one, first occurrence order).
    case duplicateSections([Duplicate])
    /// Item identifiers repeated within the input (every one, first occurrence order).
    case duplicateItems([Duplicate])
    /// Both at once (``DiffableDataSourceSnapshot/init(validating:)`` reports every problem
    /// of its input in one error): repeated sections, then repeated items across all sections.
    case duplicateSectionsAndItems(sections: [Duplicate], items: [Duplicate])
    /// Sections to add that the snapshot already has.
    case sectionsAlreadyExist([String])
    /// A section the operation names is not in the snapshot.
    case unknownSection(String)
    /// Items the operation names are not in the snapshot.
    case unknownItems([String])
    /// Sections the operation names are not in the snapshot.
    case unknownSections([String])
    /// Items were appended with no section given and the snapshot has no sections.
    case noSections
    /// An identifier was to be placed relative to itself (or to one of the identifiers being moved).
    case anchorIsMoved(String)
    /// Memory for the identifier tables could not be allocated; nothing was changed.
    case outOfMemory
    /// Identifiers whose `Hashable` conformance is broken: equal identifiers with different
    /// hash values (Apple's words), found where the snapshot holds an identifier that its own
    /// hash value no longer finds. Sections, then items, each in display order.
    case inconsistentHashing(sections: [HashMismatch], items: [HashMismatch])

    public var description: String {
        switch self {
        case .duplicateSections(let duplicates):
            "section identifiers are not unique: " + duplicates.map(\.description).joined(separator: "; ")
        case .duplicateItems(let duplicates):
            "item identifiers are not unique: " + duplicates.map(\.description).joined(separator: "; ")
        case .duplicateSectionsAndItems(let sections, let items):
            SnapshotError.duplicateSections(sections).description + "; " + SnapshotError.duplicateItems(items).description
        case .sectionsAlreadyExist(let identifiers):
            "sections already exist in the snapshot: " + identifiers.joined(separator: ", ")
        case .unknownSection(let identifier):
            "section \(identifier) is not in the snapshot"
        case .unknownItems(let identifiers):
            "items are not in the snapshot: " + identifiers.joined(separator: ", ")
        case .unknownSections(let identifiers):
            "sections are not in the snapshot: " + identifiers.joined(separator: ", ")
        case .noSections:
            "there are no sections to append items to: append a section first"
        case .anchorIsMoved(let identifier):
            "\(identifier) cannot be placed relative to itself"
        case .outOfMemory:
            "out of memory: the identifier tables could not grow; the snapshot is unchanged"
        case .inconsistentHashing(let sections, let items):
            "identifiers are equal but have different hash values (Hashable requires equal identifiers to hash alike; "
                + "was one mutated after it was added, or does hash(into:) read what == ignores?): "
                + (sections.map { "section " + $0.description } + items.map { "item " + $0.description }).joined(separator: "; ")
        }
    }
}
