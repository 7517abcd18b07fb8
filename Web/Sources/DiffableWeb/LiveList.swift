import Diffable
import Foundation
import Logging

/// A list shown live in every connected browser: the app applies snapshots here; the browsers
/// that see the same rows share one data source, one diff and one encoded message per update.
///
/// ```swift
/// let board = LiveList<League, Player>(matchingItemsByID: .reconfigure,
///     render: { .text("\($0.name) — \($0.score)") }, header: { .text($0.name) })
/// board.mount(on: router, at: "/board")      // client.js and the WebSocket
/// await board.apply(snapshot)                // returns when every browser shows it
/// board.apply(snapshot, completion: nil)     // from synchronous code: returns at once
/// ```
///
/// **Views, not browsers, cost the diffs.** Browsers with the same filter text (``filter``) form
/// one view: a ``DiffableDataSource`` with ``QueuedApplyPolicy/coalesce`` driving a
/// ``RemoteListView`` on the view's own queue. An update costs one filtered snapshot, one diff
/// and one encoding per view; each browser then only gets the shared message with its own
/// sequence number (its header, then the view's body from one shared buffer). A browser that
/// expands or collapses an outline row gets a view of its own (a copy of the shared one's
/// state), so clicks never leak to others.
///
/// **A slow browser never holds the others back.** Each browser has at most one batch waiting
/// for its acknowledgement; the view moves on without it. When it acknowledges, it gets the
/// messages it missed (already encoded, at most ``maxCatchUpMessages``), or else the whole list
/// as of now (one encoding per view and version, shared by every browser that needs it).
public final class LiveList<Section: Hashable & Sendable, Item: Hashable & Sendable>: @unchecked Sendable {
    public typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    public typealias SectionSnapshot = DiffableDataSourceSectionSnapshot<Item>
    public typealias DataSource = DiffableDataSource<Section, Item, RemoteRow>
    typealias Viewer = LiveListViewer<Section, Item>

    /// The row for an item (escape its text: ``RemoteRow/text(_:expandable:)``).
    let render: @Sendable (Item) -> RemoteRow
    /// A section's header, or nil for none.
    let header: @Sendable (Section) -> RemoteRow?
    let makeDataSource: (RemoteListView, ViewExecutor, @escaping DataSource.CellProvider) -> DataSource

    private let lock = NSLock()
    private var handlers = DataSource.SectionSnapshotHandlers()
    private var filterPredicate: (@Sendable (Item, String) -> Bool)?
    private var snapshotFilter: (@Sendable (Snapshot, String) -> Snapshot)?

    /// Membership, sequence numbers and acknowledgements: everything below runs here.
    let hub = DispatchQueue(label: "DiffableWeb.LiveList.hub")
    /// The list's state as applied so far; `serial` counts the applies.
    private var latest: (base: Snapshot, outlines: [(Section, SectionSnapshot)], serial: Int) = (Snapshot(), [], 0)
    /// Every view, and the shared ones by filter text.
    private var groups: [ObjectIdentifier: ViewGroup<Section, Item>] = [:]
    private var sharedGroups: [String: ViewGroup<Section, Item>] = [:]
    private var viewers: [ObjectIdentifier: Viewer] = [:]
    /// Awaited applies: the serial, the browsers that must still show it, what runs then.
    private var waiters: [(serial: Int, remaining: Set<ObjectIdentifier>, done: @Sendable () -> Void)] = []

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
    /// The most messages a browser that fell behind is sent to catch up; further behind, it
    /// gets the whole list instead. Each view keeps this many of its last messages (shared
    /// buffers: O(this × message size) memory per view, none per browser).
    public var maxCatchUpMessages = 8
    /// Where refusals (a foreign origin) and clients' protocol errors are logged, with their
    /// reason; nil: not logged.
    public var logger: Logger?

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
    /// flat sections; outline sections are shown whole. Runs once per apply and distinct
    /// filter text (not per browser): O(items) calls.
    public var filter: (@Sendable (Item, String) -> Bool)? {
        get { lock.withLock { filterPredicate } }
        set { lock.withLock { filterPredicate = newValue } }
    }

