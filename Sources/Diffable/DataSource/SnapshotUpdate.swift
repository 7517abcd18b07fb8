import Foundation

/// One `update(animatingDifferences:_:)`: the caller's closure, run once on the state the
/// update meets when its turn comes, and the snapshot it made.
///
/// The closure runs where the request is planned (the calling thread, a worker or the
/// executor), after every earlier apply and before any later one, so it sees their result.
final class SnapshotUpdate<S: Hashable & Sendable, I: Hashable & Sendable>: @unchecked Sendable {
    typealias Snapshot = DiffableDataSourceSnapshot<S, I>

    /// Changes the snapshot in place; false when it threw (the change is then dropped).
    private let body: @Sendable (inout Snapshot) -> Bool
    private let lock = Lock()
    private var made: Snapshot?

    /// - Complexity: O(1).
    init(_ body: @escaping @Sendable (inout Snapshot) -> Bool) { self.body = body }

    /// What the closure makes of `current` (`current` unchanged when it threw). Made on the
    /// first call only: a plan redone after a user's reorder shows the same result, as it
    /// shows the same snapshot for an `apply`.
    /// - Complexity: O(1) after the first call; the closure's, on it.
    func snapshot(after current: Snapshot) -> Snapshot {
        lock.withLock {
            if let made { return made }
            var next = current
            let result = body(&next) ? next : current
            made = result
            return result
        }
    }
}
