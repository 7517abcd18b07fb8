import Diffable
import Foundation

/// A headless list view that checks batch updates the way `UITableView` and
/// `UICollectionView` do, replays them, and keeps the rows it would show.
///
/// Use it in tests to prove that a batch (or a whole ``SnapshotDifference``)
/// would not raise `NSInternalInconsistencyException` and would show exactly the
/// target snapshot:
///
/// ```swift
/// var view = ListViewSimulator<String, Int>()
/// view.reloadData(old)
/// try view.apply(new.difference(from: old))   // throws a Violation naming UIKit's message
/// assert(view.visibleSnapshot == new.withoutPendingUpdates())
/// ```
///
/// Every UIKit check reports UIKit's exception text word for word
/// (docs/BATCH_UPDATE_RULES.md, E1–E27; `%@` index paths print as `{length = 2, path = S - I}`).
/// ``BatchValidator/Mode/strict`` (the default) also rejects what UIKit accepts but gets wrong
/// or handles unreliably (item operations in moved, deleted or inserted sections,
/// section reloads next to other changes, reloads next to moves, raw-index move
/// conflicts, duplicate operations, reconfigures in structural batches), and both
/// modes check the replayed rows against the data source (a wrong move or a
/// stale cell is an error here, not a silent glitch).
public struct ListViewSimulator<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    public typealias Snapshot = DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>

    /// Which view's wording (rows or items) and reload collision rule (E12 or E11) to use.
    public typealias Flavor = BatchValidator.Flavor
    /// How much to reject: what UIKit rejects (`compat`), or also what it mishandles (`strict`).
    public typealias Mode = BatchValidator.Mode
    /// A rejected batch: the rule and the message (UIKit's exception text for E rules).
    public typealias Violation = BatchValidator.Violation

    /// The rules applied to every batch.
    public let validator: BatchValidator
    /// The view whose wording and rules are applied.
    public var flavor: Flavor { validator.flavor }
    /// Strict (the default) or UIKit-compatible checking.
    public var mode: Mode { validator.mode }
    private var sections: [SectionIdentifierType] = []
    private var rows: [[ItemIdentifierType]] = []
    private var loaded = false
    private var refreshed = Set<ItemIdentifierType>()
    private var refreshedSections = Set<SectionIdentifierType>()

    /// Batches accepted since the last ``reloadData(_:)``.
    public private(set) var acceptedBatchCount = 0

    /// - Complexity: O(1).
    public init(flavor: Flavor = .collection, mode: Mode = .strict) {
        validator = BatchValidator(flavor: flavor, mode: mode)
    }

    /// What the view shows, or nil before the first ``reloadData(_:)``.
    /// - Complexity: O(n + s).
    public var visibleSnapshot: Snapshot? {
        guard loaded else { return nil }
        var snapshot = Snapshot()
        snapshot.appendSections(sections)
        for (section, items) in zip(sections, rows) { snapshot.appendItems(items, toSection: section) }
        return snapshot
    }

    /// Loads `snapshot` without animation (UIKit's `reloadData()`).
    /// - Complexity: O(n + s).
    public mutating func reloadData(_ snapshot: Snapshot) {
        sections = snapshot.sectionIdentifiers
        rows = sections.map { snapshot.itemIdentifiers(inSection: $0) }
        loaded = true
        acceptedBatchCount = 0
        refreshed = []
        refreshedSections = []
    }

    /// Applies every batch of `difference` (the data source switching to
    /// `difference.new` inside each), then requires that the view shows
    /// `difference.new` and that every item and section it asks to reload or
    /// reconfigure was refreshed.
    /// - Throws: the first ``Violation``; the view keeps its last accepted state.
    /// - Complexity: O(n + s + operations · log operations) per batch.
    public mutating func apply(_ difference: SnapshotDifference<SectionIdentifierType, ItemIdentifierType>) throws(Violation) {
        refreshed = []
        refreshedSections = []
        for batch in difference.batches { try performBatchUpdates(batch, dataSourceAfter: difference.new) }
        let target = difference.new
        if sections != target.sectionIdentifiers || rows != sections.map({ target.itemIdentifiers(inSection: $0) }) {
            throw Violation(rule: "V9", message: "the view does not show the new snapshot after the update")
        }
        for item in target.reloadedItemIdentifiers + target.reconfiguredItemIdentifiers
        where !refreshed.contains(item) && !refreshedSections.contains(target.sectionIdentifier(containingItem: item)!) {
            throw Violation(rule: "V9", message: "stale content: item \(String(reflecting: item)) was not refreshed")
        }
        for section in target.reloadedSectionIdentifiers where !refreshedSections.contains(section) {
            throw Violation(rule: "V9", message: "stale content: section \(String(reflecting: section)) was not refreshed")
        }
    }

    /// Validates one batch against the rows the view shows and the data source's
    /// state after the batch, then replays it.
    /// - Throws: the first ``Violation``; on error the view is unchanged.
    /// - Complexity: O(n + s + operations · log operations).
    public mutating func performBatchUpdates(_ batch: BatchUpdate, dataSourceAfter snapshot: Snapshot) throws(Violation) {
        guard loaded else {
            throw Violation(rule: "B3", message: "batch update before the view loaded its data (reload first)")
        }
        let targetSections = snapshot.sectionIdentifiers
        let targetRows = targetSections.map { snapshot.itemIdentifiers(inSection: $0) }
        let plan = try validator.plan(batch, oldCounts: rows.map(\.count), newCounts: targetRows.map(\.count))
        let replay = try plan.replay(oldRows: rows, newRows: targetRows, reloadsKeepRow: true) { old, new in
            sections[old] == targetSections[new]
                ? nil
                : "section \(new) shows old section \(String(reflecting: sections[old])) but the data source has \(String(reflecting: targetSections[new]))"
        }
        for path in replay.refreshedPaths { refreshed.insert(replay.rows[path.section][path.item]) }
        for section in replay.freshSections {
            refreshed.formUnion(replay.rows[section])
            refreshedSections.insert(targetSections[section])
        }
        sections = targetSections
        rows = replay.rows
        acceptedBatchCount += 1
    }
}
