import Foundation

extension DiffableDataSource {
    /// What the data source asks and tells when the user taps an item's disclosure control
    /// (expand or collapse): Apple's `SectionSnapshotHandlers`. All run on the view executor.
    public struct SectionSnapshotHandlers {
        /// Whether a collapsed item may expand. Without it, every item may.
        public var shouldExpandItem: ((ItemIdentifierType) -> Bool)?
        /// Called before an item expands.
        public var willExpandItem: ((ItemIdentifierType) -> Void)?
        /// Whether an expanded item may collapse. Without it, every item may.
        public var shouldCollapseItem: ((ItemIdentifierType) -> Bool)?
        /// Called before an item collapses.
        public var willCollapseItem: ((ItemIdentifierType) -> Void)?
        /// The children to show under a parent that expands, given the parent and its current
        /// children (``DiffableDataSourceSectionSnapshot/snapshot(of:includingParent:)``): load
        /// children lazily here. The result replaces the parent's children.
        public var snapshotForExpandingParent: ((ItemIdentifierType, SectionSnapshot) -> SectionSnapshot)?

        /// - Complexity: O(1).
        public init(
            shouldExpandItem: ((ItemIdentifierType) -> Bool)? = nil, willExpandItem: ((ItemIdentifierType) -> Void)? = nil,
            shouldCollapseItem: ((ItemIdentifierType) -> Bool)? = nil, willCollapseItem: ((ItemIdentifierType) -> Void)? = nil,
            snapshotForExpandingParent: ((ItemIdentifierType, SectionSnapshot) -> SectionSnapshot)? = nil
        ) {
            self.shouldExpandItem = shouldExpandItem
            self.willExpandItem = willExpandItem
            self.shouldCollapseItem = shouldCollapseItem
            self.willCollapseItem = willCollapseItem
            self.snapshotForExpandingParent = snapshotForExpandingParent
        }
    }

    /// The handlers consulted when the view reports a disclosure tap (``toggleDisclosure(at:)``).
    /// - Complexity: O(1).
    public var sectionSnapshotHandlers: SectionSnapshotHandlers {
        get { lock.withLock { settings.sectionSnapshotHandlers } }
        set { lock.withLock { settings.sectionSnapshotHandlers = newValue } }
    }
}

extension DiffableDataSource: ListViewInteractionDelegate {
    /// The user tapped the disclosure control of the row at `indexPath`: an expanded item
    /// collapses (`shouldCollapseItem`, `willCollapseItem`), a collapsed one expands
    /// (`shouldExpandItem`, `willExpandItem`, then `snapshotForExpandingParent` supplies its
    /// children), and the section's outline is applied with animation, as
    /// ``apply(_:to:animatingDifferences:completion:)`` does. A row of a flat section is a root
    /// item of the outline ``snapshot(for:)`` returns. Traps (after a diagnostic) for an index
    /// path out of range, a call from inside a view update, or children that repeat an item
    /// of the outline, and, in every build, for a call made off the view executor (``executor``).
    ///
    /// The apply is ordered with the others: when nothing else is queued and the view finishes
    /// its batches at once, the view shows the change when this returns; ``waitForApplies()``
    /// waits for it in every case.
    /// - Complexity: O(size of the section) plus the handlers, plus the apply's.
    public func toggleDisclosure(at indexPath: IndexPath) {
        let operation = "toggleDisclosure(at:)"
        requireViewExecutor(operation, "a disclosure tap")
        if insideViewUpdate {
            DiffableDiagnostics.fail(.viewContractViolation, in: operation, "the view reported a disclosure tap while inside an update")
        }
        guard let item = shown.snapshot.itemIdentifier(at: indexPath), let section = shown.snapshot.sectionIdentifier(at: indexPath.section)
        else {
            DiffableDiagnostics.fail(.indexPathOutOfRange, in: operation, outOfRange(indexPath))
        }
        var outline = shown.sectionSnapshot(for: section)
        let handlers = sectionSnapshotHandlers
        if outline.isExpanded(item) {
            guard handlers.shouldCollapseItem?(item) ?? true else { return }
            handlers.willCollapseItem?(item)
            outline.collapse([item])
        } else {
            guard handlers.shouldExpandItem?(item) ?? true else { return }
            handlers.willExpandItem?(item)
            if let children = handlers.snapshotForExpandingParent?(item, outline.snapshot(of: item)) {
                do {
                    try outline.tryReplace(childrenOf: item, using: children)
                } catch {
                    DiffableDiagnostics.fail(
                        .duplicateIdentifiers, in: "sectionSnapshotHandlers.snapshotForExpandingParent",
                        "the children of \(String(reflecting: item)) cannot be shown: \(error)")
                }
            }
            outline.expand([item])
        }
        apply(outline, to: section, completion: nil)
    }
}
