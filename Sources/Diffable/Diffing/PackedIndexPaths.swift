import Foundation

/// The item index paths of one diff, packed in one array, shared by the batches that
/// came out of it. A batch's item lists are ranges of it; each list becomes Foundation
/// `IndexPath`s only when someone reads it, once (10^6 moves otherwise cost 48 MB of
/// `IndexPath` pairs that a caller counting them never looks at).
///
/// Immutable except for the cache of materialized lists, which a lock guards: batches
/// are `Sendable` and may be read from several threads at once. Short lists are not cached
/// (``madeOnEveryRead``).
final class PackedIndexPaths: @unchecked Sendable {
    /// The paths: a Swift array, or the block the diff context wrote them into.
    let paths: ResultArray<PackedIndexPath>
    /// Lists already made, by the start of their range (moves by the start of their sources).
    /// A diff has at most a dozen lists: a short array searched in order costs less than a
    /// dictionary's hashing and growth, which weighed on reading a small diff's lists.
    private struct Materialized {
        var paths: [(start: Int, list: [IndexPath])] = []
        var moves: [(start: Int, list: [BatchUpdate.ItemMove])] = []

        /// Caches a list of paths; the first one stored makes room for every path list two
        /// batches can have (one allocation, not one per growth).
        mutating func store(_ list: [IndexPath], at start: Int) {
            if paths.isEmpty { paths.reserveCapacity(10) }
            paths.append((start, list))
        }

        func paths(at start: Int) -> [IndexPath]? {
            for entry in paths where entry.start == start { return entry.list }
            return nil
        }

        func moves(at start: Int) -> [BatchUpdate.ItemMove]? {
            for entry in moves where entry.start == start { return entry.list }
            return nil
        }
    }
    /// Guards ``cache``. The mutex and the cache are this object's own fields, not a `Locked`
    /// value: every diff makes one of these, and each wrapper object would be one allocation
    /// and one release more.
    private let mutex: Lock.Mutex
    private var cache = Materialized()
    /// Whether any list can be long enough to be cached: no list is longer than all the paths.
    private var caches: Bool { paths.count > Self.madeOnEveryRead }

    /// Runs `body` on the cache, holding the lock. - Complexity: O(1) plus `body`.
    private func withCache<R>(_ body: (inout Materialized) -> R) -> R {
        mutex.withLock { body(&cache) }
    }

    /// - Complexity: O(1).
    init(_ paths: ResultArray<PackedIndexPath>) {
        self.paths = paths
        // A diff of at most ``madeOnEveryRead`` paths (every small change) never caches a list:
        // no mutex is made for it (an allocation and two pthread calls a diff).
        mutex = Lock.Mutex(needed: paths.count > Self.madeOnEveryRead)
    }

    /// - Complexity: O(1).
    convenience init(_ paths: [PackedIndexPath]) { self.init(ResultArray(paths)) }

    /// Whether any list was made into `IndexPath`s yet (counting one must not).
    /// - Complexity: O(1).
    var hasMaterializedLists: Bool { caches && withCache { !$0.paths.isEmpty || !$0.moves.isEmpty } }

    /// The paths in `range` as `IndexPath`s, made on the first request and kept (a short
    /// list is made on every request, see ``madeOnEveryRead``).
    /// - Complexity: O(range.count) the first time, O(1) after (O(range.count) ≤ O(32)
    ///   every time for a short list).
    func indexPaths(_ range: Range<Int>) -> [IndexPath] {
        // An empty list is never cached: most of a batch's lists are empty, and each read
        // would otherwise take the lock.
        if range.isEmpty { return [] }
        return materialize(
            range.count, find: { $0.paths(at: range.lowerBound) }, store: { $0.store($1, at: range.lowerBound) },
            make: { paths.withUnsafeBufferPointer { PackedIndexPath.indexPaths(UnsafeBufferPointer(rebasing: $0[range])) } })
    }

    /// Moves from the paths at `from` to those at `to` (equal lengths), made once (a short
    /// list on every request, see ``madeOnEveryRead``).
    /// - Complexity: O(count) the first time, O(1) after (O(count) ≤ O(32) every time for a
    ///   short list).
    func moves(from: Range<Int>, to: Range<Int>) -> [BatchUpdate.ItemMove] {
        if from.isEmpty { return [] }
        return materialize(
            from.count, find: { $0.moves(at: from.lowerBound) }, store: { $0.moves.append((from.lowerBound, $1)) },
            make: {
                paths.withUnsafeBufferPointer {
                    Self.moves(from: UnsafeBufferPointer(rebasing: $0[from]), to: UnsafeBufferPointer(rebasing: $0[to]))
                }
            })
    }

