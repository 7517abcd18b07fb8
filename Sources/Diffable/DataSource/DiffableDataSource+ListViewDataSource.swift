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
        // Only the item's slot is found here. This body is not specialized for the item type,
        // so reading the item (an array subscript and a copy through the type's value
        // witnesses, about 140 instructions) and any optional of it or of the cell (a run-time
        // metadata lookup each) are left to `cells`, compiled where the types are known.
        let storage = shown.snapshot.storage
        guard indexPath.count == 2 else { DiffableDiagnostics.fail(.indexPathOutOfRange, in: "cell(at:)", outOfRange(indexPath)) }
        let section = indexPath.section, item = indexPath.item
        guard section >= 0, section < storage.sectionCount, item >= 0, item < storage.itemCount(inSectionAt: section) else {
            DiffableDiagnostics.fail(.indexPathOutOfRange, in: "cell(at:)", outOfRange(indexPath))
        }
        return cells(indexPath, storage, storage.itemSlot(inSectionAt: section, index: item))
    }

    /// `provider` behind the read of the item at a slot and the nil check, compiled in the
    /// module that creates the data source (where the types are known, so reading the item is
    /// a load and the provider's optional costs nothing).
    /// - Complexity: O(1); the closure: O(1) plus the provider's.
    @inlinable
    static func makeCell(_ provider: @escaping CellProvider) -> CellMaker {
        { indexPath, storage, slot in
            let item = storage.items.ids[Int(slot)]
            guard let cell = provider(indexPath, item) else { cellProviderReturnedNil(item, at: indexPath) }
            return cell
        }
    }

    /// Reports and traps: the cell provider returned nil for `item`.
    @usableFromInline
    static func cellProviderReturnedNil(_ item: ItemIdentifierType, at indexPath: IndexPath) -> Never {
        DiffableDiagnostics.fail(
            .cellProviderReturnedNil, in: "cell(at:)",
            "the cell provider returned nil for item \(String(reflecting: item)) at index path "
                + "\(show(indexPath)); it must return a cell for every item")
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
