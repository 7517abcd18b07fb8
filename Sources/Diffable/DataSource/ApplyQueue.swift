import Foundation

/// What a view committed: the snapshot its questions are answered from.
///
/// Outline sections keep their ``DiffableDataSourceSectionSnapshot`` in `outlines`; their
/// visible items are what `snapshot` holds for those sections, so the diff and the view
/// need no change.
struct CommittedState<S: Hashable & Sendable, I: Hashable & Sendable>: Sendable {
    /// The items and sections shown, without pending reload/reconfigure requests.
    var snapshot = DiffableDataSourceSnapshot<S, I>()
    /// The outline of every section shown through a section snapshot; `snapshot` holds each
    /// one's visible items. Sections without an entry are flat.
    var outlines: [S: DiffableDataSourceSectionSnapshot<I>] = [:]
    /// Whether the view loaded (`reloadData()`) since the data source was created.
    var loaded = false
    /// Counts commits (applies and reorders): a diff made against an older state is redone.
    var generation: UInt64 = 0
}

/// One `apply(_:to:animatingDifferences:completion:)`: show `outline` in `section`.
struct OutlineEdit<S: Hashable & Sendable, I: Hashable & Sendable>: Sendable {
    var section: S
    var outline: DiffableDataSourceSectionSnapshot<I>
}

/// What one API call asks the data source to show, relative to the state before it.
enum ApplyChange<S: Hashable & Sendable, I: Hashable & Sendable>: Sendable {
    /// `apply(_:…)`, `applySnapshotUsingReloadData(_:…)`: show this snapshot.
    case snapshot(DiffableDataSourceSnapshot<S, I>)
    /// `apply(_:to:…)`: show this outline in its section, the other sections as they are.
    /// Boxed: its section identifier would otherwise give the enum a layout that depends on
    /// `S`, and every apply (outline edits are rare) would look the enum's metadata up to copy it.
    indirect case outline(OutlineEdit<S, I>)
    /// `update(animatingDifferences:_:)`: show what the closure makes of the state before it.
    case update(SnapshotUpdate<S, I>)
}

/// How the view is brought to a request's state.
enum ApplyKind: Sendable, Equatable {
    /// Batches from the diff (animated or not).
    case diff(animating: Bool)
    /// `reloadData()`.
    case reload
}

/// One call to `apply`, `applySnapshotUsingReloadData` or `update`, waiting for the view;
/// or, coalesced, a run of them. `Prepared` is the item matcher's work for a snapshot.
struct ApplyRequest<S: Hashable & Sendable, I: Hashable & Sendable, Prepared: Sendable>: Sendable {
    typealias Kind = ApplyKind
    /// What to show, in call order, each change made on the state the one before it left
    /// (the first on the state committed when the request is performed).
    var changes: [ApplyChange<S, I>]
    var kind: Kind
    /// The matcher's work done on the calling thread for the last change when it is a
    /// snapshot (the keys of its values' `id`s).
    var prepared: Prepared?
    /// Every completion handler this request answers for, in call order.
    var completions: [@Sendable () -> Void]
    /// The API call, for error messages.
    var operation: String

    /// Inlined into the data source's `submit`, whose other uses of this type's metadata
    /// then serve it too (a separate initializer looks it up again: about 330 instructions).
    /// - Complexity: O(1).
    @inline(__always)
    init(
        changes: [ApplyChange<S, I>], kind: Kind, prepared: Prepared?, completions: [@Sendable () -> Void], operation: String
    ) {
        (self.changes, self.kind, self.prepared, self.completions, self.operation) = (changes, kind, prepared, completions, operation)
    }

    /// One request standing for a run of queued ones: all their changes, in call order (so
    /// the merged request ends where performing each would: an outline edit that a later
    /// flat snapshot keeps survives), every completion, and a reload if any asked for one.
    /// The last request's prepared work still stands for the last change.
    /// - Complexity: O(k) for k changes.
    static func coalescing(_ requests: ArraySlice<Self>) -> Self {
        var merged = requests.last!
        guard requests.count > 1 else { return merged }
        if requests.dropLast().contains(where: { $0.kind == .reload }) { merged.kind = .reload }
        merged.completions = requests.flatMap(\.completions)
        merged.changes = requests.flatMap(\.changes)
        return merged
    }
}

/// What a diff decided: the state to commit and the batches that lead the view there.
struct ApplyPlan<S: Hashable & Sendable, I: Hashable & Sendable, MatchState: Sendable>: Sendable {
    /// The state to commit (its generation is the base's plus one).
    var state: CommittedState<S, I>
    /// What the item matcher keeps beside `state`.
    var matchState: MatchState
    /// Nothing to animate when empty; ignored when `reload` is set.
    var batches: [BatchUpdate]
    /// `reloadData()` instead of batches (first load, or asked for).
    var reload: Bool
    /// The generation of the state the diff started from.
    var baseGeneration: UInt64

    /// Inlined into the planner, as ``ApplyRequest``'s initializer is into `submit`.
    /// - Complexity: O(1).
    @inline(__always)
    init(state: CommittedState<S, I>, matchState: MatchState, batches: [BatchUpdate], reload: Bool, baseGeneration: UInt64) {
        (self.state, self.matchState, self.batches, self.reload, self.baseGeneration) = (
            state, matchState, batches, reload, baseGeneration
        )
    }
}

/// The FIFO of applies waiting for the view, plus who drives it. Guarded by the data source's lock.
struct ApplyQueue<S: Hashable & Sendable, I: Hashable & Sendable, Prepared: Sendable> {
    typealias Request = ApplyRequest<S, I, Prepared>
    private var requests: [Request] = []
    /// `requests.count`, kept here: reading the array's count from this unspecialized code
    /// looks up the request type's metadata (about 330 instructions), in every apply.
    private var requestCount = 0
    private var head = 0
    /// Whether some thread owns the queue (diffing or performing); others only append.
    var running = false

    /// Number of requests waiting. - Complexity: O(1).
    var count: Int { requestCount - head }

    /// - Complexity: O(1) amortized.
    mutating func append(_ request: Request) {
        requests.append(request)
        requestCount += 1
        assert(requestCount == requests.count, "ApplyQueue: its count drifted from its requests")
    }

    /// Clears `running` and returns true when no request waits; otherwise changes nothing and
    /// returns false (the caller then takes them with ``next(coalescing:)``).
    /// - Complexity: O(1).
    @inline(__always)
    mutating func stopIfIdle() -> Bool {
        guard head >= requestCount else { return false }
        running = false
        return true
    }

    /// The next request, or every waiting one when coalescing (the caller merges them outside
    /// the lock with ``ApplyRequest/coalescing(_:)``); empty after clearing `running`.
    /// - Complexity: O(1) amortized; O(k) for k requests taken.
    mutating func next(coalescing: Bool) -> ArraySlice<Request> {
        assert(requestCount == requests.count, "ApplyQueue: its count drifted from its requests")
        guard head < requests.count else {
            running = false
            return []
        }
        let end = coalescing ? requests.count : head + 1
        let taken = requests[head..<end]
        head = end
        if head == requests.count {
            requests.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > requests.count {
            requests.removeFirst(head)
            head = 0
        }
        requestCount = requests.count
        return taken
    }
}
