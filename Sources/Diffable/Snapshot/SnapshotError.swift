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

        public var description: String {
            "\(identifier) at "
                + positions.map { "[" + $0.map(String.init).joined(separator: ", ") + "]" }
                .joined(separator: ", ")
        }
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
        }
    }
}

/// Reports events that Apple's diffable data source only logs, such as appending
/// an identifier that already exists (Apple: `BUG_IN_CLIENT_OF_DIFFABLE_DATA_SOURCE__IDENTIFIER_ALREADY_EXISTS`;
/// the item is moved into place, as in UIKit).
public enum DiffableDiagnostics {
    /// One reported event.
    public struct Event: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// An appended or inserted identifier was already in the snapshot (it is moved; no trap).
            case identifierAlreadyExists
            // Programming errors a ``DiffableDataSource`` reports right before it traps.
            /// The cell provider returned nil.
            case cellProviderReturnedNil
            /// The view asked about an index path or section the data source does not have.
            case indexPathOutOfRange
            /// `apply` was called from inside a view update (a cell provider, the view's batch).
            case reentrantApply
            /// A snapshot matched by `id` repeats an `id`, or a section snapshot holds an item
            /// another section shows (or hides under a collapsed parent).
            case duplicateIdentifiers
            /// The view broke the ``ListView`` contract (e.g. did not call `updates` exactly once).
            case viewContractViolation
        }
        public var kind: Kind
        /// The operation, e.g. `appendItems(_:toSection:)`.
        public var operation: String
        /// The identifiers involved, as `String(reflecting:)` text.
        public var identifiers: [String]
        /// What went wrong, for kinds other than `identifierAlreadyExists`.
        public var message: String = ""

        public var description: String {
            kind == .identifierAlreadyExists
                ? "\(kind.rawValue) in \(operation): \(identifiers.joined(separator: ", ")) moved into place"
                : "\(kind.rawValue) in \(operation): \(message)"
        }
    }

    private static let installed = Locked<(@Sendable (Event) -> Void)?>(nil)

    /// Called for every event, on the thread that caused it. `nil` (the default) ignores events.
    /// - Complexity: O(1).
    public static var handler: (@Sendable (Event) -> Void)? {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }

    static func report(_ event: @autoclosure () -> Event) {
        if let handler { handler(event()) }
    }
}
