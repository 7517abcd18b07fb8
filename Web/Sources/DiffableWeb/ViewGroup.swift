import Diffable
import Foundation

/// What a view group is told to show: the list's whole state, or one outline section's.
enum GroupInput<Section: Hashable & Sendable, Item: Hashable & Sendable>: @unchecked Sendable {
    /// The base snapshot and the outlines applied since it; `serial` numbers the list's applies.
    case state(DiffableDataSourceSnapshot<Section, Item>, [(Section, DiffableDataSourceSectionSnapshot<Item>)], serial: Int)
    case outline(Section, DiffableDataSourceSectionSnapshot<Item>, serial: Int)
}

/// One distinct view of a ``LiveList``: the browsers that see the same rows (the same filter
/// text, no outline row toggled on their own) share it. It owns one data source driving one
/// ``RemoteListView`` in shared mode, on its own serial queue: one snapshot, one diff and one
/// encoded message per update, whatever the number of browsers. The list's hub numbers each
/// message for each browser and tracks their acknowledgements; a browser that toggles an
/// outline row gets a group of its own.
///
/// Queue-confined state is marked; the rest is confined to the list's hub queue.
final class ViewGroup<Section: Hashable & Sendable, Item: Hashable & Sendable>: @unchecked Sendable {
    typealias DataSource = DiffableDataSource<Section, Item, RemoteRow>
    typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    typealias SectionSnapshot = DiffableDataSourceSectionSnapshot<Item>
    typealias Viewer = LiveListViewer<Section, Item>

    let queue = DispatchQueue(label: "DiffableWeb.ViewGroup")
    private(set) var view: RemoteListView!
    private(set) var dataSource: DataSource!
    /// The list lives at least as long as its views (the hub drops a view when its last
    /// browser leaves).
    private let list: LiveList<Section, Item>

    // MARK: Confined to `queue`

    private var filterText: String
    /// Sections that show an outline (levels and disclosure controls are rendered for them).
    private var outlineSections = Set<Section>()
    /// The newest state not yet handed to the data source.
    private var pendingState: (Snapshot, [(Section, SectionSnapshot)])?
    private var pendingOutlines: [(Section, SectionSnapshot)] = []
    private var pendingSerial: Int?
    /// Whether an apply is under way (its batches or its disclosure refresh not yet sent).
    private(set) var applying = false
    /// What the data source shows, before the filter: replayed by a group forked from this one.
    private(set) var applied: (Snapshot, [(Section, SectionSnapshot)]) = (Snapshot(), [])
    private(set) var appliedSerial = 0
    /// The level and disclosure state last sent for each outline row.
    private var decorations: [Item: Decoration] = [:]
    /// While true, messages are encoded but go to no one (a fork replaying its parent's state).
    private var silent = false
    /// Jobs that run once the current apply is sent.
    private var whenIdle: [() -> Void] = []
    private var closed = false

    // MARK: Confined to the list's hub

    /// The filter text of the browsers sharing this group; nil once it belongs to one browser.
    var key: String?
    var members: [ObjectIdentifier: Viewer] = [:]
    /// The version of the last message the hub has seen from this group.
    var version = 0
    /// The last messages, for browsers catching up (oldest first).
    var recent: [SharedMessage] = []
    /// The whole list as of `reloadCache.version`, for browsers that join or fell too far behind.
    var reloadCache: SharedMessage?
    var reloadRequested = false
    /// The list's applies completed, as (version of the last message they needed, serial).
    var completions: [(version: Int, serial: Int)] = []

