import Diffable
import Foundation

/// A list shown live in every connected browser: the app applies snapshots here, each client
/// gets them through its own ``DiffableDataSource`` and ``RemoteListView``.
///
/// ```swift
/// let board = LiveList<League, Player>(matchingItemsByID: .reconfigure,
///     render: { .text("\($0.name) — \($0.score)") }, header: { .text($0.name) })
/// board.mount(on: router, at: "/board")      // client.js and the WebSocket
/// board.apply(snapshot)                      // from any thread, as often as the data changes
/// ```
///
/// Each client has its own data source with ``QueuedApplyPolicy/coalesce``: while a browser is
/// still applying one batch, newer snapshots for it collapse into one, so a slow client costs
/// one pending snapshot and one unacknowledged message, never a growing queue.
///
/// Clients may filter the flat sections (``filter``), expand and collapse outline rows
/// (``sectionSnapshotHandlers``, run on the client's data source as Apple's are).
public final class LiveList<Section: Hashable & Sendable, Item: Hashable & Sendable>: @unchecked Sendable {
    public typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    public typealias SectionSnapshot = DiffableDataSourceSectionSnapshot<Item>
    public typealias DataSource = DiffableDataSource<Section, Item, RemoteRow>

    /// The row for an item (escape its text: ``RemoteRow/text(_:expandable:)``).
    let render: @Sendable (Item) -> RemoteRow
    /// A section's header, or nil for none.
    let header: @Sendable (Section) -> RemoteRow?
    let makeDataSource: (RemoteListView, ViewExecutor, @escaping DataSource.CellProvider) -> DataSource

    private let lock = NSLock()
    private var base = Snapshot()
    private var outlines: [(Section, SectionSnapshot)] = []
    private var sessions: [ObjectIdentifier: LiveListSession<Section, Item>] = [:]
    private var handlers = DataSource.SectionSnapshotHandlers()
    private var filterPredicate: (@Sendable (Item, String) -> Bool)?
    let sessionMeters = MeterRegistry<Section, Item>()

    /// Origins (e.g. `"https://example.com"`) allowed to open the WebSocket besides the page's
    /// own; a browser from any other origin is refused: the connection is not upgraded. The
    /// refusal's status is the WebSocket library's: hummingbird-websocket turns any refused
    /// upgrade into "don't upgrade", and the browser test sees 400, not 403. Requests without
    /// `Origin` (non-browser clients) are allowed.
    public var allowedOrigins: Set<String> = []
    /// The largest message accepted from a browser, in bytes; a larger one is answered with a
    /// `too-large` error and the connection is closed.
    public var maxInboundMessageBytes = 4096
    /// Invalid messages answered with an error before a connection is closed.
    public var maxProtocolErrors = 32

    /// A list whose items are matched by identity (Apple's behaviour): a changed item is a
    /// delete and an insert.
    /// - Complexity: O(1).
    public init(render: @escaping @Sendable (Item) -> RemoteRow, header: @escaping @Sendable (Section) -> RemoteRow? = { _ in nil }) {
        self.render = render
        self.header = header
        makeDataSource = { view, executor, provider in DataSource(view: view, executor: executor, cellProvider: provider) }
    }

    /// A list whose items are matched by `id`: an item whose value changed keeps its row, which
    /// is updated in place (`.reconfigure`) or replaced (`.reload`).
    /// - Complexity: O(1).
    public init(
        matchingItemsByID updates: ItemContentUpdate, render: @escaping @Sendable (Item) -> RemoteRow,
        header: @escaping @Sendable (Section) -> RemoteRow? = { _ in nil }
    ) where Item: Identifiable, Item.ID: Sendable {
        self.render = render
        self.header = header
        makeDataSource = { view, executor, provider in
            DataSource(view: view, executor: executor, matchingItemsByID: updates, cellProvider: provider)
        }
    }

    /// Which items a client's filter text keeps (`nil`: clients cannot filter). Applies to
    /// flat sections; outline sections are shown whole.
    public var filter: (@Sendable (Item, String) -> Bool)? {
        get { lock.withLock { filterPredicate } }
        set { lock.withLock { filterPredicate = newValue } }
    }

    /// Installed in the data source of every client that connects afterwards: expanding and
    /// collapsing outline rows, and loading children lazily.
    public var sectionSnapshotHandlers: DataSource.SectionSnapshotHandlers {
        get { lock.withLock { handlers } }
        set { lock.withLock { handlers = newValue } }
    }

