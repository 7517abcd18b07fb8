import Foundation

/// How a data source matches the items of two snapshots and plans the view's batches, and
/// where it keeps what that needs: the requests waiting for the view and, beside every
/// committed state, the matcher's own ``State``.
///
/// A data source holds one matcher, created with it, as `any ItemMatcher<S, I>`; its apply
/// machinery opens that existential once per call and is generic over the matcher from
/// there on, so every state and every piece of prepared work keeps its own type.
/// ``IdentityMatcher`` matches by identity, as Apple does; ``IdentifiableItemMatcher``
/// matches `Identifiable` values by `id`. Their `storage`'s fields and their `shownState`
/// skip run-time exclusivity checks (several accesses per apply, each registering with the
/// runtime): the data source's lock guards the one, the executor confines the other.
protocol ItemMatcher<Section, Item>: AnyObject, Sendable {
    associatedtype Section: Hashable & Sendable
    associatedtype Item: Hashable & Sendable
    /// What the matcher keeps beside a committed snapshot (the keys of the `id`s when matching by `id`).
    associatedtype State: Sendable
    /// The work done on the calling thread for a snapshot to apply.
    associatedtype Prepared: Sendable
    typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    typealias Target = ApplyTarget<Section, Item>

    /// The queue and the match state beside `published`, guarded by the data source's lock.
    var storage: MatcherStorage<Section, Item, Prepared, State> { get }
    /// The match state beside `shown`, confined to the view executor (a property of its own:
    /// Swift's exclusivity covers a stored property whole, and the queue is touched meanwhile).
    var shownState: State { get set }

    /// Work done on the thread that calls `apply`, before queuing (the keys of the `id`s when
    /// matching by `id`).
    func prepare(_ snapshot: Snapshot, operation: String) -> Prepared?

    /// What the matcher keeps beside `target` loaded without a diff; `prepared` is the work
    /// done for `target.snapshot` when it still stands for it.
    func state(loading target: Target, prepared: Prepared?) -> State

    /// The batches from `base` to `target.snapshot`. `state` is the base's match state on
    /// entry and the one to keep on return (an `inout`, not a returned tuple: a tuple holding
    /// the generic `State` has its metadata looked up at run time, about 530 instructions an
    /// apply).
    /// - Complexity: the diff's, O(n + s) expected plus O(k log k) for the LIS.
    func batches(for target: Target, prepared: Prepared?, from base: CommittedState<Section, Item>, state: inout State)
        -> [BatchUpdate]

    /// The match state after the item at `source` moved to `destination` (a user's reorder).
    func state(_ state: State, movingItemFrom source: IndexPath, to destination: IndexPath) -> State
}

/// What an ``ItemMatcher`` holds for its data source under the data source's lock: the queue
/// (with the matcher's prepared work per request) and the match state beside `published`.
///
/// An object, made once per data source: the apply machinery, generic over the matcher, reaches
/// an object's fields through the object's own type, where a struct handed out by the
/// matcher's getter had its type's metadata looked up (about 330 instructions) and was copied
/// whole, several times an apply. Its fields skip run-time exclusivity checks: the lock
/// guards them.
final class MatcherStorage<S: Hashable & Sendable, I: Hashable & Sendable, Prepared: Sendable, State: Sendable>: @unchecked Sendable {
    @exclusivity(unchecked) var queue = ApplyQueue<S, I, Prepared>()
    @exclusivity(unchecked) var published: State
    init(_ state: State) { published = state }
}

