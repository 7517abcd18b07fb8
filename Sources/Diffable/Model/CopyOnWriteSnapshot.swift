/// The storage class behind a snapshot value: copied before a shared one is changed, and
/// checked after every mutation in checked builds.
protocol SnapshotStorageClass: AnyObject {
    /// A copy to mutate (how much it copies at once is the storage's choice).
    func copy() -> Self
    #if DIFFABLE_INTERNAL_CHECKS
        /// Traps when any cross-reference of the storage is broken.
        func checkInvariants()
    #endif
}

/// A snapshot value with copy-on-write storage: the mutation helpers both public snapshot
/// types share (the flat snapshot and the outline of one section).
protocol CopyOnWriteSnapshot {
    associatedtype Storage: SnapshotStorageClass
    var storage: Storage { get set }
}

extension CopyOnWriteSnapshot {
    /// Gives this value its own storage before a mutation (copy-on-write).
    /// - Complexity: O(1) when the storage is not shared, else the storage's ``SnapshotStorageClass/copy()``.
    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Checks the storage after a mutation, in checked builds only.
    @inline(__always)
    func checkInvariants() {
        #if DIFFABLE_INTERNAL_CHECKS
            storage.checkInvariants()
        #endif
    }

    /// Runs a throwing mutation and traps with its error's text (Apple raises an exception there).
    mutating func trapping(_ body: (inout Self) throws -> Void) {
        do {
            try body(&self)
        } catch {
            fatalError("Diffable: \(error)")
        }
    }
}
