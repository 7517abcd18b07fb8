import Foundation

/// What one request shows once it meets the state it is performed on: its snapshot (or the
/// committed one) with its outline sections laid in, and the outlines that survive.
struct ApplyTarget<S: Hashable & Sendable, I: Hashable & Sendable> {
    typealias Snapshot = DiffableDataSourceSnapshot<S, I>
    typealias Outline = DiffableDataSourceSectionSnapshot<I>

    /// The rows to show, with the request's pending reload and reconfigure requests.
    var snapshot: Snapshot
    /// The outline sections after the request.
    var outlines: [S: Outline]
    /// The matcher's work for `snapshot`, done on the calling thread (nil when outline edits
    /// changed the snapshot since).
    var prepared: (any Sendable)?
    /// The API call, for error messages.
    var operation: String

    /// `request` performed on `base`. A flat snapshot keeps the outlines of sections whose rows
    /// it leaves as they were (see ``CommittedState/outlines(keptBy:)``); each outline edit
    /// replaces its section's rows by the outline's visible items, appending the section when
    /// it is not shown. Traps (after a diagnostic) when an outline holds an identifier shown
    /// in another section or hidden in another outline.
    /// - Complexity: O(1) for a flat snapshot when `base` has no outlines; O(size of each outline
    ///   section) to keep outlines; per outline edit, O(n + s) to copy the committed snapshot
    ///   plus O(k · outlines with hidden items) expected, k the edit's items.
    init(_ request: ApplyRequest<S, I>, on base: CommittedState<S, I>) {
        operation = request.operation
        if let snapshot = request.snapshot {
            self.snapshot = snapshot
            outlines = base.outlines.isEmpty ? [:] : base.outlines(keptBy: snapshot)
        } else {
            snapshot = base.snapshot
            outlines = base.outlines
        }
        prepared = request.outlineEdits.isEmpty ? request.prepared : nil
        for edit in request.outlineEdits { show(edit) }
    }

    /// Lays `edit.outline`'s visible items into its section and keeps the outline.
    private mutating func show(_ edit: OutlineEdit<S, I>) {
        let section = edit.section, outline = edit.outline
        let withHiddenItems = outlines.filter { $0.key != section && $0.value.storage.count > snapshot.numberOfItems(inSection: $0.key) }
        // Rows of other sections, or hidden items of other outlines, that an item could repeat
        // (none when the outline is all the data source shows: 10^7 lookups saved).
        let shownElsewhere = snapshot.numberOfItems - (snapshot.contains(section: section) ? snapshot.numberOfItems(inSection: section) : 0)
        if shownElsewhere > 0 || !withHiddenItems.isEmpty {
            for item in outline.storage.ids {
                if let shown = snapshot.sectionIdentifier(containingItem: item), shown != section {
                    repeated(item, in: section, alreadyIn: shown, hidden: false)
                }
                if let hidden = withHiddenItems.first(where: { $0.value.contains(item) }) {
                    repeated(item, in: section, alreadyIn: hidden.key, hidden: true)
                }
            }
        }
        if snapshot.contains(section: section) {
            replaceItems(of: section, with: outline.visibleItems)
        } else {
            snapshot.appendSections([section])
            snapshot.appendItems(outline.visibleItems, toSection: section)
        }
        outlines[section] = outline
    }

    /// Makes `items` the rows of `section`. When the section holds most of the rows and no
    /// refresh is pending, the snapshot is rebuilt rather than copied and emptied: the copy
    /// would hold every row a second time only to delete it (~0.5 GB at 10^7 rows), and
    /// copying rows about to be deleted saves no time over inserting the ones kept.
    /// - Complexity: O(n + s) expected.
    private mutating func replaceItems(of section: S, with items: [I]) {
        let rebuild =
            2 * snapshot.numberOfItems(inSection: section) >= snapshot.numberOfItems && snapshot.reloadedItemIdentifiers.isEmpty
            && snapshot.reconfiguredItemIdentifiers.isEmpty && snapshot.reloadedSectionIdentifiers.isEmpty
        guard rebuild else {
            snapshot.deleteItems(snapshot.itemIdentifiers(inSection: section))
            snapshot.appendItems(items, toSection: section)
            return
        }
        let sections = snapshot.sectionIdentifiers
        var rebuilt = Snapshot()
        rebuilt.appendSections(sections)
        for shown in sections {
            rebuilt.appendItems(shown == section ? items : snapshot.itemIdentifiers(inSection: shown), toSection: shown)
        }
        snapshot = rebuilt
    }

    private func repeated(_ item: I, in section: S, alreadyIn other: S, hidden: Bool) -> Never {
        // Outline edits come from apply(_:to:…) alone, even inside a coalesced request.
        DiffableDiagnostics.fail(
            .duplicateIdentifiers, in: "apply(_:to:animatingDifferences:completion:)",
            "item \(String(reflecting: item)) of the section snapshot for section \(String(reflecting: section)) is already in section "
                + "\(String(reflecting: other))\(hidden ? " (under a collapsed parent)" : ""); an identifier may appear only once "
                + "in a data source")
    }
}

extension CommittedState {
    /// The outline of `section`: its section snapshot, or its rows as root items when the
    /// section is flat (empty when it is not shown), as Apple's `snapshot(for:)` answers.
    /// - Complexity: O(1) for an outline section; O(section's items) for a flat one.
    func sectionSnapshot(for section: S) -> DiffableDataSourceSectionSnapshot<I> {
        if let outline = outlines[section] { return outline }
        var roots = DiffableDataSourceSectionSnapshot<I>()
        if snapshot.contains(section: section) { roots.append(snapshot.itemIdentifiers(inSection: section)) }
        return roots
    }

    /// The outlines a flat apply of `new` keeps: those whose section shows the same rows in
    /// `new` and whose hidden items `new` shows nowhere else. Any other outline section
    /// becomes flat (its rows, as root items).
    /// - Complexity: O(size of each outline section) expected.
    func outlines(keptBy new: DiffableDataSourceSnapshot<S, I>) -> [S: DiffableDataSourceSectionSnapshot<I>] {
        outlines.filter { section, outline in
            guard new.contains(section: section), new.itemIdentifiers(inSection: section) == snapshot.itemIdentifiers(inSection: section)
            else { return false }
            guard outline.storage.count > new.numberOfItems(inSection: section) else { return true }
            return outline.storage.ids.allSatisfy { item in new.sectionIdentifier(containingItem: item).map { $0 == section } ?? true }
        }
    }
}
