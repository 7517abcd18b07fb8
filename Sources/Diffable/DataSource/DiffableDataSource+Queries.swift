import Foundation

extension DiffableDataSource {
    /// The state the view last committed, without pending reload or reconfigure requests
    /// (those belong to the snapshot that was applied, as in Apple's API).
    ///
    /// May be called from any thread. An apply still queued is not reflected yet. On the view
    /// executor it takes no lock (see `committedSnapshot()`).
    /// - Complexity: O(1).
    public func snapshot() -> Snapshot { committedSnapshot() }

    /// The item at `indexPath`, or nil when the index path is out of range.
    /// - Complexity: O(1).
    public func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? {
        snapshot().itemIdentifier(at: indexPath)
    }

    /// Where `itemIdentifier` is shown, or nil when it is not.
    ///
    /// May be called from any thread. On the view executor (where UIKit apps ask it, on the
    /// main thread) it takes no lock: the executor alone writes the committed state. Elsewhere
    /// identifiers the library keys itself (integers, `String`, `UUID`, `[UInt8]`) are looked
    /// up in the committed snapshot in place, under the data source's lock: their `==` and
    /// hashing cannot call back into the data source, and no copy of the snapshot is retained
    /// and released (two more atomic operations). Both paths call a lookup specialized once per
    /// data source (`SnapshotStorage.indexPathLookup()`): about 280 instructions a lookup
    /// among 10^4 `Int` items under the lock, 265 on `.main`'s thread, 225 on an executor whose
    /// check is free (326 before, every lookup locked). An app's own identifier type is looked
    /// up in a copy, outside the lock, so that its `==` and `hash(into:)` may do anything, this
    /// data source's queries and applies included.
    /// - Complexity: O(1) expected.
    public func indexPath(for itemIdentifier: ItemIdentifierType) -> IndexPath? {
        guard itemsKeyedByLibrary else { return snapshot().indexPathOfItem(itemIdentifier) }
        if executor.isCurrent() {
            // Borrowed, not retained: only the executor replaces `shown`, and it is busy here;
            // the library's own `==` and hashing cannot apply.
            return Unmanaged.passUnretained(shown.snapshot.storage)._withUnsafeGuaranteedRef { indexPathLookup($0, itemIdentifier) }
        }
        return lock.withLock {
            // Borrowed, not retained: the lock keeps the committed snapshot, and its storage, alive.
            Unmanaged.passUnretained(published.snapshot.storage)._withUnsafeGuaranteedRef { indexPathLookup($0, itemIdentifier) }
        }
    }

    /// The committed snapshot, as ``snapshot()`` returns it. On the view executor it is read
    /// without the lock, from `shown`: the executor is the one context that writes the
    /// committed state (``commit(_:matchState:matcher:)`` sets `shown` and then `published`
    /// to the same state, with no other job of the executor between), so there `shown` equals
    /// `published` and no write can overlap the read. Elsewhere the lock guards `published`.
    /// A pthread mutex's lock and unlock are two full barriers on x86, which keep a loop's
    /// lookups from overlapping their cache misses (docs/DATA_SOURCE.md, "Queries and threads").
    /// - Complexity: O(1) plus one `isCurrent()` of the executor.
    @inline(__always)
    func committedSnapshot() -> Snapshot {
        if executor.isCurrent() { return shown.snapshot }
        return lock.withLock { published.snapshot }
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
