/// Why a section snapshot operation or
/// `DiffableDataSourceSectionSnapshot.init(validating:)` rejected its input: every
/// problem found, not just the first.
///
/// Identifiers are carried as their `String(reflecting:)` text so the error is
/// `Sendable` whatever the identifier type is. A rejected operation leaves the
/// snapshot exactly as it was.
public struct SectionSnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One thing wrong with the input.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// An identifier given more than once, with every index it has in the input
        /// (the argument array, or the pairs of `init(validating:)`).
        case duplicate(String, positions: [Int])
        /// An identifier to add that the outline already has.
        case alreadyInSnapshot(String)
        /// The parent or anchor the operation names is not in the outline.
        case notInSnapshot(String)
        /// The parent or anchor is itself among the identifiers being added.
        case anchorIsInserted(String)
        /// `init(validating:)`: an item names a parent that is not among the items.
        case unknownParent(item: String, parent: String)
        /// `init(validating:)`: items whose parents lead back to themselves, each
        /// followed by its parent (`["a", "b"]`: a's parent is b, b's parent is a).
        case cycle([String])
        /// The identifier table for the items could not be allocated.
        case outOfMemory
        /// An identifier whose `Hashable` conformance is broken, with the input indices it has:
        /// hashed twice, it gave different hash values (equal, but different hash values).
        case inconsistentHashing(String, positions: [Int])

        public var description: String {
            switch self {
            case .duplicate(let identifier, let positions):
                "\(identifier) is not unique: at " + positions.map { "[\($0)]" }.joined(separator: ", ")
            case .alreadyInSnapshot(let identifier):
                "\(identifier) is already in the snapshot"
            case .notInSnapshot(let identifier):
                "\(identifier) is not in the snapshot"
            case .anchorIsInserted(let identifier):
                "\(identifier) cannot be placed relative to itself (it is among the items inserted)"
            case .unknownParent(let item, let parent):
                "\(item) names the parent \(parent), which is not among the items"
            case .cycle(let identifiers):
                "parents form a cycle: " + (identifiers + identifiers.prefix(1)).joined(separator: " → ")
            case .outOfMemory:
                "out of memory: the identifier table could not be allocated"
            case .inconsistentHashing(let identifier, let positions):
                "\(identifier) at " + positions.map { "[\($0)]" }.joined(separator: ", ")
                    + " is equal to itself but has different hash values (its hash(into:) is not deterministic, "
                    + "or reads what == ignores)"
            }
        }
    }

    /// The operation, e.g. `append(_:to:)`.
    public var operation: String
    /// Every problem, in a fixed order: the parent or anchor, then duplicates (by
    /// first occurrence), then identifiers already present, unknown parents and cycles.
    public var problems: [Problem]

    /// - Complexity: O(1).
    public init(operation: String, problems: [Problem]) {
        self.operation = operation
        self.problems = problems
    }

    public var description: String {
        "\(operation): " + problems.map(\.description).joined(separator: "; ")
    }
}