extension ItemMatcher {
    /// Decides what the view does to go from `base` (with match state `state`) to
    /// `request`: `reloadData()` when the view never loaded or the request asks for it,
    /// else the diff's batches.
    /// - Complexity: O(1) for a reload; the diff's otherwise; plus ``ApplyTarget/init(_:on:)``.
    @inline(__always)
    func plan(_ request: ApplyRequest<Section, Item, Prepared>, from base: CommittedState<Section, Item>, state: State)
        -> ApplyPlan<Section, Item, State>
    {
        let target = Target(request, on: base)
        let prepared = target.lastChangeIsSnapshot ? request.prepared : nil
        let reload = !base.loaded || request.kind == .reload
        var matchState = state
        let batches: [BatchUpdate]
        if reload {
            batches = []
            matchState = self.state(loading: target, prepared: prepared)
        } else {
            batches = self.batches(for: target, prepared: prepared, from: base, state: &matchState)
        }
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
    let storage = MatcherStorage<Section, Item, Never, Void>(())
    @exclusivity(unchecked) var shownState: Void = ()

    func prepare(_ snapshot: Snapshot, operation: String) -> Never? { nil }

    func state(loading target: Target, prepared: Never?) {}

    /// - Complexity: the diff's, O(n + s) expected plus O(k log k) for the LIS.
    func batches(for target: Target, prepared: Never?, from base: CommittedState<Section, Item>, state: inout Void) -> [BatchUpdate] {
        // The data source's own snapshot handed back (`apply(dataSource.snapshot())`) is unchanged.
        if target.snapshot.storage === base.snapshot.storage { return [] }
        // One outline applied to a shown section changes that section's rows only: diff them
        // through the outline's own difference, not the whole snapshot (the same batches).
        if target.isSoleOutlineEdit, let batches = Self.outlineBatches(for: target, from: base) { return batches }
        return target.snapshot.batches(from: base.snapshot)
    }

    /// The batches of a request that is one outline applied to a shown section, or nil when
    /// the section is not shown. Not inlined: the outline edit's type would have its metadata
    /// looked up on entry to the caller, in every apply.
    /// - Complexity: the outline's difference, O(k) for the section's k rows.
    @inline(never)
    private static func outlineBatches(for target: Target, from base: CommittedState<Section, Item>) -> [BatchUpdate]? {
        guard let edit = target.soleOutlineEdit, let position = base.snapshot.indexOfSection(edit.section) else { return nil }
        return edit.outline.batches(from: base.sectionSnapshot(for: edit.section), inSectionAt: position)
    }

    func state(_ state: Void, movingItemFrom source: IndexPath, to destination: IndexPath) {}
}

/// Matches `Identifiable` values by `id` and turns a changed value behind a kept `id` into
/// a reconfigure (or reload) in the refresh batch.
///
/// The values' snapshots are diffed themselves, with the keys of their `id`s for item keys
/// (made on the thread that calls `apply`, and kept beside the committed snapshot for the
/// next diff's old side): the core matches the `id`s, then asks which matched values changed
/// (``IdentifiableValues/markChanged``: one `!=` per matched pair) before it plans the
/// batches, so no snapshot of the `id`s is built and no value's old place is looked up.
/// Repeated `id`s share a key, which stops that diff; they are then reported, as the `id`s
/// of every snapshot loaded without a diff are checked, through a snapshot of the `id`s.
final class IdentifiableItemMatcher<Section: Hashable & Sendable, Item: Hashable & Sendable & Identifiable>: ItemMatcher,
    @unchecked Sendable
where Item.ID: Sendable {
    typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    typealias Target = ApplyTarget<Section, Item>
    typealias IDSnapshot = DiffableDataSourceSnapshot<Section, Item.ID>
    typealias State = IDKeys

    typealias Prepared = PreparedIDKeys

    let updates: ItemContentUpdate
    /// The values' `id`, `id` keys and `!=`, compiled where `Item` is known.
    let values: IdentifiableValues<Item>
    let storage = MatcherStorage<Section, Item, Prepared, State>(State())
    @exclusivity(unchecked) var shownState = State()

    init(updates: ItemContentUpdate, values: IdentifiableValues<Item>) {
        self.updates = updates
        self.values = values
    }

    /// - Complexity: O(n + s).
    func prepare(_ snapshot: Snapshot, operation: String) -> Prepared? {
        Prepared(keyedByID(snapshot))
    }

    /// A snapshot loaded without a diff (the first apply, a reload) is never a diff's new
    /// side: its `id`s are checked for repeats here.
    func state(loading target: Target, prepared: Prepared?) -> State {
        requireUniqueIDsOfReplacedSnapshots(target)
        requireUniqueIDs(target.snapshot, operation: target.operation)
        return State(flat: prepared?.take() ?? keyedByID(target.snapshot))
    }

    func batches(for target: Target, prepared: Prepared?, from base: CommittedState<Section, Item>, state: inout State)
        -> [BatchUpdate]
    {
        let old = state
        requireUniqueIDsOfReplacedSnapshots(target)
        let values = target.snapshot, operation = target.operation
        let newFlat = prepared?.take() ?? keyedByID(values)
        let oldFlat = old.flat ?? keyedByID(base.snapshot)
        let mark = updates == .reload ? RefreshDecider.reloadMark : RefreshDecider.reconfigureMark
        let decider = RefreshDecider(
            decide: self.values.markChanged, mark: mark, sameID: self.values.sameID,
            beforeConfirming: { self.requireUniqueIDs(values, operation: operation) })
        let batches = DiffContextPool.shared.withContext {
            $0.batches(matchingByID: base.snapshot, flat: oldFlat, to: values, flat: newFlat, decider: decider)
        }
        state = State(flat: newFlat)
        return batches
    }

    func state(_ state: State, movingItemFrom source: IndexPath, to destination: IndexPath) -> State {
        // The values' snapshot just moved one item: its flat form is made again at the next diff.
        State(flat: nil)
    }

    /// `snapshot`'s flat form keyed by its values' `id`s (one key per item, in display order).
    /// ``KeyedByID`` values are stored under those keys already: the snapshot's own flat form
    /// (its key array borrowed when its slots run in display order) is the one, its keys
    /// known distinct when its table never took a key without looking for it. Other values
    /// are read through their slots in display order, which the flat form records: finding out
    /// first whether the slots follow display order (the usual case) cost more than reading
    /// through them.
    /// - Complexity: O(n + s).
    func keyedByID(_ snapshot: Snapshot) -> FlatSnapshot {
        let storage = snapshot.storage
        if values.keysAreIDKeys {
            var flat = FlatSnapshot(storage, slots: true)
            // Values entered without two sharing a key have distinct `id`s.
            flat.itemKeysDistinct = !storage.items.table.keysMayRepeat
            return flat
        }
        return FlatSnapshot(storage) { slots in storage.items.ids.withUnsafeBufferPointer { self.values.idKeys($0, slots) } }
    }

    /// ``requireUniqueIDs(_:operation:)`` for each snapshot of a coalesced run that a later
    /// one replaced: never diffed, each is still checked, as it would have been alone.
    /// Inlined, so that the usual apply (one snapshot, ``ApplyTarget/madeSeveralChanges``
    /// false) reads the flag and goes on: the call with the target costs the target type's
    /// metadata lookup (about 330 instructions), paid only when there is something to check.
    /// - Complexity: O(1) for one change; O(n + s) expected per replaced snapshot.
    @inline(__always)
    func requireUniqueIDsOfReplacedSnapshots(_ target: Target) {
        if target.madeSeveralChanges { requireUniqueIDs(ofSnapshotsReplacedIn: target) }
    }

    /// The loop of ``requireUniqueIDsOfReplacedSnapshots(_:)``, out of line.
    /// - Complexity: O(n + s) expected per replaced snapshot.
    @inline(never)
    private func requireUniqueIDs(ofSnapshotsReplacedIn target: Target) {
        for replaced in target.replacedSnapshots { requireUniqueIDs(replaced, operation: target.operation) }
    }

    /// Traps, reporting every repeated `id` and its positions, when two of `snapshot`'s
    /// values share an `id`.
    /// - Complexity: O(n + s) expected.
    func requireUniqueIDs(_ snapshot: Snapshot, operation: String) {
        do {
            _ = try idSnapshot(of: snapshot)
        } catch {
            DiffableDiagnostics.fail(.duplicateIdentifiers, in: operation, "values matched by id: \(error)")
        }
    }

    /// The snapshot of the `id`s of `snapshot`'s values (its layout); throws
    /// ``SnapshotError/duplicateItems(_:)`` naming every repeated `id` and its positions.
    ///
    /// The `id`s take over the values' sections as they are stored
    /// (`init(sectionsOf:holding:)`: sections neither keyed again nor checked for repeats).
    /// Only when two `id`s share a key (a repeated `id`, or a collision) is it built again
    /// through `init(validating:)`, which tells repeats from collisions.
    /// - Complexity: O(n + s) expected.
    func idSnapshot(of snapshot: Snapshot) throws(SnapshotError) -> IDSnapshot {
        let storage = snapshot.storage
        let ids = storage.items.ids.withUnsafeBufferPointer { values in
            storage.displaySlots.withUnsafeBufferPointer { self.values.ids(values, $0) }
        }
        let layout = SectionLayout(of: storage)
        if let mirror = IDSnapshot(sectionsOf: layout, holding: ids) { return mirror }
        var first = 0
        let sections = layout.order.mapped { slot in
            let count = layout.items[Int(slot)].count
            defer { first += count }
            return (layout.ids[Int(slot)], Array(ids[first..<first + count]))
        }
        return try IDSnapshot(validating: sections)
    }
}
