import Foundation

/// How a data source matches the items of two snapshots and plans the view's batches.
///
/// This base class matches by identity, as Apple does: an item is "the same" when its
/// identifier is equal. ``IdentifiableItemMatcher`` matches `Identifiable` values by `id`.
class ItemMatcher<S: Hashable & Sendable, I: Hashable & Sendable>: @unchecked Sendable {
    typealias Snapshot = DiffableDataSourceSnapshot<S, I>
    typealias Target = ApplyTarget<S, I>

    /// Work done on the thread that calls `apply`, before queuing (it may trap on bad input,
    /// where the caller's stack shows who passed it).
    func prepare(_ snapshot: Snapshot, operation: String) -> (any Sendable)? { nil }

    /// What the matcher keeps beside a snapshot loaded without a diff.
    func matchState(loading target: Target) -> (any Sendable)? { nil }

    /// The batches from `base` to `target.snapshot`, and the match state to keep.
    /// - Complexity: the diff's, O(n + s) expected plus O(k log k) for the LIS.
    func batches(for target: Target, from base: CommittedState<S, I>) -> ([BatchUpdate], (any Sendable)?) {
        // The data source's own snapshot handed back (`apply(dataSource.snapshot())`) is unchanged.
        if target.snapshot.storage === base.snapshot.storage { return ([], nil) }
        return (target.snapshot.difference(from: base.snapshot).batches, nil)
    }

    /// The match state after the item at `source` moved to `destination` (a user's reorder).
    func matchState(_ state: CommittedState<S, I>, movingItemFrom source: IndexPath, to destination: IndexPath) -> (any Sendable)? {
        nil
    }

    /// Decides what the view does to go from `base` to `request`: `reloadData()` when the
    /// view never loaded or the request asks for it, else the diff's batches.
    /// - Complexity: O(1) for a reload; the diff's otherwise; plus ``ApplyTarget/init(_:on:)``.
    final func plan(_ request: ApplyRequest<S, I>, from base: CommittedState<S, I>) -> ApplyPlan<S, I> {
        let target = Target(request, on: base)
        let reload = !base.loaded || request.kind == .reload
        let (batches, matchState) = reload ? ([], matchState(loading: target)) : batches(for: target, from: base)
        let state = CommittedState(
            snapshot: target.snapshot.withoutPendingUpdates(), outlines: target.outlines, matchState: matchState, loaded: true,
            generation: base.generation + 1)
        return ApplyPlan(state: state, batches: batches, reload: reload, baseGeneration: base.generation)
    }
}

/// Matches `Identifiable` values by `id` and turns a changed value behind a kept `id` into
/// a reconfigure (or reload) in the refresh batch.
///
/// Snapshots of values are mirrored by snapshots of their `id`s (built and checked for
/// duplicates on the thread that calls `apply`); the diff runs on the `id` snapshots. Changed
/// values are found in one pass over the new items: one `id` lookup in the old `id` snapshot,
/// then one `==` against the old value at the same position.
final class IdentifiableItemMatcher<S: Hashable & Sendable, I: Hashable & Sendable & Identifiable>: ItemMatcher<S, I>,
    @unchecked Sendable
where I.ID: Sendable {
    typealias IDSnapshot = DiffableDataSourceSnapshot<S, I.ID>

    /// The `id` snapshot made on the calling thread, taken once by the plan (so the plan owns
    /// it uniquely and adds refresh requests without copying it).
    final class Prepared: @unchecked Sendable {
        private var snapshot: IDSnapshot?
        init(_ snapshot: IDSnapshot) { self.snapshot = snapshot }
        func take() -> IDSnapshot? {
            defer { snapshot = nil }
            return snapshot
        }
    }

    let updates: ItemContentUpdate

    init(updates: ItemContentUpdate) { self.updates = updates }

    /// - Complexity: O(n + s) expected.
    override func prepare(_ snapshot: Snapshot, operation: String) -> (any Sendable)? {
        do {
            return Prepared(try Self.identifiers(of: snapshot))
        } catch {
            DiffableDiagnostics.fail(.duplicateIdentifiers, in: operation, "values matched by id: \(error)")
        }
    }

    override func matchState(loading target: Target) -> (any Sendable)? {
        Self.identifiers(target)
    }

    override func batches(for target: Target, from base: CommittedState<S, I>) -> ([BatchUpdate], (any Sendable)?) {
        let oldIDs = base.matchState as! IDSnapshot
        var ids = Self.identifiers(target)
        let values = target.snapshot
        let changed = Self.changedItems(values, base: base.snapshot, baseIDs: oldIDs)
        var reloads = values.reloadedItemIdentifiers.map(\.id)
        var reconfigures = values.reconfiguredItemIdentifiers.map(\.id)
        switch updates {
        case .reconfigure: reconfigures += changed
        case .reload: reloads += changed
        }
        let reloaded = Set(reloads)
        reconfigures.removeAll { reloaded.contains($0) }
        // Every identifier is in `ids` (same layout as `values`), so none of these can throw.
        try? ids.tryReloadItems(reloads)
        try? ids.tryReconfigureItems(reconfigures)
        try? ids.tryReloadSections(values.reloadedSectionIdentifiers)
        // Pending requests stay on the kept `id` snapshot: it is only ever a diff's old side.
        return (ids.difference(from: oldIDs).batches, ids)
    }

    override func matchState(_ state: CommittedState<S, I>, movingItemFrom source: IndexPath, to destination: IndexPath)
        -> (any Sendable)?
    {
        (state.matchState as! IDSnapshot).movingItem(from: source, to: destination)
    }

    /// The prepared `id` snapshot, or a fresh one when a redone plan already took it or
    /// outline edits changed the snapshot (where a repeated `id` is reported and traps).
    private static func identifiers(_ target: Target) -> IDSnapshot {
        if let prepared = (target.prepared as? Prepared)?.take() { return prepared }
        do {
            return try identifiers(of: target.snapshot)
        } catch {
            DiffableDiagnostics.fail(.duplicateIdentifiers, in: target.operation, "values matched by id: \(error)")
        }
    }

    /// The `id` mirror of `snapshot`; throws ``SnapshotError/duplicateItems(_:)`` naming every
    /// repeated `id` and its positions.
    /// - Complexity: O(n + s) expected.
    static func identifiers(of snapshot: Snapshot) throws(SnapshotError) -> IDSnapshot {
        try IDSnapshot(
            validating: snapshot.sectionIdentifiers.map { section in
                (section, snapshot.itemIdentifiers(inSection: section).map(\.id))
            })
    }

    /// The `id`s of items present in both snapshots whose values differ.
    /// - Complexity: O(n) expected: one `id` lookup and one `==` per item of `values`.
    static func changedItems(_ values: Snapshot, base: Snapshot, baseIDs: IDSnapshot) -> [I.ID] {
        let old = base.storage, oldIDs = baseIDs.storage
        var changed: [I.ID] = []
        for value in values.storage.itemIDs {
            let id = value.id
            guard let slot = oldIDs.itemSlot(id) else { continue }
            // Both old snapshots have one layout: the same position holds the old value.
            let (section, index) = oldIDs.displayPlace(ofItemSlot: slot)
            let oldValue = old.itemID(inSectionAt: section, index: index)
            if oldValue != value { changed.append(id) }
        }
        return changed
    }
}
