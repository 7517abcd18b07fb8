import Foundation

/// What one request shows once it meets the state it is performed on: its changes made in
/// turn on that state, as performing each alone would make them, and the outlines that survive.
struct ApplyTarget<S: Hashable & Sendable, I: Hashable & Sendable> {
    typealias Snapshot = DiffableDataSourceSnapshot<S, I>
    typealias Outline = DiffableDataSourceSectionSnapshot<I>

    /// The rows to show, with the request's pending reload and reconfigure requests.
    var snapshot: Snapshot
    /// The outline sections after the request.
    var outlines: [S: Outline]
    /// Whether `snapshot` is the request's last change as given (so the matcher's work done
    /// for it on the calling thread still stands for it).
    var lastChangeIsSnapshot: Bool
    /// The request's changes (for ``soleOutlineEdit``).
    private let changes: [ApplyChange<S, I>]
    /// Whether the request is one outline edit: a flag, so that the usual apply (one snapshot)
    /// is told so without reading ``soleOutlineEdit``, whose array of a generic element type
    /// looks up that type's metadata (about 330 instructions).
    let isSoleOutlineEdit: Bool
    /// Whether the request made more than one change (a coalesced run): asked before
    /// ``replacedSnapshots``, whose empty array of a generic type costs its metadata lookup. A
    /// flag for the reason ``isSoleOutlineEdit`` is one.
    let madeSeveralChanges: Bool
    /// The API call, for error messages.
    var operation: String

    /// `request` performed on `base`: each change in turn. A flat snapshot keeps the outlines
    /// of sections whose rows it leaves as they were (see ``keepOutlines(shownBy:)``); an
    /// update shows what its closure makes of the snapshot so far; each outline edit replaces
    /// its section's rows by the outline's visible items, appending the section when it is
    /// not shown. The refresh requests of snapshots a later change replaced carry over to
    /// items and sections still shown (a skipped reconfigure must not leave a stale cell).
    /// Traps (after a diagnostic) when an outline holds an identifier shown in another
    /// section or hidden in another outline.
    /// - Complexity: per snapshot or update, O(1) when no outline is shown, else O(size of
    ///   each outline section); per outline edit, O(n + s) to copy the snapshot plus
    ///   O(k · outlines with hidden items) expected, k the edit's items; O(n) expected more
    ///   when refresh requests carry over.
    @inline(__always)
    init<Prepared>(_ request: ApplyRequest<S, I, Prepared>, on base: CommittedState<S, I>) {
        // The usual request, one snapshot over a flat state, shows that snapshot as it is: the
        // committed snapshot it replaces holds no refresh requests to carry over. Only this
        // path is inlined into the apply: the general one's switch over every kind of change
        // looks up the metadata of each kind's payload on entry, used or not.
        if request.changes.count == 1, base.outlines.isEmpty, case .snapshot(let next) = request.changes[0] {
            self.init(showing: next, of: request.changes, outlines: base.outlines, operation: request.operation)
        } else {
            self.init(performingEach: request, on: base)
        }
    }

    /// `next`, the one change of `changes`, shown as it is.
    @inline(__always)
    private init(showing next: Snapshot, of changes: [ApplyChange<S, I>], outlines: [S: Outline], operation: String) {
        (self.operation, self.changes, self.outlines, snapshot) = (operation, changes, outlines, next)
        lastChangeIsSnapshot = true
        (isSoleOutlineEdit, madeSeveralChanges) = (false, false)
    }

    /// ``init(_:on:)`` for any request: each change performed in turn.
    @inline(never)
    private init<Prepared>(performingEach request: ApplyRequest<S, I, Prepared>, on base: CommittedState<S, I>) {
        operation = request.operation
        changes = request.changes
        outlines = base.outlines
        if request.changes.count == 1, case .outline = request.changes[0] { isSoleOutlineEdit = true } else { isSoleOutlineEdit = false }
        madeSeveralChanges = request.changes.count > 1
        snapshot = base.snapshot
        if case .snapshot = request.changes.last { lastChangeIsSnapshot = true } else { lastChangeIsSnapshot = false }
        var replaced: [Snapshot] = []
        for change in request.changes {
            switch change {
            case .snapshot(let next): show(next, replacing: &replaced)
            case .update(let update):
                // The closure sees what the data source would show, as it would after the
                // changes before it were each performed: no pending refresh requests.
                show(update.snapshot(after: snapshot.withoutPendingUpdates()), replacing: &replaced)
            case .outline(let edit): show(edit)
            }
        }
        carryRefreshRequests(of: replaced)
    }

