/// Reusable diff contexts shared by all threads: a diff borrows one, so its
/// scratch memory is warm for the next diff, and never shares it while in use.
/// At most four idle contexts are kept, and none that grew past `retainedByteLimit`
/// (one 10M-item diff must not pin a gigabyte for the life of the process).
final class DiffContextPool: @unchecked Sendable {
    static let shared = DiffContextPool()
    static let retainedByteLimit = 64 << 20
    private let idle = Locked<[DiffContext]>([])

    /// Runs `body` with a context no other thread uses meanwhile.
    /// - Complexity: O(1) plus `body`.
    func withContext<R>(_ body: (DiffContext) throws -> R) rethrows -> R {
        let context = idle.withLock { $0.popLast() } ?? DiffContext()
        defer {
            if context.byteCount <= Self.retainedByteLimit { idle.withLock { if $0.count < 4 { $0.append(context) } } }
        }
        return try body(context)
    }
}
