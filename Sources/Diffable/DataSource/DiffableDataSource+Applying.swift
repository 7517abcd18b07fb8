import Foundation

extension DiffableDataSource {
    /// Shows `snapshot`: diffs it against what the view last committed and hands the view one
    /// structural batch and, when anything is reloaded or reconfigured, one refresh batch
    /// (the first apply to a view that never loaded is a `reloadData()` instead). A snapshot
    /// equal to the current one, with no pending reloads, performs no batch.
    ///
    /// May be called from any thread; applies are performed in call order. Made on the view
    /// executor while nothing is queued, it runs before returning (the diff on the caller, as
    /// Apple's main-queue apply); otherwise the diff runs on the calling thread (or a worker,
    /// when queued) and the batch on the executor.
    ///
    /// `completion` has no default, unlike Apple's: a call without it is the `async` form,
    /// ``apply(_:animatingDifferences:)``, so `await dataSource.apply(snapshot)` waits for the
    /// view in every context, top-level code included (where Swift's overload ranking treats the
    /// context as synchronous and would pick this form, returning before the view updated).
    /// From synchronous code, pass `completion: nil` or a closure.
    ///
    /// - Parameters:
    ///   - snapshot: the sections and items to show.
    ///   - animatingDifferences: `false` still diffs, and animates with `.none` (iOS 15 semantics).
    ///   - completion: runs once on the executor after the view finished the update; it may apply
    ///     again. `nil`: nothing runs.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS over the k matched items (the
    ///   diff); the view's own work comes on top. Matching by `id` adds O(n + s) to key the `id`s
    ///   (O(s) for ``KeyedByID`` values, whose snapshot holds those keys); identifier types keyed
    ///   by their own code (`hashValue`, `identifierKey`, a ``KeyedByID`` value's `id`) whose stored
    ///   values can change add one key and one lookup per identifier,
    ///   on the calling thread, to report a broken `Hashable` (``DiffableDiagnostics/Event/Kind/inconsistentHashing``).
    public func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true, completion: (@Sendable () -> Void)?) {
        submit(
            snapshot, kind: .diff(animating: animatingDifferences), completion: completion,
            operation: "apply(_:animatingDifferences:completion:)")
    }

    /// ``apply(_:animatingDifferences:completion:)``, returning when the view finished the update:
    /// once it returns, ``snapshot()`` and the queries (``indexPath(for:)``, …) answer `snapshot`'s
    /// state. The only form of `apply(snapshot)` without a `completion:` argument, so an `await`
    /// always reaches it (in async functions, on the main actor and in top-level code alike).
    /// - Complexity: as ``apply(_:animatingDifferences:completion:)``.
    public func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            apply(snapshot, animatingDifferences: animatingDifferences) { continuation.resume() }
        }
    }

    /// Shows `snapshot` without diffing: the view reloads everything (`reloadData()`).
    /// Ordered with the other applies. As with ``apply(_:animatingDifferences:completion:)``,
    /// `completion` has no default: without it the call is the `async` form.
    /// - Complexity: O(1) here (O(n + s) when matching by `id`); the view's reload on top.
    public func applySnapshotUsingReloadData(_ snapshot: Snapshot, completion: (@Sendable () -> Void)?) {
        submit(snapshot, kind: .reload, completion: completion, operation: "applySnapshotUsingReloadData(_:completion:)")
    }

    /// ``applySnapshotUsingReloadData(_:completion:)``, returning when the view reloaded (the
    /// only form without a `completion:` argument, so an `await` always reaches it).
    /// - Complexity: as ``applySnapshotUsingReloadData(_:completion:)``.
    public func applySnapshotUsingReloadData(_ snapshot: Snapshot) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            applySnapshotUsingReloadData(snapshot) { continuation.resume() }
        }
    }

    /// Returns once every apply, outline apply and update made before this call — and the
    /// apply of every disclosure tap reported before it — has been performed on the view and
    /// its completion handlers have run. A view that finishes animations later than it is
    /// handed them may still be animating the last batch.
    ///
    /// ```swift
    /// dataSource.executor.runAndWait { view.userTappedDisclosure(at: path) }
    /// await dataSource.waitForApplies()   // snapshot(for:) and the view show the toggled row
    /// ```
    ///
    /// Called on the view executor from inside a view update, it traps as an apply would.
    /// - Complexity: O(1) here; it waits behind the applies queued before it (it shows nothing itself).
    public func waitForApplies() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // An update that changes nothing: ordered with the applies, it shows what they left
            // (no pending refresh requests reach it), so the view gets no batch.
            let barrier = SnapshotUpdate<SectionIdentifierType, ItemIdentifierType> { _ in true }
            submit(.update(barrier), kind: .diff(animating: false), completion: { continuation.resume() }, operation: "waitForApplies()")
        }
    }

    // MARK: The queue

    // An apply's steps (submit, process, perform, show, commit, and the matcher's plan) are
    // inlined into one function: it runs unspecialized, generic over the data source's
    // identifier types and the matcher, and each function of its own looked up the same
    // generic types' metadata again (about 330 instructions each; 29 lookups an apply at 10^2
    // became 6, docs/PERFORMANCE_LOG.md "Applying, eighth pass").

    /// Queues a request to show `snapshot`; see ``submit(_:kind:completion:operation:)``.
    @inline(__always)
    func submit(_ snapshot: Snapshot, kind: ApplyKind, completion: (@Sendable () -> Void)?, operation: String) {
        submit(.snapshot(snapshot), kind: kind, completion: completion, operation: operation)
    }

    /// Queues a request to make `change`; when no one drives the queue, drives it from here:
    /// on the executor everything happens now, elsewhere the diff happens now and the view's
    /// part is enqueued.
    @inline(__always)
    func submit(
        _ change: ApplyChange<SectionIdentifierType, ItemIdentifierType>, kind: ApplyKind, completion: (@Sendable () -> Void)?,
        operation: String
    ) {
        let onExecutor = executor.isCurrent()
        if onExecutor && insideViewUpdate {
            DiffableDiagnostics.fail(
                .reentrantApply, in: operation,
                "called while the view is inside an update (from a cell provider, a supplementary view provider or the "
                    + "view's own batch), where Apple raises BUG_IN_CLIENT_OF_DIFFABLE_DATA_SOURCE__APPLYING_SNAPSHOTS_REENTRANTLY; "
                    + "apply from the completion handler instead")
        }
        if case .snapshot(let snapshot) = change { DiffableDiagnostics.reportHashMismatches(in: snapshot, operation: operation) }
        submit(change, kind: kind, completion: completion, operation: operation, onExecutor: onExecutor, matcher: matcher)
    }

    /// ``submit(_:kind:completion:operation:)`` with the matcher's type known from here on.
    private func submit<Matcher: ItemMatcher>(
        _ change: ApplyChange<SectionIdentifierType, ItemIdentifierType>, kind: ApplyKind, completion: (@Sendable () -> Void)?,
        operation: String, onExecutor: Bool, matcher: Matcher
    ) where Matcher.Section == SectionIdentifierType, Matcher.Item == ItemIdentifierType {
        var prepared: Matcher.Prepared?
        if case .snapshot(let snapshot) = change { prepared = matcher.prepare(snapshot, operation: operation) }
        let request = ApplyRequest(
            changes: [change], kind: kind, prepared: prepared, completions: completion.map { [$0] } ?? [], operation: operation)
        // No one drives the queue only when it is empty (``ApplyQueue/next(coalescing:)``), so
        // the request goes straight to `process`: queuing it only to take it back out made an
        // array append, a slice and a merge of one request per apply.
        let drivesQueue: Bool = lock.withLock {
            guard !matcher.storage.queue.running else {
                matcher.storage.queue.append(request)
                return false
            }
            matcher.storage.queue.running = true
            return true
        }
        if drivesQueue { process(request, onExecutor: onExecutor, matcher: matcher) }
    }

    /// Diffs `request` against the committed state here, then performs it on the executor.
    @inline(__always)
    private func process<Matcher: ItemMatcher>(
        _ request: ApplyRequest<SectionIdentifierType, ItemIdentifierType, Matcher.Prepared>, onExecutor: Bool, matcher: Matcher
    ) where Matcher.Section == SectionIdentifierType, Matcher.Item == ItemIdentifierType {
        let (base, state) = lock.withLock { (published, matcher.storage.published) }
        let plan = matcher.plan(request, from: base, state: state)
        if onExecutor {
            perform(request, plan, matcher: matcher)
        } else {
            executor.enqueue { self.perform(request, plan, matcher: matcher) }
        }
    }

    /// On the executor: shows the plan, hands the next request to a worker (its diff stays off
    /// the executor), then runs the completions whose view already finished.
    @inline(__always)
    private func perform<Matcher: ItemMatcher>(
        _ request: ApplyRequest<SectionIdentifierType, ItemIdentifierType, Matcher.Prepared>,
        _ proposed: ApplyPlan<SectionIdentifierType, ItemIdentifierType, Matcher.State>, matcher: Matcher
    ) where Matcher.Section == SectionIdentifierType, Matcher.Item == ItemIdentifierType {
        // A reorder committed since the diff started: diff again against what the view shows.
        let plan =
            proposed.baseGeneration == shown.generation ? proposed : matcher.plan(request, from: shown, state: matcher.shownState)
        let animation = request.kind == .diff(animating: true) ? lock.withLock { settings.defaultRowAnimation } : .none
        show(plan, animation: animation, completions: request.completions, matcher: matcher)
        // Usually nothing waits: then no slice of requests is made (an empty one of this
        // generic type costs its metadata and `isEmpty`'s generic default, about 1,600
        // instructions). Nobody else takes requests while `running` is set.
        if !lock.withLock({ matcher.storage.queue.stopIfIdle() }) {
            let next = lock.withLock { matcher.storage.queue.next(coalescing: settings.queuedApplyPolicy == .coalesce) }
            DispatchQueue.global(qos: .userInitiated).async { self.process(.coalescing(next), onExecutor: false, matcher: matcher) }
        }
        runDeferredCompletions()
    }

    // MARK: The view

    /// Drives the view through one plan: commits the new state inside the view's update (B3).
    @inline(__always)
    private func show<Matcher: ItemMatcher>(
        _ plan: ApplyPlan<SectionIdentifierType, ItemIdentifierType, Matcher.State>, animation: RowAnimation,
        completions: [@Sendable () -> Void], matcher: Matcher
    ) where Matcher.Section == SectionIdentifierType, Matcher.Item == ItemIdentifierType {
        insideViewUpdate = true
        defer { insideViewUpdate = false }
        if plan.reload || plan.batches.isEmpty {
            commit(plan.state, matchState: plan.matchState, matcher: matcher)
            if plan.reload { view.reloadData() }
            deferredCompletions += completions
            return
        }
        let tracker = BatchCompletion(remaining: plan.batches.count, completions: completions)
        // The closure captures the plan's parts, not the plan: reading a field of the plan
        // there would look up its generic type's metadata again.
        let (state, matchState) = (plan.state, plan.matchState)
        for (index, batch) in plan.batches.enumerated() {
            var updateCalls = 0
            view.performBatchUpdates(
                batch, animation: animation,
                updates: {
                    updateCalls += 1
                    if index == 0 && updateCalls == 1 { self.commit(state, matchState: matchState, matcher: matcher) }
                },
                completion: { _ in self.viewFinished(tracker) })
            if updateCalls != 1 {
                DiffableDiagnostics.fail(
                    .viewContractViolation, in: "performBatchUpdates(_:animation:updates:completion:)",
                    "\(type(of: view)) called `updates` \(updateCalls) times; a ListView calls it exactly once, "
                        + "after capturing its old counts")
            }
        }
    }

    /// Makes `state` what the view's questions and every query answer from, with
    /// `matchState` beside it.
    @inline(__always)
    func commit<Matcher: ItemMatcher>(_ state: State, matchState: Matcher.State, matcher: Matcher)
    where Matcher.Section == SectionIdentifierType, Matcher.Item == ItemIdentifierType {
        shown = state
        matcher.shownState = matchState
        lock.withLock {
            published = state
            matcher.storage.published = matchState
        }
    }

    /// The view finished one batch; the request's completions run after its last batch.
    private func viewFinished(_ tracker: BatchCompletion) {
        guard executor.isCurrent() else {
            executor.enqueue { self.viewFinished(tracker) }
            return
        }
        tracker.remaining -= 1
        guard tracker.remaining == 0 else { return }
        deferredCompletions += tracker.completions
        // A view that finishes inside its performBatchUpdates call: run them once it returned.
        if !insideViewUpdate { runDeferredCompletions() }
    }

    private func runDeferredCompletions() {
        while !deferredCompletions.isEmpty {
            let ready = deferredCompletions
            deferredCompletions = []
            for completion in ready { completion() }
        }
    }
}

/// Counts the batches of one apply still animating; touched only on the executor.
final class BatchCompletion: @unchecked Sendable {
    var remaining: Int
    let completions: [@Sendable () -> Void]
    init(remaining: Int, completions: [@Sendable () -> Void]) {
        self.remaining = remaining
        self.completions = completions
    }
}
