import Foundation

/// UIKit's batch-update rules (docs/BATCH_UPDATE_RULES.md) as a total function: any ``BatchUpdate``,
/// however malformed, against any section counts, is either accepted or answered with a
/// ``Violation`` naming the rule and the offending index path. It never traps.
///
/// The validator knows counts only (what a `UITableView` caches and what its data source
/// answers); `ListViewSimulator` and `SimulatedListView` (in `DiffableTesting`) add the identity
/// replay (V9).
///
/// ```swift
/// let validator = BatchValidator(flavor: .table)
/// try validator.validate(batch, oldCounts: [3, 0], newCounts: [2, 1])
/// let steps = try validator.steps(for: batch, oldCounts: [3, 0], newCounts: [2, 1])
/// ```
public struct BatchValidator: Sendable, Hashable {
    /// Which view's wording (rows or items) and reload collision rule (E12 or E11) to use.
    public enum Flavor: Sendable, Hashable { case table, collection }

    /// How much to reject: what UIKit rejects (`compat`), or also what it mishandles (`strict`).
    public enum Mode: Sendable, Hashable { case strict, compat }

    /// A rejected batch: the rule (defined in docs/BATCH_UPDATE_RULES.md: E1…E27, I1…I9, T1, U1,
    /// B2, B3, V0, V9, R1, or L1 for a bad ``ListStep``) and the message (UIKit's exception
    /// text for E rules; a sentence naming the index path and the problem otherwise).
    ///
    /// V0 is malformed input: an index path without exactly two indices, or a negative count.
    public struct Violation: Error, Equatable, Sendable, CustomStringConvertible {
        /// The rule's tag, e.g. `"E2"`, `"I5"`, `"V9"`.
        public var rule: String
        /// UIKit's exception text for E rules; a sentence naming the problem otherwise.
        public var message: String
        /// - Complexity: O(1).
        public init(rule: String, message: String) {
            self.rule = rule
            self.message = message
        }
        /// `"rule: message"`. - Complexity: O(1).
        public var description: String { "\(rule): \(message)" }
    }

    /// The view whose wording and rules are applied.
    public let flavor: Flavor
    /// Strict (the default) or UIKit-compatible checking.
    public let mode: Mode

    /// - Complexity: O(1).
    public init(flavor: Flavor = .collection, mode: Mode = .strict) {
        self.flavor = flavor
        self.mode = mode
    }

    /// Checks `batch` for a view that shows `oldCounts[s]` items in section `s` and whose
    /// data source answers `newCounts` after the batch's update closure (steps V0–V8 of
    /// docs/BATCH_UPDATE_RULES.md; the identity replay V9 needs the rows, see `ListViewSimulator` in DiffableTesting).
    /// - Throws: the first ``Violation``, in UIKit's checking order.
    /// - Complexity: O(s + k log k), where s counts old and new sections and k the batch's operations.
    public func validate(_ batch: BatchUpdate, oldCounts: [Int], newCounts: [Int]) throws(Violation) {
        _ = try plan(batch, oldCounts: oldCounts, newCounts: newCounts)
    }

    /// Validates `batch` and resolves it into what the view does (docs/BATCH_UPDATE_RULES.md, V0–V8).
    /// - Complexity: O(s + k log k), where s counts old and new sections and k the batch's operations.
    package func plan(_ batch: BatchUpdate, oldCounts: [Int], newCounts: [Int]) throws(Violation) -> BatchPlan {
        var check = BatchCheck(validator: self, batch: batch, oldCounts: oldCounts, newCounts: newCounts)
        return try check.run()
    }
}

extension BatchValidator {
    /// An index path as UIKit prints an `NSIndexPath` in its exception texts:
    /// `{length = 2, path = S - I}` (any length, so malformed paths print too).
    /// - Complexity: O(length of the path).
    package static func show(_ path: IndexPath) -> String {
        "{length = \(path.count), path = \(path.map(String.init).joined(separator: " - "))}"
    }
}
