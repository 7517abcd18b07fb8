import Foundation

extension DiffableDataSource {
    /// Changes what the data source shows in one step that no other apply can split: `body`
    /// receives the newest snapshot — the one the data source shows once every apply, outline
    /// apply and update made before this call is performed, even those still queued — and
    /// what `body` leaves in it is applied in call order, as
    /// ``apply(_:animatingDifferences:completion:)`` applies a snapshot. Returns when the
    /// view finished the update.
    ///
    /// Read-modify-write through ``snapshot()`` and `apply` loses changes when several tasks
    /// or threads do it at once: each reads the committed snapshot, which misses the applies
    /// still queued, so the last apply erases the others' changes. `update` has no such gap:
    ///
    /// ```swift
    /// await dataSource.update { $0.appendItems([message], toSection: .inbox) }
    /// ```
    ///
    /// `body` runs once, when the update's turn comes (on the calling thread, a background
    /// worker or the view executor); keep it short and free of calls into the data source
    /// (the applies it would make would come after this one). When it throws, nothing of the
    /// update is shown and the error is rethrown here. Outline sections stay as a flat apply
    /// keeps them (see ``apply(_:to:animatingDifferences:completion:)``). Apple has no such call.
    ///
    /// - Parameters:
    ///   - animatingDifferences: as for `apply`.
    ///   - body: changes the newest snapshot in place (its pending reload and reconfigure
    ///     requests are applied with it).
    /// - Complexity: `body`'s, plus as ``apply(_:animatingDifferences:completion:)``.
    public func update<Failure: Error>(
        animatingDifferences: Bool = true, _ body: @escaping @Sendable (inout Snapshot) throws(Failure) -> Void
    ) async throws(Failure) {
        let failure = UpdateFailure<Failure>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let update = SnapshotUpdate<SectionIdentifierType, ItemIdentifierType> { snapshot in
                do throws(Failure) {
                    try body(&snapshot)
                    return true
                } catch {
                    failure.error = error
                    return false
                }
            }
            submit(
                .update(update), kind: .diff(animating: animatingDifferences), completion: { continuation.resume() },
                operation: "update(animatingDifferences:_:)")
        }
        if let error = failure.error { throw error }
    }
}

/// The error an update's closure threw, handed from where it ran to the awaiting caller.
private final class UpdateFailure<Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: Failure?
    var error: Failure? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
