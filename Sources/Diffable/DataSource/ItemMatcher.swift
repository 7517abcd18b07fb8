import Foundation

/// How a data source matches the items of two snapshots and plans the view's batches, and
/// where it keeps what that needs: the requests waiting for the view and, beside every
/// committed state, the matcher's own ``State``.
///
/// A data source holds one matcher, created with it, as `any ItemMatcher<S, I>`; its apply
/// machinery opens that existential once per call and is generic over the matcher from
/// there on, so every state and every piece of prepared work keeps its own type.
/// ``IdentityMatcher`` matches by identity, as Apple does; ``IdentifiableItemMatcher``
/// matches `Identifiable` values by `id`. Their `storage` and `shownState` skip run-time
/// exclusivity checks (several accesses per apply, each registering with the runtime): the
/// data source's lock guards the one, the executor confines the other.
protocol ItemMatcher<Section, Item>: AnyObject, Sendable {
    associatedtype Section: Hashable & Sendable
    associatedtype Item: Hashable & Sendable
    /// What the matcher keeps beside a committed snapshot (the `id` snapshot when matching by `id`).
    associatedtype State: Sendable
    /// The work done on the calling thread for a snapshot to apply.
    associatedtype Prepared: Sendable
    typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    typealias Target = ApplyTarget<Section, Item>

    /// The queue and the match state beside `published`, guarded by the data source's lock.
    var storage: MatcherStorage<Section, Item, Prepared, State> { get set }
    /// The match state beside `shown`, confined to the view executor (a property of its own:
    /// Swift's exclusivity covers a stored property whole, and the queue is touched meanwhile).
    var shownState: State { get set }

    /// Work done on the thread that calls `apply`, before queuing (it may trap on bad input,
    /// where the caller's stack shows who passed it).
    func prepare(_ snapshot: Snapshot, operation: String) -> Prepared?

    /// What the matcher keeps beside `target` loaded without a diff; `prepared` is the work
    /// done for `target.snapshot` when it still stands for it.
    func state(loading target: Target, prepared: Prepared?) -> State

    /// The batches from `base` (whose match state is `state`) to `target.snapshot`, and the
    /// match state to keep.
    /// - Complexity: the diff's, O(n + s) expected plus O(k log k) for the LIS.
    func batches(for target: Target, prepared: Prepared?, from base: CommittedState<Section, Item>, state: State)
        -> ([BatchUpdate], State)

    /// The match state after the item at `source` moved to `destination` (a user's reorder).
    func state(_ state: State, movingItemFrom source: IndexPath, to destination: IndexPath) -> State
}

/// What an ``ItemMatcher`` holds for its data source under the data source's lock: the queue
/// (with the matcher's prepared work per request) and the match state beside `published`.
struct MatcherStorage<S: Hashable & Sendable, I: Hashable & Sendable, Prepared: Sendable, State: Sendable> {
    var queue = ApplyQueue<S, I, Prepared>()
    var published: State
    init(_ state: State) { published = state }
}

extension ItemMatcher {
    /// Decides what the view does to go from `base` (with match state `state`) to
    /// `request`: `reloadData()` when the view never loaded or the request asks for it,
    /// else the diff's batches.
    /// - Complexity: O(1) for a reload; the diff's otherwise; plus ``ApplyTarget/init(_:on:)``.
    func plan(_ request: ApplyRequest<Section, Item, Prepared>, from base: CommittedState<Section, Item>, state: State)
        -> ApplyPlan<Section, Item, State>
    {
        let target = Target(request, on: base)
        let prepared = target.lastChangeIsSnapshot ? request.prepared : nil
        let reload = !base.loaded || request.kind == .reload
        let (batches, matchState) =
            reload
            ? ([], self.state(loading: target, prepared: prepared)) : batches(for: target, prepared: prepared, from: base, state: state)
        let shown = target.snapshot.hasPendingUpdates ? target.snapshot.withoutPendingUpdates() : target.snapshot
        let committed = CommittedState(snapshot: shown, outlines: target.outlines, loaded: true, generation: base.generation + 1)
        return ApplyPlan(state: committed, matchState: matchState, batches: batches, reload: reload, baseGeneration: base.generation)
    }
}

