import Diffable
import Foundation

/// One connected browser: its own data source (coalescing applies that arrive while the browser
/// is still busy), its ``RemoteListView``, its filter text and its protocol bookkeeping.
///
/// The view is driven on the session's serial queue; messages to the browser go through `send`
/// in order.
final class LiveListSession<Section: Hashable & Sendable, Item: Hashable & Sendable>: @unchecked Sendable {
    typealias DataSource = DiffableDataSource<Section, Item, RemoteRow>
    typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    typealias SectionSnapshot = DiffableDataSourceSectionSnapshot<Item>

    let queue = DispatchQueue(label: "DiffableWeb.LiveListSession")
    let view: RemoteListView
    private(set) var dataSource: DataSource!
    private let list: LiveList<Section, Item>
    private let send: @Sendable (String) -> Void

    // Confined to `queue`.
    private var filterText = ""
    /// Sections that show an outline (levels and disclosure controls are rendered for them).
    private var outlineSections = Set<Section>()
    /// The newest state not yet handed to the data source, and who waits for it.
    private var pendingBase: (Snapshot, [(Section, SectionSnapshot)])?
    private var pendingOutlines: [(Section, SectionSnapshot)] = []
    private var pendingDone: [@Sendable () -> Void] = []
    /// Whether an apply handed to the data source still waits for the browser.
    private var applying = false
    /// The level and disclosure state last sent for each outline row.
    private var decorations: [Item: Decoration] = [:]

    /// Protocol errors answered so far; past ``LiveList/maxProtocolErrors`` the session ends.
    private let errorCount = LockedCounter()

    init(list: LiveList<Section, Item>, send: @escaping @Sendable (String) -> Void) {
        self.list = list
        self.send = send
        view = RemoteListView(send: send, schedule: { [queue] job in queue.async(execute: job) })
        let executor = ViewExecutor.queue(queue)
        // The cell provider needs the data source it belongs to; it is set right below.
        let box = WeakBox<DataSource>()
        let provider: DataSource.CellProvider = { [list] indexPath, item in
            guard let dataSource = box.value else { return nil }
            let row = list.row(for: item, at: indexPath, in: dataSource, outline: { [unowned self] in self.outlineSections.contains($0) })
            if row.level != nil { self.decorations[item] = Decoration(row) }
            return row
        }
        dataSource = list.makeDataSource(view, executor, provider)
        box.value = dataSource
        dataSource.queuedApplyPolicy = .coalesce
        dataSource.sectionSnapshotHandlers = list.sectionSnapshotHandlers
        dataSource.supplementaryViewProvider = { [list] kind, indexPath in
            guard kind == "header", let dataSource = box.value, let section = dataSource.sectionIdentifier(for: indexPath.section)
            else { return nil }
            return list.header(section)
        }
    }

    // MARK: Applying the list's state

    /// Shows `base` (through this client's filter) and then `outlines`; `done` runs when the
    /// browser acknowledged it (or a newer state that replaced it), or the client left.
    func show(base: Snapshot, outlines: [(Section, SectionSnapshot)], done: (@Sendable () -> Void)? = nil) {
        queue.async {
            self.pendingBase = (base, outlines)
            self.pendingOutlines = []
            if let done { self.pendingDone.append(done) }
            self.pump()
        }
    }

    /// Shows `outline` in `section`, leaving the other sections as they are.
    func show(_ outline: SectionSnapshot, in section: Section, done: (@Sendable () -> Void)? = nil) {
        queue.async {
            self.pendingOutlines.removeAll { $0.0 == section }
            self.pendingOutlines.append((section, outline))
            if let done { self.pendingDone.append(done) }
            self.pump()
        }
    }

    /// Hands the newest waiting state to the data source, unless the browser has not yet
    /// acknowledged the last one: then it waits, and states applied meanwhile replace it. (The
    /// data source's own coalescing folds applies queued behind a diff, not behind a view that
    /// has not finished, so the session holds them back itself.)
    private func pump() {
        guard !applying, pendingBase != nil || !pendingOutlines.isEmpty else { return }
        applying = true
        let (base, outlines, done) = (pendingBase, pendingOutlines, pendingDone)
        (pendingBase, pendingOutlines, pendingDone) = (nil, [], [])
        let group = DispatchGroup()
        if let (snapshot, baseOutlines) = base {
            outlineSections = Set(baseOutlines.map(\.0))
            group.enter()
            dataSource.apply(filtered(snapshot), animatingDifferences: true) { group.leave() }
            for (section, outline) in baseOutlines {
                group.enter()
                dataSource.apply(outline, to: section, animatingDifferences: true) { group.leave() }
            }
        }
        for (section, outline) in outlines {
            outlineSections.insert(section)
            group.enter()
            dataSource.apply(outline, to: section, animatingDifferences: true) { group.leave() }
        }
        // The disclosure states the diff does not carry go out before `done` runs, so an awaited
        // apply returns only when the browser shows the whole new state.
        group.notify(queue: queue) {
            self.refreshDecorations {
                self.applying = false
                for finished in done { finished() }
                self.pump()
            }
        }
    }

