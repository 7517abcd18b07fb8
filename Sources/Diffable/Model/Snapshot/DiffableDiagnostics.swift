import Foundation

/// Reports events that Apple's diffable data source only logs, such as appending
/// an identifier that already exists (Apple: `BUG_IN_CLIENT_OF_DIFFABLE_DATA_SOURCE__IDENTIFIER_ALREADY_EXISTS`;
/// the item is moved into place, as in UIKit).
public enum DiffableDiagnostics {
    /// One reported event.
    public struct Event: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// An appended or inserted identifier was already in the snapshot (it is moved; no trap).
            case identifierAlreadyExists
            /// A snapshot handed to `apply` holds identifiers that are equal but have different
            /// hash values (``SnapshotError/inconsistentHashing(sections:items:)`` in `message`).
            /// No trap: the view is updated consistently with what the snapshot holds.
            case inconsistentHashing
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