/// Matches by identity, as Apple does: an item is "the same" when its identifier is equal.
/// Keeps nothing beside the snapshot and prepares nothing.
final class IdentityMatcher<Section: Hashable & Sendable, Item: Hashable & Sendable>: ItemMatcher, @unchecked Sendable {
    typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    typealias Target = ApplyTarget<Section, Item>
    @exclusivity(unchecked) var storage = MatcherStorage<Section, Item, Never, Void>(())
    @exclusivity(unchecked) var shownState: Void = ()

    func prepare(_ snapshot: Snapshot, operation: String) -> Never? { nil }

    func state(loading target: Target, prepared: Never?) {}

    /// - Complexity: the diff's, O(n + s) expected plus O(k log k) for the LIS.
    func batches(for target: Target, prepared: Never?, from base: CommittedState<Section, Item>, state: Void) -> ([BatchUpdate], Void) {
        // The data source's own snapshot handed back (`apply(dataSource.snapshot())`) is unchanged.
        if target.snapshot.storage === base.snapshot.storage { return ([], ()) }
        // One outline applied to a shown section changes that section's rows only: diff them
        // through the outline's own difference, not the whole snapshot (the same batches).
        if let edit = target.soleOutlineEdit, let position = base.snapshot.indexOfSection(edit.section) {
            return (edit.outline.batches(from: base.sectionSnapshot(for: edit.section), inSectionAt: position), ())
        }
        return (target.snapshot.batches(from: base.snapshot), ())
    }

    func state(_ state: Void, movingItemFrom source: IndexPath, to destination: IndexPath) {}
}

/// Matches `Identifiable` values by `id` and turns a changed value behind a kept `id` into
/// a reconfigure (or reload) in the refresh batch.
///
/// Snapshots of values are mirrored by snapshots of their `id`s (built and checked for
/// duplicates on the thread that calls `apply`); the diff runs on the `id` snapshots. Changed
/// values are found in one pass over the new items: the `id`'s place in the old `id` snapshot
/// (by slot when the snapshots' slots follow display order, the `id` after the previous match
/// tried before a table lookup), then one `==` against the old value there.
final class IdentifiableItemMatcher<Section: Hashable & Sendable, Item: Hashable & Sendable & Identifiable>: ItemMatcher,
    @unchecked Sendable
