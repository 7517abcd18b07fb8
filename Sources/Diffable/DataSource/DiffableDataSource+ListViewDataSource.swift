import Foundation

/// The view's questions, answered from the state the view last committed (on the executor,
/// so without a lock). A question the data source cannot answer is a programming error:
/// it is reported through ``DiffableDiagnostics`` and traps, as UIKit raises.
extension DiffableDataSource: ListViewDataSource {
    /// - Complexity: O(1).
    public func numberOfSections() -> Int {
        assert(executor.isCurrent(), "Diffable: the view asked its data source off the view executor")
        return shown.snapshot.numberOfSections
    }

    /// Traps (after a diagnostic) when `section` is out of range.
    /// - Complexity: O(1).
    public func numberOfItems(inSection section: Int) -> Int {
        guard let count = shown.snapshot.numberOfItems(inSectionAt: section) else {
            DiffableDiagnostics.fail(
                .indexPathOutOfRange, in: "numberOfItems(inSection:)",
                "the view asked for section \(section), but the data source has \(shown.snapshot.numberOfSections) sections")
        }
        return count
    }

    /// The cell provider's cell for the item at `indexPath`. Traps (after a diagnostic) when the
    /// index path is out of range or the cell provider returns nil.
    /// - Complexity: O(1) plus the cell provider.
    public func cell(at indexPath: IndexPath) -> Cell {
        guard let item = shown.snapshot.itemIdentifier(at: indexPath) else {
            DiffableDiagnostics.fail(.indexPathOutOfRange, in: "cell(at:)", outOfRange(indexPath))
        }
        guard let cell = cellProvider(indexPath, item) else {
            DiffableDiagnostics.fail(
                .cellProviderReturnedNil, in: "cell(at:)",
                "the cell provider returned nil for item \(String(reflecting: item)) at index path "
                    + "\(Self.show(indexPath)); it must return a cell for every item")
        }
        return cell
    }

    /// The supplementary view provider's view, or nil when there is no provider. Traps (after a
    /// diagnostic) when the section is out of range.
    /// - Complexity: O(1) plus the supplementary view provider.
    public func supplementaryView(ofKind kind: String, at indexPath: IndexPath) -> Cell? {
        guard indexPath.count >= 1, shown.snapshot.numberOfItems(inSectionAt: indexPath.section) != nil else {
            DiffableDiagnostics.fail(.indexPathOutOfRange, in: "supplementaryView(ofKind:at:)", outOfRange(indexPath))
        }
        return lock.withLock { settings.supplementaryViewProvider }?(kind, indexPath)
    }

    func outOfRange(_ indexPath: IndexPath) -> String {
        let snapshot = shown.snapshot
        guard indexPath.count == 2, let count = snapshot.numberOfItems(inSectionAt: indexPath.section) else {
            return "the view asked for index path \(Self.show(indexPath)), but the data source has \(snapshot.numberOfSections) sections"
        }
        return "the view asked for index path \(Self.show(indexPath)), but section \(indexPath.section) has \(count) items"
    }

    static func show(_ indexPath: IndexPath) -> String {
        "[" + indexPath.map(String.init).joined(separator: ", ") + "]"
    }
}
