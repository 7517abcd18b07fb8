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

    /// The handlers consulted when the view reports a drag (``ListViewInteractionDelegate/moveItem(at:to:)``).
    /// - Complexity: O(1).
    public var reorderingHandlers: ReorderingHandlers {
        get { lock.withLock { settings.reorderingHandlers } }
        set { lock.withLock { settings.reorderingHandlers = newValue } }
    }

    /// Whether `canReorderItem` allows dragging the item at `indexPath` (false when out of
    /// range, and for an item of an outline section whose children are shown under it: only
    /// its row would move). Traps (after a diagnostic), in every build, when called off the view
    /// executor (``executor``).
    /// - Complexity: O(1) expected plus the handler.
    public func canMoveItem(at indexPath: IndexPath) -> Bool {
        requireViewExecutor("canMoveItem(at:)", "the start of a drag")
        guard let item = shown.snapshot.itemIdentifier(at: indexPath) else { return false }
        if let section = shown.snapshot.sectionIdentifier(at: indexPath.section), shown.outlines[section]?.showsChildren(of: item) == true {
            return false
        }
        return reorderingHandlers.canReorderItem?(item) ?? false
    }

    /// Takes the user's drag into the snapshot: `willReorder`, the commit (no batch: the view
    /// already shows the move), `didReorder`. An apply whose diff started before is redone
    /// against the new state. In outline sections the item keeps its collapsed children and
    /// lands at the level of the row that now follows it (or after the row before it, when it
    /// is last). Traps (after a diagnostic) for an index path out of range, an item
    /// `canReorderItem` does not allow or whose children are shown, a call from inside a
    /// view update, or, in every build, a call made off the view executor (``executor``).
    /// - Complexity: O(size of the sections involved + s).
    public func moveItem(at source: IndexPath, to destination: IndexPath) {
        let operation = "moveItem(at:to:)"
        requireViewExecutor(operation, "a move")
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
        let from = initial.sectionIdentifier(at: source.section)!, to = final.sectionIdentifier(at: destination.section)!
        if shown.outlines[from]?.showsChildren(of: item) == true {
            DiffableDiagnostics.fail(
                .viewContractViolation, in: operation,
                "the view moved item \(String(reflecting: item)), whose children are shown under it in an outline section "
                    + "(only its row would move); canMoveItem(at:) does not allow it")
        }
        guard source != destination else { return }
        var state = shown
        state.snapshot = final
        if shown.outlines[from] != nil || shown.outlines[to] != nil {
            state.outlines = shown.outlines(moving: item, from: from, to: to, in: final)
        }
        state.generation += 1
        let transaction = DiffableDataSourceTransaction(initial: shown, final: state, movingFrom: source, to: destination)
        handlers.willReorder?(transaction)
        commit(state, movingItemFrom: source, to: destination, matcher: matcher)
        handlers.didReorder?(transaction)
    }

    /// Traps (after a diagnostic) unless called on the view executor: the view reports what
    /// the user did there, where its rows and the data source's committed state agree. Checked
    /// in release builds too (one `isCurrent()` call), so a view behaves the same in both.
    func requireViewExecutor(_ operation: String, _ what: String) {
        guard !executor.isCurrent() else { return }
        DiffableDiagnostics.fail(
            .viewContractViolation, in: operation,
            "the view reported \(what) off the view executor; a view reports taps and drags on the executor "
                + "that drives it, where its rows match the data source's (from another thread or task, hop first: "
                + "dataSource.executor.run { … } or runAndWait { … })")
    }

    /// Commits a user's move, with the matcher's state moved alike.
    private func commit<Matcher: ItemMatcher>(_ state: State, movingItemFrom source: IndexPath, to destination: IndexPath, matcher: Matcher)
    where Matcher.Section == SectionIdentifierType, Matcher.Item == ItemIdentifierType {
        commit(state, matchState: matcher.state(matcher.shownState, movingItemFrom: source, to: destination), matcher: matcher)
    }
}

extension CommittedState {
    /// The outlines after the user dragged `item` from section `from` to its row in `final`'s
    /// section `to` (a flat section involved becomes an outline of root items). The item
    /// carries its hidden subtree and lands just before the row that follows it in `final`, at
    /// that row's level, or after the row before it when it is last: the outlines' visible
    /// items are `final`'s rows.
    /// - Complexity: O(size of the sections involved).
    func outlines(moving item: I, from: S, to: S, in final: DiffableDataSourceSnapshot<S, I>) -> [S: DiffableDataSourceSectionSnapshot<I>] {
        var outlines = self.outlines
        var source = sectionSnapshot(for: from)
        let subtree = source.snapshot(of: item, includingParent: true)
        source.delete([item])
        var target = from == to ? source : sectionSnapshot(for: to)
        let rows = final.itemIdentifiers(inSection: to)
        let row = rows.firstIndex(of: item)!
        if row + 1 < rows.count {
            target.insert(subtree, before: rows[row + 1])
        } else if row > 0 {
            target.insert(subtree, after: rows[row - 1])
        } else {
            target.append(subtree)
        }
        assert(target.visibleItems == rows, "Diffable: an outline reorder left rows other than the view's")
        if from != to { outlines[from] = source }
        outlines[to] = target
        return outlines
    }
}

extension DiffableDataSourceSectionSnapshot {
    /// Whether `item` is expanded and has children (shown under it when it is visible).
    /// - Complexity: O(1) expected.
    func showsChildren(of item: ItemIdentifierType) -> Bool {
        guard let position = storage.position(of: item) else { return false }
        return storage.isExpanded(at: position) && storage.hasChildren(at: position)
    }
}