    /// The snapshot the browsers with filter text `text` (never empty) see, made from the
    /// applied one; when set, it replaces ``filter``. It may drop sections (a league without a
    /// match) or give items another value (a player's overall rank, shown only when filtered).
    /// Runs once per apply and distinct filter text, on that view's queue.
    /// - Complexity: what the closure costs, once per view and apply (O(items) for a filter);
    ///   the get and set are O(1).
    public var filterSnapshot: (@Sendable (Snapshot, String) -> Snapshot)? {
        get { lock.withLock { snapshotFilter } }
        set { lock.withLock { snapshotFilter = newValue } }
    }

    /// Installed in the data source of every view made afterwards: expanding and collapsing
    /// outline rows, and loading children lazily.
    public var sectionSnapshotHandlers: DataSource.SectionSnapshotHandlers {
        get { lock.withLock { handlers } }
        set { lock.withLock { handlers = newValue } }
    }

    /// The number of connected clients. - Complexity: O(1).
    public var clientCount: Int { hub.sync { viewers.count } }

    /// The number of distinct views (data sources) the clients share. - Complexity: O(1).
    public var viewCount: Int { hub.sync { groups.count } }

    // MARK: Applying

    /// Shows `snapshot` in every client (outlines applied before it are dropped). Returns at
    /// once; each view diffs and sends on its own queue. `completion` has no default: without
    /// it, the call is the `async` form (so `await board.apply(snapshot)` always waits).
    /// - Complexity: O(views) here; per view, the data source's apply (O(n + s) expected plus
    ///   the moves' O(k log k)) and O(n) to filter; per client, a copy of the message.
    /// - Parameter completion: runs when every client connected now shows the change (or
    ///   left); `nil`: nothing runs.
    public func apply(_ snapshot: Snapshot, completion: (@Sendable () -> Void)?) {
        hub.async { self.publish(base: snapshot, completion: completion) }
    }

