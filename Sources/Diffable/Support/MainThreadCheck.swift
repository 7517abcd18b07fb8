import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the calling thread is the process's main thread, cheaply enough to ask on every
/// query: ``ViewExecutor/main`` asks it each time a data source's query checks whether it runs
/// on the view executor. On Linux Foundation's `Thread.isMainThread` makes two system calls
/// (the thread's id against the process's: about 370 ns a query in `diffable bench`), so each
/// thread asks it once and keeps the answer in a thread-specific slot (a thread never changes
/// whether it is the main one, and a new thread's slot starts empty, so a thread that reuses
/// an exited one's identity asks again). Darwin answers from the thread itself.
///
/// Made once, by ``ViewExecutor/main``, whose check holds it: read from the closure's context,
/// not from a global (a global's lazy initialization is checked on every read).
final class MainThreadCheck: Sendable {
    #if canImport(Darwin)
        /// - Complexity: O(1).
        init() {}

        /// - Complexity: O(1).
        var isCurrent: Bool { pthread_main_np() != 0 }
    #else
        /// The thread-specific slot: empty until the thread first asks, then 1 on the main
        /// thread and 2 on any other.
        private let memo: pthread_key_t

        /// - Complexity: O(1).
        init() {
            var key = pthread_key_t()
            let status = pthread_key_create(&key, nil)
            precondition(status == 0, "Diffable: pthread_key_create failed (\(status))")
            memo = key
        }

        /// - Complexity: O(1) (Foundation's check once per thread).
        @inline(__always)
        var isCurrent: Bool {
            if let known = pthread_getspecific(memo) { return Int(bitPattern: known) == 1 }
            let main = Thread.isMainThread
            pthread_setspecific(memo, UnsafeRawPointer(bitPattern: main ? 1 : 2))
            return main
        }
    #endif
}
