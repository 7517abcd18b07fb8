#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The package's one lock: a `pthread_mutex_t` in memory of its own, so its address
/// never moves (passing `&storedProperty` to pthread is not guaranteed stable by the
/// language), and ThreadSanitizer sees it (it misses futex-based locks on Linux).
final class Lock: @unchecked Sendable {
    private let mutex = Mutex()

    /// - Complexity: O(1).
    init() {}

    /// Runs `body` holding the lock. - Complexity: O(1) plus `body`.
    // Inlined: called from code not specialized for `R`, a call would look up `R`'s metadata
    // (a query by item reading the data source's snapshot paid that on every call).
    @inline(__always)
    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try mutex.withLock(body)
    }

    /// ``Lock``'s mutex as a value its owner stores inline: for an object made on every diff,
    /// where a `Lock` would be one more allocation and release.
    struct Mutex: ~Copyable, @unchecked Sendable {
        /// nil for a mutex its owner knows it will never take (see `init(needed:)`).
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>?

        /// A mutex; with `needed` false, none at all (no allocation, no pthread calls), for an
        /// owner that knows up front it will never lock (a small diff's path lists, which are
        /// never cached). Taking such a mutex traps.
        /// - Complexity: O(1).
        init(needed: Bool = true) {
            guard needed else {
                mutex = nil
                return
            }
            let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "Diffable: pthread_mutex_init failed (\(status))")
            self.mutex = mutex
        }

        deinit {
            guard let mutex else { return }
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
            mutex.deallocate()
        }

        /// Runs `body` holding the mutex. - Complexity: O(1) plus `body`.
        @inline(__always)
        func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
            guard let mutex else { preconditionFailure("Diffable: a mutex made unneeded was taken") }
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }
    }
}

/// A value guarded by a ``Lock``: the pattern every shared mutable state here uses.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    /// Unchecked: the lock already makes every access exclusive, and the runtime's check of
    /// each one (about 80 instructions) ran on every diff's borrow of a context.
    @exclusivity(unchecked) private var value: Value

    /// - Complexity: O(1).
    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. - Complexity: O(1) plus `body`.
    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(&value) }
    }
}