    /// `base` without the items that fail the list's filter for this client's text.
    /// - Complexity: O(items) when a filter is set; O(1) otherwise.
    private func filtered(_ base: Snapshot) -> Snapshot {
        guard !filterText.isEmpty, let matches = list.filter else { return base }
        var result = Snapshot()
        result.appendSections(base.sectionIdentifiers)
        let text = filterText
        for section in base.sectionIdentifiers {
            let items = base.itemIdentifiers(inSection: section)
            result.appendItems(outlineSections.contains(section) ? items : items.filter { matches($0, text) }, toSection: section)
        }
        return result
    }

    // MARK: Messages from the browser

    /// Handles one text frame; returns false when the session should end.
    func receive(_ text: String) -> Bool {
        do {
            switch try ClientMessage.parse(text) {
            case .acknowledge(let sequence):
                queue.async {
                    if self.view.acknowledge(sequence) == .unknown {
                        self.fail(ProtocolError(.unknownSequence, "acknowledged message \(sequence), but the last one sent is \(self.view.sequence)"))
                    } else if !self.applying {
                        // While an apply is under way its own end refreshes them, and waits for
                        // the browser before the apply counts as done.
                        self.refreshDecorations()
                    }
                }
            case .resynchronize:
                queue.async {
                    // Nothing has reached the view yet: the first apply reloads it anyway.
                    guard self.view.sequence > 0 else { return }
                    self.view.reloadData()
                }
            case .toggle(let sequence, let section, let item):
                queue.async { self.toggle(sequence: sequence, section: section, item: item) }
            case .filter(let text):
                queue.async {
                    guard text != self.filterText else { return }
                    self.filterText = text
                    let (base, outlines) = self.list.state
                    self.show(base: base, outlines: outlines)
                }
            }
        } catch {
            fail(error)
        }
        return errorCount.value <= list.maxProtocolErrors
    }

    /// A binary frame: the protocol is text only.
    func receiveBinary() -> Bool {
        fail(ProtocolError(.binaryFrame, "binary frames are not part of the protocol; send JSON text"))
        return errorCount.value <= list.maxProtocolErrors
    }

    private func toggle(sequence: Int, section: Int, item: Int) {
        guard sequence == view.sequence else {
            fail(ProtocolError(.staleSequence, "the click was on the list as of message \(sequence), but message \(view.sequence) has been sent since; click again"))
            return
        }
        guard section < dataSource.numberOfSections(), item < dataSource.numberOfItems(inSection: section),
            let identifier = dataSource.sectionIdentifier(for: section)
        else {
            fail(ProtocolError(.unknownRow, "there is no row \(item) in section \(section)"))
            return
        }
        outlineSections.insert(identifier)
        dataSource.toggleDisclosure(at: IndexPath(item: item, section: section))
        refreshDecorations()
    }

    /// Sends again the outline rows whose level or disclosure state changed without the data
    /// source diffing them (a collapsed parent got its first child, a parent was expanded).
    /// Runs when no batch waits for the browser, so the committed state is what it shows.
    /// `finished` runs when the browser has acknowledged those rows (at once when none changed).
    /// - Complexity: O(rows of the outline sections) plus the rendering of each.
    private func refreshDecorations(then finished: (() -> Void)? = nil) {
        guard !outlineSections.isEmpty, view.batchesInFlight == 0, view.sequence > 0 else { finished?(); return }
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
        view.reconfigureRows(at: paths) { _ in finished?() }
    }

    /// Tells the browser what was wrong (the session goes on until too many errors).
    func fail(_ error: ProtocolError) {
        let count = errorCount.increment()
        if count > list.maxProtocolErrors {
            if count == list.maxProtocolErrors + 1 {
                send(ProtocolError(.tooManyErrors, "more than \(list.maxProtocolErrors) invalid messages; closing").json)
            }
            return
        }
        send(error.json)
    }

    /// The browser left: batches waiting for it finish, so nothing waits on it forever.
    func close() {
        queue.async { self.view.disconnect() }
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

/// Holds a reference weakly (the data source and its cell provider would otherwise form a cycle).
final class WeakBox<Value: AnyObject>: @unchecked Sendable {
    weak var value: Value?
}

/// A counter shared between the receiving task and the session's queue.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() -> Int { lock.withLock { count += 1; return count } }
}
