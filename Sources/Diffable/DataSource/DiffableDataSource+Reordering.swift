import Foundation

extension DiffableDataSource {
    /// What the data source asks and tells when the user reorders items by drag: Apple's
    /// `ReorderingHandlers`. All run on the view executor.
    public struct ReorderingHandlers {
        /// Whether an item may be dragged. Without it, nothing can be reordered (Apple's rule).
        public var canReorderItem: ((ItemIdentifierType) -> Bool)?
        /// Called before the data source takes the reorder into its snapshot.
        public var willReorder: ((DiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>) -> Void)?
        /// Called after the data source took the reorder into its snapshot: update your model here.
        public var didReorder: ((DiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>) -> Void)?

        /// - Complexity: O(1).
        public init(
            canReorderItem: ((ItemIdentifierType) -> Bool)? = nil,
            willReorder: ((DiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>) -> Void)? = nil,
            didReorder: ((DiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>) -> Void)? = nil
        ) {
            self.canReorderItem = canReorderItem
            self.willReorder = willReorder
            self.didReorder = didReorder
        }
    }

    /// The handlers consulted when the view reports a drag (``ListViewDataSource/moveItem(at:to:)``).
    /// - Complexity: O(1).
    public var reorderingHandlers: ReorderingHandlers {
        get { lock.withLock { settings.reorderingHandlers } }
        set { lock.withLock { settings.reorderingHandlers = newValue } }
    }

    /// Whether `canReorderItem` allows dragging the item at `indexPath` (false when out of range).
    /// - Complexity: O(1) plus the handler.
    public func canMoveItem(at indexPath: IndexPath) -> Bool {
        guard let item = shown.snapshot.itemIdentifier(at: indexPath) else { return false }
        return reorderingHandlers.canReorderItem?(item) ?? false
    }

    /// Takes the user's drag into the snapshot: `willReorder`, the commit (no batch: the view
    /// already shows the move), `didReorder`. An apply whose diff started before is redone
    /// against the new state. Traps (after a diagnostic) for an index path out of range, an
    /// item `canReorderItem` does not allow, or a call from inside a view update.
    /// - Complexity: O(size of the sections involved + s).
    public func moveItem(at source: IndexPath, to destination: IndexPath) {
        let operation = "moveItem(at:to:)"
        assert(executor.isCurrent(), "Diffable: the view reported a move off the view executor")
        if insideViewUpdate {
            DiffableDiagnostics.fail(.viewContractViolation, in: operation, "the view reported a move while inside an update")
        }
        let initial = shown.snapshot
        guard let item = initial.itemIdentifier(at: source) else {
            DiffableDiagnostics.fail(.indexPathOutOfRange, in: operation, outOfRange(source))
        }
        guard let final = initial.movingItem(from: source, to: destination) else {
            DiffableDiagnostics.fail(
                .indexPathOutOfRange, in: operation,
                "the view moved item \(String(reflecting: item)) to index path \(Self.show(destination)), which is out of range")
        }
        let handlers = reorderingHandlers
        guard handlers.canReorderItem?(item) ?? false else {
            DiffableDiagnostics.fail(
                .viewContractViolation, in: operation,
                "the view moved item \(String(reflecting: item)), which reorderingHandlers.canReorderItem does not allow")
        }
        guard source != destination else { return }
        let transaction = DiffableDataSourceTransaction(initial: initial, final: final, movingFrom: source, to: destination)
        handlers.willReorder?(transaction)
        var state = shown
        state.matchState = matcher.matchState(shown, movingItemFrom: source, to: destination)
        state.snapshot = final
        state.generation += 1
        commit(state)
        handlers.didReorder?(transaction)
    }
}