    init(list: LiveList<Section, Item>, filterText: String) {
        self.list = list
        self.filterText = filterText
        view = RemoteListView(
            broadcast: { [weak self] message in
                guard let self, !self.silent else { return }
                self.list.hub.async { self.list.received(message, from: self) }
            },
            schedule: { [queue] job in queue.async(execute: job) })
        // The cell provider needs the data source it belongs to; it is set right below.
        let provider: DataSource.CellProvider = { [weak self] indexPath, item in
            guard let self else { return nil }
            let row = self.list.row(for: item, at: indexPath, in: self.dataSource, outline: { self.outlineSections.contains($0) })
            if row.level != nil { self.decorations[item] = Decoration(row) }
            return row
        }
        dataSource = list.makeDataSource(view, .queue(queue), provider)
        dataSource.queuedApplyPolicy = .coalesce
        dataSource.sectionSnapshotHandlers = list.sectionSnapshotHandlers
        dataSource.supplementaryViewProvider = { [weak self] kind, indexPath in
            guard let self, kind == "header", let section = self.dataSource.sectionIdentifier(for: indexPath.section) else { return nil }
            return self.list.header(section)
        }
    }

    // MARK: Applying (from the hub)

    /// Shows `input` once the apply under way (if any) is sent; inputs that arrive meanwhile
    /// fold into the newest.
    func receive(_ input: GroupInput<Section, Item>) {
        queue.async {
            switch input {
            case .state(let base, let outlines, let serial):
                self.pendingState = (base, outlines)
                self.pendingOutlines = []
                self.pendingSerial = serial
            case .outline(let section, let outline, let serial):
                self.pendingOutlines.removeAll { $0.0 == section }
                self.pendingOutlines.append((section, outline))
                self.pendingSerial = serial
            }
            self.pump()
        }
    }

    /// Shows the same state through another filter text (the group's only browser typed).
    func setFilter(_ text: String) {
        queue.async {
            guard text != self.filterText else { return }
            self.filterText = text
            if self.pendingState == nil {
                self.pendingState = self.applied
                self.pendingOutlines = []
            }
            self.pendingSerial = max(self.pendingSerial ?? 0, self.appliedSerial)
            self.pump()
        }
    }

    /// A group forked from another for one browser: it replays `state` without sending
    /// anything (the browser already shows it), reports the version it reached (`baseline`,
    /// on the hub), then toggles the row the browser clicked.
    func fork(from state: (Snapshot, [(Section, SectionSnapshot)]), serial: Int, toggling path: IndexPath, baseline: @escaping @Sendable (Int) -> Void) {
        queue.async {
            self.silent = true
            self.pendingState = state
            self.pendingSerial = serial
            self.whenIdle.append {
                self.silent = false
                baseline(self.view.sequence)
                self.toggle(at: path)
            }
            self.pump()
        }
    }

    /// The group has no browser left: it stops applying.
    func close() {
        queue.async {
            self.closed = true
            self.pendingState = nil
            self.pendingOutlines = []
            self.pendingSerial = nil
        }
    }

    /// Hands the newest waiting state to the data source unless an apply is under way.
    private func pump() {
        guard !applying, !closed, let serial = pendingSerial else { return }
        applying = true
        let (state, outlines) = (pendingState, pendingOutlines)
        (pendingState, pendingOutlines, pendingSerial) = (nil, [], nil)
        appliedSerial = serial
        let group = DispatchGroup()
        if let (snapshot, stateOutlines) = state {
            applied = (snapshot, stateOutlines)
            outlineSections = Set(stateOutlines.map(\.0))
            group.enter()
            dataSource.apply(filtered(snapshot), animatingDifferences: true) { group.leave() }
            for (section, outline) in stateOutlines {
                group.enter()
                dataSource.apply(outline, to: section, animatingDifferences: true) { group.leave() }
            }
        }
        for (section, outline) in outlines {
            applied.1.removeAll { $0.0 == section }
            applied.1.append((section, outline))
            outlineSections.insert(section)
            group.enter()
            dataSource.apply(outline, to: section, animatingDifferences: true) { group.leave() }
        }
        // The disclosure states the diff does not carry go out before the apply counts as done,
        // so an awaited apply returns only when the browsers show the whole new state.
        group.notify(queue: queue) {
            self.refreshDecorations()
            self.applying = false
            let version = self.view.sequence
            self.list.hub.async { self.list.completed(serial: serial, version: version, in: self) }
            let jobs = self.whenIdle
            self.whenIdle = []
            for job in jobs { job() }
            self.pump()
        }
    }

