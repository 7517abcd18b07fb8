#if canImport(Synchronization) && !canImport(Darwin)
    import Synchronization
#endif

/// The flat index of each displayed section's first item, as one array: what a snapshot's
/// `indexOfItem` reads while the snapshot is not being changed, instead of walking the prefix
/// sums of its section sizes (``FenwickTree``, O(log s) dependent steps per lookup).
///
/// Reads fill it, and a snapshot's storage is shared by its copies across threads, so the
/// array is published atomically: a reader that finds none builds one and installs it with a
/// compare-and-exchange (a reader that loses frees its own and reads the winner's, which
/// holds the same sums). Only the storage's owner changes the storage, and only while no
/// copy shares it, so ``invalidate()`` (called on every change of the section sizes) may
/// free the array without a reader holding it.
///
/// Building costs O(s), so a reader builds only after `s / 8` lookups since the last change
/// have walked the tree (counted with relaxed atomics: a lost count only delays the build):
/// a caller alternating one change and one lookup keeps O(log s) per lookup, and a run of
/// lookups without changes pays O(1) per lookup once the array is there.
///
/// Where the `Synchronization` module needs an OS newer than the package's minimum (Apple
/// platforms), the cache is off and every lookup walks the tree.
struct SectionStartsCache: ~Copyable {
    #if canImport(Synchronization) && !canImport(Darwin)
        /// The published starts (indexed as the owner filled them), or nil.
        private let published = Atomic<UnsafeMutablePointer<Int>?>(nil)
        /// Lookups that walked the tree since the last change.
        private let misses = Atomic<Int>(0)

        /// - Complexity: O(1).
        init() {}

        deinit { published.load(ordering: .relaxed)?.deallocate() }

        /// The published starts, or nil: valid until the owner's next change.
        /// - Complexity: O(1).
        @inline(__always)
        var starts: UnsafePointer<Int>? { published.load(ordering: .acquiring).map { UnsafePointer($0) } }

        /// Counts a lookup that found no published starts; true when it is time to build them
        /// (``publish(count:fill:)``).
        /// - Complexity: O(1).
        func shouldBuild(sectionCount: Int) -> Bool {
            let count = misses.load(ordering: .relaxed) &+ 1
            misses.store(count, ordering: .relaxed)
            return count > sectionCount / 8
        }

        /// Builds `count` starts, zeroed then written by `fill`, and publishes them unless
        /// another reader published first; returns the published ones.
        /// - Complexity: O(count) plus `fill`.
        func publish(count: Int, fill: (UnsafeMutablePointer<Int>) -> Void) -> UnsafePointer<Int> {
            let built = UnsafeMutablePointer<Int>.allocate(capacity: Swift.max(count, 1))
            built.initialize(repeating: 0, count: Swift.max(count, 1))
            fill(built)
            let (exchanged, winner) = published.compareExchange(
                expected: nil, desired: built, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
            if exchanged { return UnsafePointer(built) }
            built.deallocate()
            return UnsafePointer(winner!)
        }

        /// Drops the published starts: the section sizes, their order or their slots changed.
        /// Called by the owner only (no reader shares the storage then).
        /// - Complexity: O(1).
        @inline(__always)
        func invalidate() {
            // Plain loads first: a change among many pays no atomic read-modify-write.
            if published.load(ordering: .relaxed) != nil { published.exchange(nil, ordering: .acquiringAndReleasing)?.deallocate() }
            if misses.load(ordering: .relaxed) != 0 { misses.store(0, ordering: .relaxed) }
        }
    #else
        init() {}
        var starts: UnsafePointer<Int>? { nil }
        func shouldBuild(sectionCount: Int) -> Bool { false }
        func publish(count: Int, fill: (UnsafeMutablePointer<Int>) -> Void) -> UnsafePointer<Int> {
            preconditionFailure("Diffable: section starts are not cached on this platform")
        }
        func invalidate() {}
    #endif
}
