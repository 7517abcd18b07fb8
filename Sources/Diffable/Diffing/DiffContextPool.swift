import Foundation

/// Reusable diff contexts shared by all threads: a diff borrows one, so its
/// scratch memory is warm for the next diff, and never shares it while in use.
final class DiffContextPool: @unchecked Sendable {
    static let shared = DiffContextPool()
    private let lock = NSLock()
    private var idle: [DiffContext] = []

    /// Runs `body` with a context no other thread uses meanwhile.
    /// - Complexity: O(1) plus `body`.
    func withContext<R>(_ body: (DiffContext) throws -> R) rethrows -> R {
        let context = lock.withLock { idle.popLast() } ?? DiffContext()
        defer { lock.withLock { if idle.count < 4 { idle.append(context) } } }
        return try body(context)
    }
}
