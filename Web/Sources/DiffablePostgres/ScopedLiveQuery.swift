import Diffable
import DiffableWeb
import Foundation
import PostgresNIO

/// One ``LiveList`` per viewer scope, each kept equal to the same ordered SQL query with the
/// scope bound as a parameter; one listening connection for them all.
///
/// ```swift
/// let live = ScopedLiveQuery<String, Int, Row>(configuration: configuration, channel: "players_changed", section: 0,
///     makeList: { _ in LiveList(matchingItemsByID: .reconfigure, render: render) },
///     query: { team in "SELECT id, name, score FROM players WHERE team = \(team) ORDER BY score DESC, id" },
///     decode: { row in let (id, name, score) = try row.decode((Int, String, Int).self); return Row(id: id, name: name, score: score) })
/// Task { await live.run() }
/// let redList = await live.list(for: "red")          // once its rows are in
/// ```
///
/// The query closure returns a `PostgresQuery`: written as a string literal, every `\(value)`
/// in it becomes a bound parameter (`$1`…), never SQL text, so a scope can hold any
/// characters. Take the scope from the viewer's authentication (``ScopedLiveLists``,
/// ``ScopeToken``), never from what the browser sends.
///
/// **Changes and healing** are as in ``LiveQuery``: `LISTEN` first, then the queries; each
/// (coalesced) notification runs every scope's query once; after a lost connection, connect
/// again, listen again, query again. A scope's list is made on its first ``list(for:)`` and
/// kept (the few scopes of a typical app cost one list and one query per change each).
///
/// **Row-level mode** (opt-in, `rowLevel:`): with the trigger of
/// ``RowLevelChanges/triggerSQL(table:channel:key:)``, notifications carry the changed keys,
/// and each scope re-reads only those rows and merges them into its ordered result (see
/// ``RowLevelChanges`` for when that equals the full query, and when it falls back to it).
public final class ScopedLiveQuery<Scope: Hashable & Sendable, Section: Hashable & Sendable, Item: Hashable & Sendable>: Sendable {
    public typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>

    /// How long ``run()`` waits before connecting again after a failure.
    public let retryDelay: Duration
    private let configuration: PostgresConnection.Configuration
    private let channel: String
    private let section: Section
    private let makeList: @Sendable (Scope) -> LiveList<Section, Item>
    private let query: @Sendable (Scope) -> PostgresQuery
    private let decode: @Sendable (PostgresRow) throws -> Item
    private let rowLevel: RowLevelChanges<Scope, Item>?
    private let logger: Logger
    private let state = State()

    /// - Parameters:
    ///   - configuration: where and as whom to connect (a dedicated connection: it listens).
    ///   - channel: the channel the table's trigger notifies (``LiveQuery/triggerSQL(table:channel:)``).
    ///   - section: the section the rows go in.
    ///   - makeList: a new scope's list (called once per scope).
    ///   - query: a scope's `SELECT`, its `ORDER BY` making the order total, the scope bound
    ///     as a parameter.
    ///   - decode: the item for one row.
    ///   - rowLevel: nil (the default) to run each scope's whole query per notification; else
    ///     how to re-read and merge only the notified rows (``RowLevelChanges``).
    /// - Precondition: `channel` is an SQL identifier (letters, digits, `_`).
    /// - Complexity: O(1).
    public init(
        configuration: PostgresConnection.Configuration, channel: String, section: Section, retryDelay: Duration = .seconds(1),
        logger: Logger = Logger(label: "DiffablePostgres"), makeList: @escaping @Sendable (Scope) -> LiveList<Section, Item>,
        query: @escaping @Sendable (Scope) -> PostgresQuery, decode: @escaping @Sendable (PostgresRow) throws -> Item,
        rowLevel: RowLevelChanges<Scope, Item>? = nil
    ) {
        precondition(
            SQLIdentifier.isValid(channel), "ScopedLiveQuery: channel must be an SQL identifier (letters, digits, _), not \(channel)")
        self.configuration = configuration
        self.channel = channel
        self.section = section
        self.retryDelay = retryDelay
        self.logger = logger
        self.makeList = makeList
        self.query = query
        self.decode = decode
        self.rowLevel = rowLevel
    }

    /// What the queries have done so far. - Complexity: O(1).
    public var statistics: LiveQueryStatistics { state.locked { $0.statistics } }

    /// Whether the listening connection is up now (a load balancer's health check can ask).
    /// - Complexity: O(1).
    public var isListening: Bool { state.locked { $0.signal != nil } }

    /// The rows last applied to `scope`'s list, nil before its first query. - Complexity: O(1).
    public func current(for scope: Scope) -> Snapshot? { state.locked { $0.targets[scope]?.snapshot } }