    /// The snapshots the request was given whose place a later change took (a coalesced
    /// run's), each as it was given: the matcher checks in them what it checks in the
    /// snapshot it diffs. None for the usual request of one change.
    /// - Complexity: O(k) for k changes.
    var replacedSnapshots: [Snapshot] {
        changes.dropLast().compactMap { change in
            if case .snapshot(let snapshot) = change { snapshot } else { nil }
        }
    }

    /// The request's one change when it is an outline edit (its section's rows alone change).
    /// Found when asked, not stored: setting an optional of a generic type looks up its
    /// metadata at run time, in every apply.
    /// - Complexity: O(1).
    var soleOutlineEdit: OutlineEdit<S, I>? {
        guard isSoleOutlineEdit, changes.count == 1, case .outline(let edit) = changes[0] else { return nil }
        return edit
    }

    /// Shows `next` in place of the snapshot so far, keeping the outlines it leaves as they were.
    private mutating func show(_ next: Snapshot, replacing replaced: inout [Snapshot]) {
        if !outlines.isEmpty { keepOutlines(shownBy: next) }
        if snapshot.hasPendingUpdates { replaced.append(snapshot) }
        snapshot = next
    }

    /// Drops the outlines a flat apply of `new` does not keep: an outline stays while its
    /// section shows the same rows in `new` and `new` shows none of its hidden items
    /// elsewhere. Any other outline section becomes flat (its rows, as root items).
    /// - Complexity: O(size of each outline section) expected.
    private mutating func keepOutlines(shownBy new: Snapshot) {
        let old = snapshot
        outlines = outlines.filter { section, outline in
            guard new.contains(section: section), new.itemIdentifiers(inSection: section) == old.itemIdentifiers(inSection: section)
            else { return false }
            guard outline.items.count > new.numberOfItems(inSection: section) else { return true }
            return outline.items.allSatisfy { item in new.sectionIdentifier(containingItem: item).map { $0 == section } ?? true }
        }
    }

    /// Adds the reload and reconfigure requests of `replaced` for items and sections still
    /// shown (a reload wins over a reconfigure of the same item).
    /// - Complexity: O(n) expected plus the requests carried.
    private mutating func carryRefreshRequests(of replaced: [Snapshot]) {
        guard !replaced.isEmpty else { return }
        let reloads = replaced.flatMap(\.reloadedItemIdentifiers).filter { snapshot.contains(item: $0) }
        if !reloads.isEmpty { try? snapshot.tryReloadItems(reloads) }
        let reloaded = Set(snapshot.reloadedItemIdentifiers)
        let reconfigures = replaced.flatMap(\.reconfiguredItemIdentifiers).filter {
            snapshot.contains(item: $0) && !reloaded.contains($0)
        }
        if !reconfigures.isEmpty { try? snapshot.tryReconfigureItems(reconfigures) }
        let sections = replaced.flatMap(\.reloadedSectionIdentifiers).filter { snapshot.contains(section: $0) }
        if !sections.isEmpty { try? snapshot.tryReloadSections(sections) }
    }

    /// Lays `edit.outline`'s visible items into its section and keeps the outline.
    private mutating func show(_ edit: OutlineEdit<S, I>) {
        let section = edit.section, outline = edit.outline
        let withHiddenItems = outlines.filter { $0.key != section && $0.value.items.count > snapshot.numberOfItems(inSection: $0.key) }
        // Rows of other sections, or hidden items of other outlines, that an item could repeat
        // (none when the outline is all the data source shows: 10^7 lookups saved).
        let shownElsewhere = snapshot.numberOfItems - (snapshot.contains(section: section) ? snapshot.numberOfItems(inSection: section) : 0)
        if shownElsewhere > 0 || !withHiddenItems.isEmpty {
            for item in outline.items {
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
}

extension DiffableDataSourceSnapshot {
    /// Whether any reload or reconfigure request is pending. - Complexity: O(1).
    var hasPendingUpdates: Bool {
        // The storage's lists counted in place: `isEmpty` on an array of a type this code is
        // not specialized for runs `Collection`'s generic default (a witness table and the
        // array's metadata looked up, about 700 instructions a list).
        storage.reloadedItems.count != 0 || storage.reconfiguredItems.count != 0 || storage.reloadedSections.count != 0
    }
}
