extension DiffableDiagnostics {
    /// Reports a programming error as an event, then traps with the same message (the data
    /// source's errors where Apple raises an exception).
    static func fail(_ kind: Event.Kind, in operation: String, _ message: String) -> Never {
        report(.init(kind: kind, operation: operation, identifiers: [], message: message))
        fatalError("Diffable: \(operation): \(message)")
    }

    /// Reports the identifiers of `snapshot` that break `Hashable`'s contract (see
    /// ``SnapshotError/inconsistentHashing(sections:items:)``), without trapping: the diff
    /// matches by the hash values identifiers were stored under, so the view stays consistent
    /// with the snapshot, but the snapshot may hold one object twice.
    /// - Complexity: O(n + s) expected for identifier types keyed by their own code (`hashValue`,
    ///   `identifierKey`, or a ``KeyedByID`` value's `id`) whose stored values can change
    ///   (``KeyStability``); O(1) otherwise.
    static func reportHashMismatches<S: Hashable, I: Hashable>(in snapshot: DiffableDataSourceSnapshot<S, I>, operation: String) {
        // Only where a stored key can change: a value no one can change after it is stored
        // keeps its key unless its hash is not a function of its bytes, which
        // `init(validating:)` checks (KeyStability says which types those are).
        guard snapshot.storage.hashesNeedChecking else { return }
        let (sections, items) = snapshot.storage.hashMismatchesWhereKeysCanChange()
        guard !sections.isEmpty || !items.isEmpty else { return }
        report(
            .init(
                kind: .inconsistentHashing, operation: operation, identifiers: (sections + items).map(\.identifier),
                message: SnapshotError.inconsistentHashing(sections: sections, items: items).description))
    }
}