    /// `scope`'s list, returned once it holds the query's rows (made and queried on first use;
    /// while the database is unreachable, this waits for it).
    /// - Complexity: O(1) once the scope's rows are in.
    public func list(for scope: Scope) async -> LiveList<Section, Item> {
        await withCheckedContinuation { (ready: CheckedContinuation<LiveList<Section, Item>, Never>) in
            let list: LiveList<Section, Item>? = state.locked { state in
                if let target = state.targets[scope], target.snapshot != nil { return target.list }
                register(scope, in: &state).waiting.append(ready)
                state.signal?.yield()
                return nil
            }
            if let list { ready.resume(returning: list) }
        }
    }

    /// `scope`'s list at once, made (and queried at the next refresh) if new. - Complexity: O(1).
    func registeredList(for scope: Scope) -> LiveList<Section, Item> {
        state.locked { state in
            let list = register(scope, in: &state).list
            state.signal?.yield()
            return list
        }
    }

    private func register(_ scope: Scope, in state: inout State.Value) -> Target {
        if let target = state.targets[scope] { return target }
        let target = Target(list: makeList(scope))
        state.targets[scope] = target
        return target
    }

    /// Connects, listens and keeps every scope's list equal to its query until the task is
    /// cancelled; after a failure, connects again (every ``retryDelay``) and queries again.
    /// - Complexity: per (coalesced) notification, each scope's query and O(rows) to decode
    ///   and build its snapshot, plus the list's apply; in row-level mode, each scope's read of
    ///   the k notified rows and O(rows + k log k) to merge them.
    public func run() async {
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                try await session(id: attempt)
            } catch {
                if Task.isCancelled { break }
                state.locked { $0.statistics.lastError = String(reflecting: error) }
                logger.warning("DiffablePostgres: connection lost (\(error)); connecting again in \(retryDelay)")
            }
            if Task.isCancelled { break }
            try? await Task.sleep(for: retryDelay)
        }
    }

    /// One connection's life: LISTEN, the queries, then the queries again per (coalesced)
    /// notification or new scope, until the connection fails or the task is cancelled.
    ///
    /// Nothing here waits for the driver to end a stream: the session ends as soon as the
    /// connection closes or a query fails. A query left hanging on a dead connection is
    /// abandoned, and can apply nothing later: only the current session's results are applied.
    private func session(id: Int) async throws {
        let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        state.locked {
            $0.statistics.connections += 1
            $0.session = id
            // Whatever was notified before is covered by the full queries this session starts with.
            $0.pendingKeys = []
            $0.pendingFull = true
        }
        // One pending refresh at most: notifications during a refresh fold into one more.
        let (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // The first reason the session ends.
        let (ended, end) = AsyncStream<any Error>.makeStream(bufferingPolicy: .bufferingOldest(1))
        connection.closeFuture.whenComplete { _ in
            signal.finish()
            end.yield(ConnectionEnded())
        }
        var consumer: Task<Void, Never>?
        var refresher: Task<Void, Never>?
        defer {
            state.locked { $0.signal = nil }
            signal.finish()
            consumer?.cancel()
            refresher?.cancel()
            // Not awaited: closing a connection whose server is gone must not hold up the retry.
            Task { try? await connection.close() }
        }
        consumer = Task {
            do {
                try await connection.listen(on: channel) { notifications in
                    // LISTEN is active: the first queries can miss nothing committed from now on.
                    self.state.locked { if $0.session == id { $0.signal = signal } }
                    signal.yield()
                    for try await notification in notifications {
                        let keys = self.rowLevel == nil ? nil : RowLevelChanges<Scope, Item>.keys(in: notification.payload)
                        self.state.locked {
                            $0.statistics.notifications += 1
                            if let keys { $0.pendingKeys.formUnion(keys) } else { $0.pendingFull = true }
                        }
                        signal.yield()
                    }
                }
                end.yield(ConnectionEnded())
            } catch {
                end.yield(error)
            }
        }
        refresher = Task {
            do {
                for await _ in signals { try await self.refreshAll(on: connection, session: id) }
                end.yield(ConnectionEnded())
            } catch {
                end.yield(error)
            }
        }
        for await error in ended { throw error }
        throw ConnectionEnded()  // cancelled
    }

    /// Runs every scope's query (or, in row-level mode, re-reads the notified rows) and applies
    /// its rows.
    private func refreshAll(on connection: PostgresConnection, session: Int) async throws {
        let (scopes, keys, full) = state.locked { state in
            defer {
                state.pendingKeys = []
                state.pendingFull = false
            }
            return (state.targets.map { ($0.key, $0.value) }, state.pendingKeys, state.pendingFull)
        }
        for (scope, target) in scopes {
            let (merged, applies) = state.locked { _ in (target.snapshot == nil ? nil : target.items, target.rowLevelApplies) }
            guard let rowLevel, !full, let merged, applies < rowLevel.fullCheckInterval else {
                try await refresh(scope, on: connection, session: session)
                continue
            }
            if keys.isEmpty { continue }
            let rows = try await connection.query(rowLevel.rowsQuery(scope, keys.sorted()), logger: logger)
            var fresh: [Item] = []
            for try await row in rows { fresh.append(try decode(row)) }
            let items = rowLevel.merge(merged, changed: keys, fresh: fresh)
            try await refresh(scope, with: items, rowLevel: true, session: session)
        }
    }

    private func refresh(_ scope: Scope, on connection: PostgresConnection, session: Int) async throws {
        let rows = try await connection.query(query(scope), logger: logger)
        var items: [Item] = []
        for try await row in rows { items.append(try decode(row)) }
        try await refresh(scope, with: items, rowLevel: false, session: session)
    }

    /// Applies `items` (a full query's rows, or a row-level merge) to `scope`'s list.
    private func refresh(_ scope: Scope, with items: [Item], rowLevel: Bool, session: Int) async throws {
        var snapshot = Snapshot()
        snapshot.appendSections([section])
        var skipped = 0
        do {
            // The common case, no repeated row, costs no set of its own: the snapshot checks.
            try snapshot.tryAppendItems(items, toSection: section)
        } catch {
            var seen = Set<Item>()
            let unique = items.filter { seen.insert($0).inserted }
            skipped = items.count - unique.count
            snapshot.appendItems(unique, toSection: section)
        }
        let (list, waiting) = state.locked { state -> (LiveList<Section, Item>?, [CheckedContinuation<LiveList<Section, Item>, Never>]) in
            // A refresh of a session that has ended (abandoned, then finished after all) is stale.
            guard state.session == session, let target = state.targets[scope] else { return (nil, []) }
            state.statistics.refreshes += 1
            state.statistics.duplicatesSkipped += skipped
            if rowLevel {
                state.statistics.rowLevelRefreshes += 1
                target.rowLevelApplies += 1
            } else if self.rowLevel != nil, target.rowLevelApplies > 0, let merged = target.snapshot {
                // A periodic check: the full query after row-level applies.
                state.statistics.fullChecks += 1
                if merged.itemIdentifiers != snapshot.itemIdentifiers { state.statistics.fullCheckDifferences += 1 }
                target.rowLevelApplies = 0
            }
            target.snapshot = snapshot
            target.items = snapshot.numberOfItems == items.count ? items : snapshot.itemIdentifiers
            // Under the lock, so applies keep the sessions' order. Not awaited: a slow browser
            // must not hold back the next query (the list's views coalesce what is not sent yet).
            target.list.apply(snapshot, completion: nil)
            defer { target.waiting = [] }
            return (target.list, target.waiting)
        }
        guard let list else { return }
        for ready in waiting { ready.resume(returning: list) }
    }

    private struct ConnectionEnded: Error, CustomStringConvertible {
        var description: String { "the connection ended" }
    }

    /// One scope: its list, its last rows, who waits for the first.
    private final class Target {
        let list: LiveList<Section, Item>
        var snapshot: Snapshot?
        /// The snapshot's rows in order (what a row-level merge starts from; kept so that it is
        /// not read back out of the snapshot each time).
        var items: [Item] = []
        /// Row-level applies since the last full query.
        var rowLevelApplies = 0
        var waiting: [CheckedContinuation<LiveList<Section, Item>, Never>] = []
        init(list: LiveList<Section, Item>) { self.list = list }
    }

    /// Everything the tasks of ``run()`` and callers share, behind one lock.
    private final class State: @unchecked Sendable {
        struct Value {
            var targets: [Scope: Target] = [:]
            var statistics = LiveQueryStatistics()
            /// Wakes the current connection's refresher (nil while disconnected).
            var signal: AsyncStream<Void>.Continuation?
            /// The current connection's session: only its refreshes are applied.
            var session = 0
            /// Row-level mode: keys notified since the last refresh began.
            var pendingKeys = Set<Int>()
            /// A notification since then asked for full queries (no keys, overflow, reconnect).
            var pendingFull = false
        }
        private let lock = NSLock()
        private var value = Value()
        func locked<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
    }
}

/// What a live query has done so far.
public struct LiveQueryStatistics: Sendable, Equatable {
    /// Connections opened (one more after each loss).
    public var connections = 0
    /// Notifications received.
    public var notifications = 0
    /// Times a query ran and its rows were applied.
    public var refreshes = 0
    /// Of ``refreshes``, those that merged re-read rows (row-level mode) instead of querying.
    public var rowLevelRefreshes = 0
    /// Row-level mode: full queries run as periodic checks after row-level applies.
    public var fullChecks = 0
    /// Of ``fullChecks``, those whose result differed from the merged rows (a wrong comparator
    /// or rows query; or, while writes go on, commits whose notification was still on its way).
    public var fullCheckDifferences = 0
    /// Rows skipped because their item was already in the result.
    public var duplicatesSkipped = 0
    /// The last error that ended a connection, if any.
    public var lastError: String?
}

/// SQL identifiers as DiffablePostgres accepts them for channels and tables.
enum SQLIdentifier {
    /// Letters, digits and `_`, not starting with a digit, at most 63 bytes (PostgreSQL's limit):
    /// safe to put in SQL text unquoted.
    /// - Complexity: O(length).
    static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first), name.utf8.count <= 63 else { return false }
        return name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F }
    }
}
