/// Reusable diff contexts shared by all threads: a diff borrows one, so its
/// scratch memory is warm for the next diff, and never shares it while in use.
///
/// The most recently used contexts are kept, at most `retainedContextLimit` (4) and
/// at most `retainedByteLimit` bytes together, so a thread diffing 10^6-item snapshots again
/// and again (a context of ~70 MB) gets its warm context back every time, while one
/// 10^7-item diff does not pin a gigabyte for the life of the process. A context that
/// would not fit is freed when its diff ends; since it is not kept, a snapshot diff that
/// grows it past `retainedByteLimit` hands its item maps and index paths over to the
/// difference instead of copying them (``DiffContext/handOverAbove``).
final class DiffContextPool: @unchecked Sendable {
    static let shared = DiffContextPool()
    /// Bytes the idle contexts may hold together.
    let retainedByteLimit: Int
    /// How many idle contexts are kept at most.
    let retainedContextLimit: Int
    /// Idle contexts, least recently used first, with their sizes when they went idle.
    private let idle = Locked<[(context: DiffContext, bytes: Int)]>([])

    /// The default keeps two 10^6-item snapshot diffs' worth of scratch memory.
    /// - Complexity: O(1).
    init(retainedByteLimit: Int = 160 << 20, retainedContextLimit: Int = 4) {
        self.retainedByteLimit = retainedByteLimit
        self.retainedContextLimit = retainedContextLimit
    }

    /// Contexts waiting for a diff.
    /// - Complexity: O(1).
    var idleCount: Int { idle.withLock { $0.count } }

    /// Runs `body` with a context no other thread uses meanwhile.
    /// - Complexity: O(1) plus `body`.
    func withContext<R>(_ body: (DiffContext) throws -> R) rethrows -> R {
        let context = borrow()
        defer { giveBack(context) }
        return try body(context)
    }

    /// A context no other thread uses until it is given back (``giveBack(_:)``): for code not
    /// specialized for its result's type, where ``withContext(_:)`` would look up the result
    /// type's metadata at run time (about 330 instructions).
    /// - Complexity: O(1).
    func borrow() -> DiffContext { idle.withLock { $0.popLast()?.context } ?? makeContext() }

    /// A new context; one that grows past what the pool keeps hands its results over to the
    /// difference, since it is freed when its diff ends anyway.
    /// - Complexity: O(1).
    private func makeContext() -> DiffContext {
        let context = DiffContext()
        context.handOverAbove = retainedByteLimit
        return context
    }

    /// Returns a context from ``borrow()`` to the pool, dropping the least recently used ones
    /// beyond the limits; the caller must not use it afterwards.
    /// - Complexity: O(retained contexts).
    func giveBack(_ context: DiffContext) {
        let bytes = context.byteCount
        guard bytes <= retainedByteLimit else { return }
        // Contexts dropped here are freed outside the lock, when `dropped` goes out of scope.
        var dropped: [DiffContext] = []
        idle.withLock { idle in
            idle.append((context, bytes))
            var total = idle.reduce(0) { $0 + $1.bytes }
            while idle.count > retainedContextLimit || total > retainedByteLimit {
                let oldest = idle.removeFirst()
                total -= oldest.bytes
                dropped.append(oldest.context)
            }
        }
        _ = dropped
    }
}