    /// The number of connected clients. - Complexity: O(1).
    public var clientCount: Int { lock.withLock { sessions.count } }

    /// The snapshot and the outlines applied since it, as a new client gets them.
    var state: (Snapshot, [(Section, SectionSnapshot)]) { lock.withLock { (base, outlines) } }

    // MARK: Applying

    /// Shows `snapshot` in every client (outlines applied before it are dropped).
    /// Returns at once; each client's data source diffs and sends on its own queue.
    /// - Complexity: O(1) here; per client, the data source's apply (O(n + s) expected plus the
    ///   moves' O(k log k)), plus O(n) to filter when the client filters.
    /// - Parameter completion: runs when every client connected now has acknowledged the change.
    public func apply(_ snapshot: Snapshot, completion: (@Sendable () -> Void)? = nil) {
        let targets = replaceBase(snapshot)
        let group = DispatchGroup()
        for session in targets {
            group.enter()
            session.show(base: snapshot, outlines: []) { group.leave() }
        }
        if let completion { group.notify(queue: .global(), execute: completion) }
    }

    /// ``apply(_:)``, returning when every client connected now has acknowledged the change
    /// (or left).
    public func apply(_ snapshot: Snapshot) async {
        let targets = replaceBase(snapshot)
        await withTaskGroup(of: Void.self) { group in
            for session in targets {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        session.show(base: snapshot, outlines: []) { continuation.resume() }
                    }
                }
            }
        }
    }

    /// Shows `outline` in `section` of every client, leaving the other sections as they are.
    /// - Complexity: O(1) here; per client, the data source's outline apply.
    public func apply(_ outline: SectionSnapshot, to section: Section, completion: (@Sendable () -> Void)? = nil) {
        let targets = replaceOutline(outline, in: section)
        let group = DispatchGroup()
        for session in targets {
            group.enter()
            session.show(outline, in: section) { group.leave() }
        }
        if let completion { group.notify(queue: .global(), execute: completion) }
    }

    /// ``apply(_:to:)``, returning when every client connected now has acknowledged it.
    public func apply(_ outline: SectionSnapshot, to section: Section) async {
        let targets = replaceOutline(outline, in: section)
        await withTaskGroup(of: Void.self) { group in
            for session in targets {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        session.show(outline, in: section) { continuation.resume() }
                    }
                }
            }
        }
    }

    private func replaceBase(_ snapshot: Snapshot) -> [LiveListSession<Section, Item>] {
        lock.withLock {
            base = snapshot
            outlines = []
            return Array(sessions.values)
        }
    }

    private func replaceOutline(_ outline: SectionSnapshot, in section: Section) -> [LiveListSession<Section, Item>] {
        lock.withLock {
            outlines.removeAll { $0.0 == section }
            outlines.append((section, outline))
            return Array(sessions.values)
        }
    }

    // MARK: Clients

    /// A new client: it gets the current state at once (its first apply is a full reload).
    func connect(send: @escaping @Sendable (String) -> Void) -> LiveListSession<Section, Item> {
        let session = LiveListSession(list: self, send: send)
        let (snapshot, current) = lock.withLock {
            sessions[ObjectIdentifier(session)] = session
            return (base, outlines)
        }
        session.show(base: snapshot, outlines: current)
        return session
    }

    func disconnect(_ session: LiveListSession<Section, Item>) {
        _ = lock.withLock { sessions.removeValue(forKey: ObjectIdentifier(session)) }
        session.close()
    }

    /// The row for `item`, with its level and disclosure state when its section is an outline.
    /// Called on the client's queue, inside its data source's update (which already answers
    /// queries from the new state).
    func row(for item: Item, at indexPath: IndexPath, in dataSource: DataSource, outline isOutline: (Section) -> Bool) -> RemoteRow {
        var row = render(item)
        guard let section = dataSource.sectionIdentifier(for: indexPath.section), isOutline(section) else { return row }
        let outline = dataSource.snapshot(for: section)
        guard outline.contains(item) else { return row }
        row.level = outline.level(of: item)
        row.isExpanded = outline.isExpanded(item)
        if row.expandable == nil {
            row.expandable = row.isExpanded || !outline.snapshot(of: item).items.isEmpty
        }
        return row
    }
}