    /// Moves from each path of `from` to the path at the same offset of `to` (equal
    /// lengths), built in place as `PackedIndexPath.indexPaths(_:)` builds its paths (here,
    /// beside ``BatchUpdate``, which the engine's layer may not name).
    /// - Complexity: O(from.count).
    private static func moves(from: UnsafeBufferPointer<PackedIndexPath>, to: UnsafeBufferPointer<PackedIndexPath>) -> [BatchUpdate
        .ItemMove]
    {
        var made: [BatchUpdate.ItemMove] = []
        made.reserveCapacity(from.count)
        for offset in from.indices {
            made.append(
                BatchUpdate.ItemMove(from: IndexPath(index: Int(from[offset].section)), to: IndexPath(index: Int(to[offset].section))))
        }
        made.withUnsafeMutableBufferPointer { moves in
            for offset in moves.indices {
                moves[offset].from.append(Int(from[offset].item))
                moves[offset].to.append(Int(to[offset].item))
            }
        }
        return made
    }

    /// Lists up to this many paths are made on every read and never cached: making one (an
    /// array and its paths, about 200 + 50 instructions a path) costs about what the cache
    /// costs to consult and fill (the lock, a dynamically checked access, the entry's array
    /// and its release with the diff), and an app reads each list of a small diff once. At
    /// 10^2 items a change's lists hold a few paths each; caching them was a third of what
    /// reading every list added to a build + diff.
    static let madeOnEveryRead = 32

    /// Lists up to this many paths are made holding the lock (one acquisition per list);
    /// longer ones outside it, so that readers of other lists do not wait for them.
    private static let madeUnderLock = 4096

    /// The list `make` makes when it is short (``madeOnEveryRead``); otherwise the list
    /// `find` gives from the cache, else the one `make` makes, stored by `store` (the first
    /// one stored wins when two threads make the same list).
    /// - Complexity: O(1) plus `make` the first time; `make` on every read of a short list.
    private func materialize<List>(
        _ count: Int, find: (Materialized) -> List?, store: (inout Materialized, List) -> Void, make: () -> List
    ) -> List {
        if count <= Self.madeOnEveryRead { return make() }
        if count <= Self.madeUnderLock {
            return withCache { cache in
                if let cached = find(cache) { return cached }
                let made = make()
                store(&cache, made)
                return made
            }
        }
        if let cached = withCache({ find($0) }) { return cached }
        let made = make()
        return withCache { cache in
            if let cached = find(cache) { return cached }
            store(&cache, made)
            return made
        }
    }
}

/// One item list of a ``BatchUpdate``: `IndexPath`s as given, or a range of a diff's packed paths.
enum ItemPathList: Sendable {
    case indexPaths([IndexPath])
    case packed(PackedIndexPaths, Range<Int>)

    /// - Complexity: O(1).
    var count: Int {
        switch self {
        case .indexPaths(let paths): paths.count
        case .packed(_, let range): range.count
        }
    }

    /// - Complexity: O(count) on the first read of a packed list (every read of a short one),
    ///   O(1) otherwise.
    var indexPaths: [IndexPath] {
        switch self {
        case .indexPaths(let paths): paths
        case .packed(let store, let range): store.indexPaths(range)
        }
    }

    /// Equal lists of paths; packed lists compare without materializing.
    /// - Complexity: O(count).
    static func same(_ a: ItemPathList, _ b: ItemPathList) -> Bool {
        guard a.count == b.count else { return false }
        if case .packed(let storeA, let rangeA) = a, case .packed(let storeB, let rangeB) = b {
            return (storeA === storeB && rangeA == rangeB) || storeA.paths[rangeA].elementsEqual(storeB.paths[rangeB])
        }
        return a.indexPaths == b.indexPaths
    }
}

/// The item moves of a ``BatchUpdate``: as given, or two equal-length ranges of a diff's packed paths.
enum ItemMoveList: Sendable {
    case moves([BatchUpdate.ItemMove])
    case packed(PackedIndexPaths, from: Range<Int>, to: Range<Int>)

    /// - Complexity: O(1).
    var count: Int {
        switch self {
        case .moves(let moves): moves.count
        case .packed(_, let from, _): from.count
        }
    }

    /// - Complexity: O(count) on the first read of a packed list (every read of a short one),
    ///   O(1) otherwise.
    var moves: [BatchUpdate.ItemMove] {
        switch self {
        case .moves(let moves): moves
        case .packed(let store, let from, let to): store.moves(from: from, to: to)
        }
    }

    /// Equal lists of moves; packed lists compare without materializing.
    /// - Complexity: O(count).
    static func same(_ a: ItemMoveList, _ b: ItemMoveList) -> Bool {
        guard a.count == b.count else { return false }
        if case .packed(let storeA, let fromA, let toA) = a, case .packed(let storeB, let fromB, let toB) = b {
            if storeA === storeB && fromA == fromB && toA == toB { return true }
            return storeA.paths[fromA].elementsEqual(storeB.paths[fromB]) && storeA.paths[toA].elementsEqual(storeB.paths[toB])
        }
        return a.moves == b.moves
    }
}