    /// `base` as this group's browsers see it: the list's ``LiveList/filterSnapshot`` or
    /// ``LiveList/filter`` for the group's text.
    /// - Complexity: O(items) when filtering; O(1) otherwise.
    private func filtered(_ base: Snapshot) -> Snapshot {
        guard !filterText.isEmpty else { return base }
        if let transform = list.filterSnapshot { return transform(base, filterText) }
        guard let matches = list.filter else { return base }
        var result = Snapshot()
        result.appendSections(base.sectionIdentifiers)
        let text = filterText
        for section in base.sectionIdentifiers {
            let items = base.itemIdentifiers(inSection: section)
            result.appendItems(outlineSections.contains(section) ? items : items.filter { matches($0, text) }, toSection: section)
        }
        return result
    }

    // MARK: Queries and clicks (on the queue)

    /// The whole current list, for browsers that join or fell behind (nil once closed).
    func currentReload() -> SharedMessage? {
        guard !closed else { return nil }
        return view.currentReload()
    }

    /// Whether the data source shows exactly version `version` (no apply half-sent).
    func isSettled(at version: Int) -> Bool {
        !applying && !view.hasPendingBatches && view.sequence == version && pendingSerial == nil
    }

    /// Why a click on row `item` of section `section` names no row, or nil.
    func rowProblem(section: Int, item: Int) -> ProtocolError? {
        guard section >= 0, item >= 0, section < dataSource.numberOfSections(), item < dataSource.numberOfItems(inSection: section),
            dataSource.sectionIdentifier(for: section) != nil
        else { return ProtocolError(.unknownRow, "there is no row \(item) in section \(section)") }
        return nil
    }

    /// Expands or collapses the outline row at `path` (the data source runs the list's
    /// section snapshot handlers), then re-sends the rows whose disclosure state changed.
    func toggle(at path: IndexPath) {
        guard let section = dataSource.sectionIdentifier(for: path.section) else { return }
        outlineSections.insert(section)
        dataSource.toggleDisclosure(at: path)
        // After the toggle's batch is sent (its flush is already queued).
        queue.async { self.refreshDecorations() }
    }

    /// Sends again the outline rows whose level or disclosure state changed without the data
    /// source diffing them (a collapsed parent got its first child, a parent was expanded).
    /// - Complexity: O(rows of the outline sections) plus the rendering of each.
    private func refreshDecorations() {
        guard !outlineSections.isEmpty, !view.hasPendingBatches, view.sequence > 0 else { return }
        let snapshot = dataSource.snapshot()
        var paths: [IndexPath] = []
        var seen: [Item: Decoration] = [:]
        for section in outlineSections {
            guard let sectionIndex = snapshot.indexOfSection(section) else { continue }
            for (index, item) in snapshot.itemIdentifiers(inSection: section).enumerated() {
                let path = IndexPath(item: index, section: sectionIndex)
                let decoration = Decoration(list.row(for: item, at: path, in: dataSource, outline: { _ in true }))
                seen[item] = decoration
                if decorations[item] != decoration { paths.append(path) }
            }
        }
        decorations = seen
        view.reconfigureRows(at: paths)
    }
}

/// What an outline row shows besides its content.
struct Decoration: Equatable {
    var level: Int?
    var expandable: Bool?
    var isExpanded: Bool
    init(_ row: RemoteRow) {
        level = row.level
        expandable = row.expandable
        isExpanded = row.isExpanded
    }
}

/// A counter shared between the receiving task and the hub.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() -> Int { lock.withLock { count += 1; return count } }
}
