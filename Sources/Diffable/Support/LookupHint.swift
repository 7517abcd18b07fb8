#if canImport(Synchronization) && !canImport(Darwin)
    import Synchronization
#endif

/// Where the last single-item lookup of a storage found its item: a guess for the next
/// one, which is often the next position (a list configuring its rows in order asks
/// about each row after the one before).
///
/// Any value is safe: a caller checks the guessed position's key and identifier before
/// trusting it, so concurrent readers of a shared snapshot may overwrite each other's
/// hints freely. The value is a relaxed atomic (a plain load and store on x86-64 and
/// arm64): no data race, no ordering cost. Where the `Synchronization` module needs an OS
/// newer than the package's minimum (Apple platforms), the hint is off and every lookup
/// hashes.
struct LookupHint: ~Copyable {
    #if canImport(Synchronization) && !canImport(Darwin)
        private let position = Atomic<Int>(-1)

        /// - Complexity: O(1).
        @inline(__always)
        var guess: Int { position.load(ordering: .relaxed) }

        /// - Complexity: O(1).
        @inline(__always)
        func remember(_ found: Int) { position.store(found, ordering: .relaxed) }
    #else
        var guess: Int { -1 }
        func remember(_ found: Int) {}
    #endif
}
