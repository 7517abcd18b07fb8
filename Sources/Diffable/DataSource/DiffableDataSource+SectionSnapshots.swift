import Foundation

extension DiffableDataSource {
    /// An outline of items with expand/collapse state, shown in one section.
    public typealias SectionSnapshot = DiffableDataSourceSectionSnapshot<ItemIdentifierType>

    /// Shows `snapshot` in `section`: the section's rows become the outline's visible items
    /// (``DiffableDataSourceSectionSnapshot/visibleItems``) and the other sections stay as
    /// they are when the apply is performed. The section is appended when it is not shown.
    /// The view gets one batch that changes that section only (the first apply to a view that
    /// never loaded is a `reloadData()`); ordered with the other applies, and callable from
    /// any thread, as ``apply(_:animatingDifferences:completion:)``. `completion` has no default:
    /// without it the call is the `async` form, ``apply(_:to:animatingDifferences:)``.
    ///
    /// ``snapshot()`` then holds the visible items; ``snapshot(for:)`` returns the outline.
    /// A later flat apply keeps the outline while it leaves the section's rows unchanged and
    /// shows none of its hidden items elsewhere; otherwise the section becomes flat.
    ///
    /// Traps (after a ``DiffableDiagnostics`` event) when an item of `snapshot` is already
    /// shown in another section or hidden in another section's outline: identifiers are
    /// unique across a data source, as in Apple's.
    /// - Complexity: O(n + s) to copy the committed snapshot, plus O(k) expected for the
    ///   k items of `snapshot` (times the outline sections with hidden items), plus the diff's
    ///   O(n + s) expected and O(m log m) for the LIS over the m rows kept.
    public func apply(
        _ snapshot: SectionSnapshot, to section: SectionIdentifierType, animatingDifferences: Bool = true,
        completion: (@Sendable () -> Void)?
    ) {
        submit(
            .outline(OutlineEdit(section: section, outline: snapshot)), kind: .diff(animating: animatingDifferences),
            completion: completion, operation: "apply(_:to:animatingDifferences:completion:)")
    }

    /// ``apply(_:to:animatingDifferences:completion:)``, returning when the view finished the update
    /// (the only form without a `completion:` argument, so an `await` always reaches it).
    /// - Complexity: as ``apply(_:to:animatingDifferences:completion:)``.
    public func apply(_ snapshot: SectionSnapshot, to section: SectionIdentifierType, animatingDifferences: Bool = true) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            apply(snapshot, to: section, animatingDifferences: animatingDifferences) { continuation.resume() }
        }
    }

    /// The outline shown in `section`: the section snapshot last applied to it, or, for a
    /// section filled by a flat snapshot, its items as root items (Apple's answer); empty
    /// when the section is not shown. Reflects what the view last committed, including
    /// expansions and collapses made through the view.
    ///
    /// May be called from any thread.
    /// - Complexity: O(1) for an outline section; O(section's items) for a flat one.
    public func snapshot(for section: SectionIdentifierType) -> SectionSnapshot {
        lock.withLock { published }.sectionSnapshot(for: section)
    }
}