where Item.ID: Sendable {
    typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    typealias Target = ApplyTarget<Section, Item>
    typealias IDSnapshot = DiffableDataSourceSnapshot<Section, Item.ID>
    typealias State = IDMirror<Section, Item.ID>

    /// The `id` mirror made on the calling thread, taken once by the plan (so the plan owns
    /// it uniquely and adds refresh requests without copying it).
    final class Prepared: @unchecked Sendable {
        private let mutex = Lock.Mutex()  // inline: one object fewer per apply
        private var mirror: State?
        init(_ mirror: State) { self.mirror = mirror }
        func take() -> State? {
            mutex.withLock {
                defer { mirror = nil }
                return mirror
            }
        }
    }

    let updates: ItemContentUpdate
    /// The values' `id` and `!=`, compiled where `Item` is known.
    let values: IdentifiableValues<Item>
    @exclusivity(unchecked) var storage = MatcherStorage<Section, Item, Prepared, State>(State())
    @exclusivity(unchecked) var shownState = State()

    init(updates: ItemContentUpdate, values: IdentifiableValues<Item>) {
        self.updates = updates
        self.values = values
    }

    /// - Complexity: O(n + s) expected.
    func prepare(_ snapshot: Snapshot, operation: String) -> Prepared? {
        do {
            return Prepared(try mirror(of: snapshot))
        } catch {
            DiffableDiagnostics.fail(.duplicateIdentifiers, in: operation, "values matched by id: \(error)")
        }
    }

    func state(loading target: Target, prepared: Prepared?) -> State {
        mirror(target, prepared: prepared)
    }

    func batches(for target: Target, prepared: Prepared?, from base: CommittedState<Section, Item>, state old: State)
        -> ([BatchUpdate], State)
    {
        var new = mirror(target, prepared: prepared)
        let values = target.snapshot
        let changed = changedItems(values, ids: new, base: base.snapshot, baseIDs: old)
        // The usual apply asks no refresh of its own: only the changed values are refreshed
        // (merging empty request lists cost 6% of an apply of 10^2 values).
        if !values.hasPendingUpdates {
            if changed.count != 0 {  // not `isEmpty`: see `hasPendingUpdates`
                new.ids.refreshPresentItems(changed, reloading: updates == .reload)
            }
            return (new.ids.batches(from: old.ids), new)
        }
        var reloads = values.reloadedItemIdentifiers.mapped { $0.id }
        var reconfigures = values.reconfiguredItemIdentifiers.mapped { $0.id }
        switch updates {
        case .reconfigure: reconfigures += changed
        case .reload: reloads += changed
        }
        let reloaded = Set(reloads)
        reconfigures.removeAll { reloaded.contains($0) }
        // Every identifier is in `ids` (same layout as `values`), so none of these can throw.
        try? new.ids.tryReloadItems(reloads)
        try? new.ids.tryReconfigureItems(reconfigures)
        try? new.ids.tryReloadSections(values.reloadedSectionIdentifiers)
        // Pending requests stay on the kept `id` snapshot: it is only ever a diff's old side.
        return (new.ids.batches(from: old.ids), new)
    }

    func state(_ state: State, movingItemFrom source: IndexPath, to destination: IndexPath) -> State {
        // The values' snapshot just made the same move: the `id` mirror has the same layout.
        guard let moved = state.ids.movingItem(from: source, to: destination) else {
            preconditionFailure("Diffable: the id snapshot lost step with the values' snapshot")
        }
        // The move may take slots out of display order, in the values' snapshot and here.
        return State(ids: moved, slotsFollowDisplayOrder: false)
    }

    /// The prepared `id` mirror, or a fresh one when a redone plan already took it or
    /// later changes made the snapshot (where a repeated `id` is reported and traps).
    private func mirror(_ target: Target, prepared: Prepared?) -> State {
        if let prepared = prepared?.take() { return prepared }
        do {
            return try mirror(of: target.snapshot)
        } catch {
            DiffableDiagnostics.fail(.duplicateIdentifiers, in: target.operation, "values matched by id: \(error)")
        }
    }

    /// The `id` mirror of `snapshot`; throws ``SnapshotError/duplicateItems(_:)`` naming every
    /// repeated `id` and its positions.
    ///
    /// The `id`s are read in the caller's compiled code straight from the values, in display
    /// order (in slot order when the slots follow it), and take over the values' sections
    /// as they are stored (`init(sectionsOf:holding:)`: sections neither keyed again nor
    /// checked for repeats). Only when two `id`s share a key (a repeated `id`, or a collision)
    /// is the mirror built again through `init(validating:)`, which tells repeats from collisions.
    /// - Complexity: O(n + s) expected.
    func mirror(of snapshot: Snapshot) throws(SnapshotError) -> State {
        let storage = snapshot.storage
        let inOrder = storage.slotsFollowDisplayOrder
        let ids = storage.items.ids.withUnsafeBufferPointer { values in
            if inOrder { return self.values.ids(values, nil) }
            var slots: [Int32] = []
            slots.reserveCapacity(values.count)
            for section in storage.sectionOrder { slots.append(contentsOf: storage.sectionItems[Int(section)]) }
            return slots.withUnsafeBufferPointer { self.values.ids(values, $0) }
        }
        let layout = SectionLayout(of: storage)
        if let mirror = IDSnapshot(sectionsOf: layout, holding: ids) { return State(ids: mirror, slotsFollowDisplayOrder: inOrder) }
        var first = 0
        let sections = layout.order.mapped { slot in
            let count = layout.items[Int(slot)].count
            defer { first += count }
            return (layout.ids[Int(slot)]!, Array(ids[first..<first + count]))
        }
        return State(ids: try IDSnapshot(validating: sections), slotsFollowDisplayOrder: inOrder)
    }

    /// The `id`s of items present in both snapshots whose values differ; `ids` is the `id`
    /// mirror of `values` (the same layout), `baseIDs` the one of `base`.
    /// - Complexity: O(n) expected: one `id` comparison, a lookup by the key `ids` holds when it
    ///   fails (``slotsOfItems(of:in:)``, pre-specialized for the common `id` types), and one
    ///   `!=` per item of `values`.
    func changedItems(_ values: Snapshot, ids: State, base: Snapshot, baseIDs: State) -> [Item.ID] {
        let new = values.storage, newIDs = ids.ids.storage, old = base.storage, oldIDs = baseIDs.ids.storage
        // Snapshots built by appends (the usual case: the app's, and every `id` mirror) keep
        // each item at the slot of its position, so one slot stands for the value and its `id`.
        // Each mirror knows it of itself and of its values from when it was built.
        assert(!ids.slotsFollowDisplayOrder || (new.slotsFollowDisplayOrder && newIDs.slotsFollowDisplayOrder))
        assert(!baseIDs.slotsFollowDisplayOrder || (old.slotsFollowDisplayOrder && oldIDs.slotsFollowDisplayOrder))
        if ids.slotsFollowDisplayOrder && baseIDs.slotsFollowDisplayOrder {
            return changedItems(inSlotOrder: new, ids: newIDs, base: old, baseIDs: oldIDs)
        }
        let oldIDSlots = slotsOfItems(of: newIDs, in: oldIDs)
        var changed: [Item.ID] = []
        new.items.ids.withUnsafeBufferPointer { newValues in
            old.items.ids.withUnsafeBufferPointer { oldValues in
                for position in 0..<new.sectionOrder.count {
                    let valueSlots = new.sectionItems[Int(new.sectionOrder[position])]
                    // The id snapshot has the values' layout: the same position holds the `id`.
                    let idSlots = newIDs.sectionItems[Int(newIDs.sectionOrder[position])]
                    for index in 0..<valueSlots.count {
                        let oldIDSlot = oldIDSlots[Int(idSlots[index])]
                        guard oldIDSlot >= 0 else { continue }
                        // Both old snapshots have one layout: the same position holds the old value.
                        let (oldSection, oldIndex) = oldIDs.displayPlace(ofItemSlot: oldIDSlot)
                        let oldSlot = old.sectionItems[Int(old.sectionOrder[oldSection])][oldIndex]
                        let newValue = newValues.baseAddress! + Int(valueSlots[index])
                        if self.values.differ(newValue, oldValues.baseAddress! + Int(oldSlot)) {
                            changed.append(newIDs.itemID(atSlot: idSlots[index]))
                        }
                    }
                }
            }
        }
        return changed
    }

    /// ``changedItems(_:ids:base:baseIDs:)`` for four storages whose slots follow display
    /// order: the slot of an `id` in `baseIDs` is that of its old value in `base`.
    /// - Complexity: O(n) expected: one `id` comparison, a table lookup when it fails
    ///   (``slotsOfItems(of:in:)``), and one `!=` per item of `values` (in the caller's
    ///   compiled code, `IdentifiableValues.changedIDs`).
    private func changedItems(
        inSlotOrder values: SnapshotStorage<Section, Item>, ids: SnapshotStorage<Section, Item.ID>, base: SnapshotStorage<Section, Item>,
        baseIDs: SnapshotStorage<Section, Item.ID>
    ) -> [Item.ID] {
        let oldSlots = slotsOfItems(of: ids, in: baseIDs)
        // A value's `id` is the one at its slot in `ids`: read from the value, in the caller's code.
        return values.items.ids.withUnsafeBufferPointer { newValues in
            base.items.ids.withUnsafeBufferPointer { oldValues in
                oldSlots.withUnsafeBufferPointer { self.values.changedIDs(newValues, oldValues, $0) }
            }
        }
    }
}
