import Foundation

extension DiffableDataSource {
    /// The state the view last committed, without pending reload or reconfigure requests
    /// (those belong to the snapshot that was applied, as in Apple's API).
    ///
    /// May be called from any thread. An apply still queued is not reflected yet.
    /// - Complexity: O(1).
    public func snapshot() -> Snapshot {
        lock.withLock { published.snapshot }
    }

    /// The item at `indexPath`, or nil when the index path is out of range.
    /// - Complexity: O(1).
    public func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? {
        snapshot().itemIdentifier(at: indexPath)
    }

    /// Where `itemIdentifier` is shown, or nil when it is not.
    ///
    /// The item is looked up in the shown snapshot in place, under the data source's lock
    /// (no copy of the snapshot is retained and released), so the identifier type's `==` and
    /// `hash(into:)` run holding that lock and must not call back into the data source.
    /// - Complexity: O(1) expected.
    public func indexPath(for itemIdentifier: ItemIdentifierType) -> IndexPath? {
        lock.withLock {
            // Borrowed, not retained: the lock keeps the shown snapshot, and its storage, alive.
            Unmanaged.passUnretained(published.snapshot.storage)._withUnsafeGuaranteedRef { $0.indexPathOfItem(itemIdentifier) }
        }
    }

    /// The section identifier at `index`, or nil when out of range.
    /// - Complexity: O(1).
    public func sectionIdentifier(for index: Int) -> SectionIdentifierType? {
        snapshot().sectionIdentifier(at: index)
    }

    /// The index of `sectionIdentifier`, or nil when it is not shown.
    /// - Complexity: O(1) expected.
    public func index(for sectionIdentifier: SectionIdentifierType) -> Int? {
        snapshot().indexOfSection(sectionIdentifier)
    }
}