    /// ``apply(_:completion:)``, returning when every client connected now shows the change
    /// (or left). The only form of `apply(snapshot)` without a `completion:` argument, so an
    /// `await` always reaches it (in async functions and in top-level code alike).
    /// - Complexity: as ``apply(_:completion:)``.
    public func apply(_ snapshot: Snapshot) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            apply(snapshot) { continuation.resume() }
        }
    }

    /// Shows `outline` in `section` of every client, leaving the other sections as they are.
    /// - Complexity: O(views) here; per view, the data source's outline apply.
    public func apply(_ outline: SectionSnapshot, to section: Section, completion: (@Sendable () -> Void)?) {
        hub.async { self.publish(outline: outline, in: section, completion: completion) }
    }

    /// ``apply(_:to:completion:)``, returning when every client connected now shows it.
    /// - Complexity: as ``apply(_:to:completion:)``.
    public func apply(_ outline: SectionSnapshot, to section: Section) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            apply(outline, to: section) { continuation.resume() }
        }
    }

    // MARK: The hub (everything below runs on `hub`)

    private func publish(base: Snapshot, completion: (@Sendable () -> Void)?) {
        latest.serial += 1
        (latest.base, latest.outlines) = (base, [])
        for group in groups.values { group.receive(.state(base, [], serial: latest.serial)) }
        wait(completion)
    }

    private func publish(outline: SectionSnapshot, in section: Section, completion: (@Sendable () -> Void)?) {
        latest.serial += 1
        latest.outlines.removeAll { $0.0 == section }
        latest.outlines.append((section, outline))
        for group in groups.values { group.receive(.outline(section, outline, serial: latest.serial)) }
        wait(completion)
    }

    /// Runs `completion` once every client connected now shows the latest apply.
    private func wait(_ completion: (@Sendable () -> Void)?) {
        guard let completion else { return }
        let waiting = Set(viewers.keys)
        if waiting.isEmpty {
            DispatchQueue.global().async(execute: completion)
        } else {
            waiters.append((latest.serial, waiting, completion))
        }
    }

    /// `viewer` shows the list's applies up to `serial`: awaited applies it was the last for finish.
    private func shows(_ viewer: Viewer, serial: Int) {
        guard serial > viewer.shownSerial else { return }
        viewer.shownSerial = serial
        forget(ObjectIdentifier(viewer), upTo: serial)
    }

    private func forget(_ id: ObjectIdentifier, upTo serial: Int = .max) {
        guard !waiters.isEmpty else { return }
        var index = 0
        while index < waiters.count {
            if waiters[index].serial <= serial { waiters[index].remaining.remove(id) }
            if waiters[index].remaining.isEmpty {
                DispatchQueue.global().async(execute: waiters[index].done)
                waiters.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// The shared view for filter text `text`, made (and given the current state) if needed.
    private func sharedGroup(for text: String) -> ViewGroup<Section, Item> {
        if let group = sharedGroups[text] { return group }
        let group = ViewGroup(list: self, filterText: text)
        group.key = text
        sharedGroups[text] = group
        groups[ObjectIdentifier(group)] = group
        group.receive(.state(latest.base, latest.outlines, serial: latest.serial))
        return group
    }

    private func attach(_ viewer: Viewer, to group: ViewGroup<Section, Item>) {
        viewer.group = group
        viewer.shownVersion = nil
        viewer.acknowledgedVersion = nil
        group.members[ObjectIdentifier(viewer)] = viewer
        viewer.wantsReload = true
        // A new view's first message is the whole list anyway.
        if group.version > 0 { serveReloads(in: group) }
    }

    private func detach(_ viewer: Viewer) {
        guard let group = viewer.group else { return }
        viewer.group = nil
        group.members.removeValue(forKey: ObjectIdentifier(viewer))
        if group.members.isEmpty { dispose(group) }
    }

    private func dispose(_ group: ViewGroup<Section, Item>) {
        groups.removeValue(forKey: ObjectIdentifier(group))
        if let key = group.key, sharedGroups[key] === group { sharedGroups.removeValue(forKey: key) }
        group.close()
    }

    /// A message from `group`'s view: every member that is ready gets it.
    func received(_ message: SharedMessage, from group: ViewGroup<Section, Item>) {
        guard groups[ObjectIdentifier(group)] != nil else { return }
        group.version = message.version
        group.recent.append(message)
        if group.recent.count > maxCatchUpMessages { group.recent.removeFirst(group.recent.count - maxCatchUpMessages) }
        if message.kind == .reload { group.reloadCache = message }
        for viewer in group.members.values { advance(viewer) }
    }

    /// `group` finished the list's apply `serial`; its last message was `version`.
    func completed(serial: Int, version: Int, in group: ViewGroup<Section, Item>) {
        guard groups[ObjectIdentifier(group)] != nil else { return }
        group.completions.append((version, serial))
        if group.completions.count > 64 { group.completions.removeFirst(group.completions.count - 64) }
        for viewer in group.members.values where (viewer.acknowledgedVersion ?? -1) >= version { shows(viewer, serial: serial) }
    }

    /// Sends `viewer` what it lacks of its view, unless a batch still waits for its
    /// acknowledgement: the missed messages when the view still has them all and there are
    /// few, else the whole list.
    private func advance(_ viewer: Viewer) {
        guard let group = viewer.group, !viewer.awaitingBaseline, viewer.batchesInFlight == 0 else { return }
        guard !viewer.wantsReload, let shown = viewer.shownVersion else {
            viewer.wantsReload = true
            serveReloads(in: group)
            return
        }
        guard shown < group.version else { return }
        let missed = group.recent.drop { $0.version <= shown }
        guard missed.count == group.version - shown, missed.count <= maxCatchUpMessages else {
            viewer.wantsReload = true
            serveReloads(in: group)
            return
        }
        // From the last whole list on, if one is among them.
        let start = missed.lastIndex { $0.kind == .reload } ?? missed.startIndex
        for message in missed[start...] { send(message, to: viewer) }
    }

    /// Sends the whole list to the members of `group` that want it: the cached one when it is
    /// current, else one encoded on the group's queue for all of them.
    private func serveReloads(in group: ViewGroup<Section, Item>) {
        let waiting = group.members.values.filter { $0.wantsReload && !$0.awaitingBaseline }
        guard !waiting.isEmpty else { return }
        if let cached = group.reloadCache, cached.version == group.version {
            for viewer in waiting {
                viewer.wantsReload = false
                send(cached, to: viewer)
                runDeferred(viewer)
            }
            return
        }
        guard !group.reloadRequested else { return }
        group.reloadRequested = true
        group.queue.async {
            let message = group.currentReload()
            self.hub.async {
                group.reloadRequested = false
                if let message, message.version >= group.version { group.reloadCache = message }
                self.serveReloads(in: group)
            }
        }
    }

    /// Runs the clicks that waited for `viewer`'s whole list.
    private func runDeferred(_ viewer: Viewer) {
        guard !viewer.deferred.isEmpty else { return }
        let jobs = viewer.deferred
        viewer.deferred = []
        for job in jobs { job() }
    }

    private func send(_ message: SharedMessage, to viewer: Viewer) {
        guard let group = viewer.group else { return }
        viewer.sequence += 1
        let header = message.kind.header(sequence: viewer.sequence)
        viewer.sent.append((viewer.sequence, ObjectIdentifier(group), message.version, message.kind == .batch))
        viewer.shownVersion = message.version
        viewer.messagesSent += 1
        viewer.bytesSent += header.utf8.count + message.body.readableBytes
        viewer.send(.shared(header: header, body: message.body))
    }

    // MARK: Clients

    /// A new client: it joins the view of the empty filter and gets the whole list.
    func connect(meter: OutgoingMeter = OutgoingMeter(), send: @escaping @Sendable (OutgoingMessage) -> Void) -> Viewer {
        let viewer = Viewer(send: send, meter: meter)
        hub.async {
            self.viewers[ObjectIdentifier(viewer)] = viewer
            self.attach(viewer, to: self.sharedGroup(for: ""))
        }
        return viewer
    }

    func disconnect(_ viewer: Viewer) {
        hub.async {
            self.viewers.removeValue(forKey: ObjectIdentifier(viewer))
            self.detach(viewer)
            self.forget(ObjectIdentifier(viewer))
        }
    }

    /// Handles one text frame; returns false when the connection should end.
    func receive(_ text: String, from viewer: Viewer) -> Bool {
        do {
            switch try ClientMessage.parse(text) {
            case .acknowledge(let sequence): hub.async { self.acknowledge(sequence, from: viewer) }
            case .resynchronize: hub.async { self.resynchronize(viewer) }
            case .toggle(let sequence, let section, let item):
                hub.async { self.toggle(sequence: sequence, section: section, item: item, from: viewer) }
            case .filter(let text): hub.async { self.setFilter(text, for: viewer) }
            }
        } catch {
            fail(error, viewer)
        }
        return viewer.errors.value <= maxProtocolErrors
    }

    /// A binary frame: the protocol is text only.
    func receiveBinary(from viewer: Viewer) -> Bool {
        fail(ProtocolError(.binaryFrame, "binary frames are not part of the protocol; send JSON text"), viewer)
        return viewer.errors.value <= maxProtocolErrors
    }

    /// Tells the browser what was wrong (the connection goes on until too many errors).
    func fail(_ error: ProtocolError, _ viewer: Viewer) {
        let count = viewer.errors.increment()
        if count <= maxProtocolErrors + 1 { logger?.notice("DiffableWeb: client message refused: \(error)") }
        if count > maxProtocolErrors {
            if count == maxProtocolErrors + 1 {
                viewer.send(.text(ProtocolError(.tooManyErrors, "more than \(maxProtocolErrors) invalid messages; closing").json))
            }
            return
        }
        viewer.send(.text(error.json))
    }

    private func acknowledge(_ sequence: Int, from viewer: Viewer) {
        guard sequence >= 1, sequence <= viewer.sequence else {
            fail(ProtocolError(.unknownSequence, "acknowledged message \(sequence), but the last one sent is \(viewer.sequence)"), viewer)
            return
        }
        var acknowledged: Int?
        let current = viewer.group.map(ObjectIdentifier.init)
        while let first = viewer.sent.first, first.sequence <= sequence {
            viewer.sent.removeFirst()
            // Messages of a view the client has left since say nothing about its current one.
            if first.group == current { acknowledged = first.version }
        }
        if let version = acknowledged, let group = viewer.group {
            viewer.acknowledgedVersion = max(viewer.acknowledgedVersion ?? version, version)
            if let serial = group.completions.last(where: { $0.version <= version })?.serial { shows(viewer, serial: serial) }
        }
        advance(viewer)
    }

    private func resynchronize(_ viewer: Viewer) {
        // Nothing has reached the client yet: its first message is the whole list anyway.
        guard viewer.sequence > 0, let group = viewer.group else { return }
        viewer.wantsReload = true
        serveReloads(in: group)
    }

    private func setFilter(_ text: String, for viewer: Viewer) {
        guard text != viewer.filterText, let group = viewer.group else { return }
        viewer.filterText = text
        guard let key = group.key else {
            group.setFilter(text)  // its own view: the data source diffs to the new rows
            return
        }
        if let target = sharedGroups[text] {
            detach(viewer)
            attach(viewer, to: target)
        } else if group.members.count == 1 {
            // Alone in its view: the view takes the new text and diffs.
            sharedGroups.removeValue(forKey: key)
            group.key = text
            sharedGroups[text] = group
            group.setFilter(text)
        } else {
            detach(viewer)
            attach(viewer, to: sharedGroup(for: text))
        }
    }

    /// A disclosure click on the list as of message `sequence`. Alone in its view, the client
    /// keeps it (now its own); sharing it, it gets a copy of its own first.
    private func toggle(sequence: Int, section: Int, item: Int, from viewer: Viewer) {
        // A click sent before the browser's whole list went out is answered after it (a
        // browser cannot have clicked it, but a script can send it right away).
        if viewer.group != nil, viewer.shownVersion == nil || viewer.wantsReload || viewer.awaitingBaseline,
            viewer.deferred.count < maxProtocolErrors
        {
            viewer.deferred.append { [self] in toggle(sequence: sequence, section: section, item: item, from: viewer) }
            return
        }
        guard sequence == viewer.sequence, let group = viewer.group, let shown = viewer.shownVersion, shown == group.version,
            !viewer.awaitingBaseline
        else {
            fail(
                ProtocolError(.staleSequence, "the click was on the list as of message \(sequence), but message \(viewer.sequence) has been sent since; click again"),
                viewer)
            return
        }
        let alone = group.members.count == 1
        if alone, let key = group.key {
            sharedGroups.removeValue(forKey: key)
            group.key = nil
        }
        let path = IndexPath(item: item, section: section)
        group.queue.async {
            guard group.isSettled(at: shown) else {
                self.fail(ProtocolError(.staleSequence, "the list changed while the click was on its way; click again"), viewer)
                return
            }
            if let problem = group.rowProblem(section: section, item: item) {
                self.fail(problem, viewer)
                return
            }
            if alone {
                group.toggle(at: path)
                return
            }
            let state = group.applied
            let serial = group.appliedSerial
            self.hub.async { self.fork(viewer, from: group, at: shown, state: state, serial: serial, toggling: path) }
        }
    }

    /// Moves `viewer` to a view of its own that starts as `group` at `version`, then toggles.
    private func fork(
        _ viewer: Viewer, from group: ViewGroup<Section, Item>, at version: Int, state: (Snapshot, [(Section, SectionSnapshot)]),
        serial: Int, toggling path: IndexPath
    ) {
        guard viewer.group === group, viewer.shownVersion == version else {
            fail(ProtocolError(.staleSequence, "the list changed while the click was on its way; click again"), viewer)
            return
        }
        detach(viewer)
        let own = ViewGroup(list: self, filterText: viewer.filterText)
        groups[ObjectIdentifier(own)] = own
        viewer.group = own
        viewer.shownVersion = nil
        viewer.acknowledgedVersion = nil
        viewer.awaitingBaseline = true
        own.members[ObjectIdentifier(viewer)] = viewer
        own.fork(from: state, serial: serial, toggling: path) { reached in
            self.hub.async {
                own.version = reached
                viewer.awaitingBaseline = false
                if viewer.group === own { viewer.shownVersion = reached }
                self.advance(viewer)
                self.runDeferred(viewer)
            }
        }
        if latest.serial > serial { own.receive(.state(latest.base, latest.outlines, serial: latest.serial)) }
    }

    /// Per-client figures: what each connected client was sent and what waits for it.
    public func clientStatistics() -> [ClientStatistics] {
        hub.sync {
            viewers.values.map { viewer in
                ClientStatistics(
                    messagesSent: viewer.messagesSent, bytesSent: viewer.bytesSent, batchesInFlight: viewer.batchesInFlight,
                    queuedBytes: viewer.meter.current, maxQueuedBytes: viewer.meter.maximum)
            }
        }
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
