import Diffable
import DiffableWeb
import Foundation
import PostgresNIO

/// Keeps one section of a ``LiveList`` equal to the rows of an ordered SQL query, live.
///
/// ```swift
/// for statement in LiveQuery<Int, Player>.triggerSQL(table: "players", channel: "players_changed") {
///     try await admin.query(PostgresQuery(unsafeSQL: statement), logger: logger)   // once
/// }
/// let live = LiveQuery(list: board, configuration: configuration, section: 0,
///     query: "SELECT id, name, score FROM players ORDER BY score DESC, id", channel: "players_changed") { row in
///     let (id, name, score) = try row.decode((Int, String, Int).self)
///     return Player(id: id, name: name, score: score)
/// }
/// Task { await live.run() }     // until cancelled
/// ```
///
/// **How changes arrive.** ``run()`` opens its own connection, runs `LISTEN channel`, then the
/// query, and applies its rows to the list as one section (``LiveList/apply(_:completion:)``:
/// browsers get only the difference). A trigger on the table (``triggerSQL(table:channel:)``)
/// sends `NOTIFY channel` after every statement that changes it; each notification runs the
/// query again. Notifications that arrive while a query runs are **coalesced** into one more
/// query, so a burst of writes costs at most two. Because `LISTEN` is active before the first
/// query, no committed change is missed between the two.
///
/// **Healing.** When the connection is lost (the server restarted, the backend was
/// terminated, the network failed), ``run()`` connects again after ``retryDelay``, listens
/// again and runs the query again: whatever changed meanwhile reaches the browsers as one
/// difference. Browsers stay connected to the web server throughout.
///
/// Rows whose item equals one seen earlier in the same result are skipped (a snapshot holds each
/// item once) and counted in ``Statistics/duplicatesSkipped``.
public final class LiveQuery<Section: Hashable & Sendable, Item: Hashable & Sendable>: Sendable {
    public typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>

    /// What the query has done so far.
    public struct Statistics: Sendable, Equatable {
        /// Connections opened (one more after each loss).
        public var connections = 0
        /// Notifications received.
        public var notifications = 0
        /// Times the query ran and its rows were applied.
        public var refreshes = 0
        /// Rows skipped because their item was already in the result.
        public var duplicatesSkipped = 0
        /// The last error that ended a connection, if any.
        public var lastError: String?
    }

    public let list: LiveList<Section, Item>
    /// How long ``run()`` waits before connecting again after a failure.
    public let retryDelay: Duration
    private let configuration: PostgresConnection.Configuration
    private let section: Section
    private let sql: String
    private let channel: String
    private let decode: @Sendable (PostgresRow) throws -> Item
    private let logger: Logger
    private let state = LockedState()

    /// - Parameters:
    ///   - list: the list to keep equal to the query (its other sections are replaced: the
    ///     applied snapshot has `section` only).
    ///   - configuration: where and as whom to connect (a dedicated connection: it listens).
    ///   - section: the section the rows go in.
    ///   - query: a `SELECT` with an `ORDER BY` that makes the order total (the list shows the
    ///     rows in the order the server returns them).
    ///   - channel: the channel the table's trigger notifies (an SQL identifier).
    ///   - decode: the item for one row.
    /// - Complexity: O(1).
    public init(
        list: LiveList<Section, Item>, configuration: PostgresConnection.Configuration, section: Section, query: String,
        channel: String, retryDelay: Duration = .seconds(1), logger: Logger = Logger(label: "DiffablePostgres"),
        decode: @escaping @Sendable (PostgresRow) throws -> Item
    ) {
        precondition(Self.isIdentifier(channel), "LiveQuery: channel must be an SQL identifier (letters, digits, _), not \(channel)")
        self.list = list
        self.configuration = configuration
        self.section = section
        self.sql = query
        self.channel = channel
        self.retryDelay = retryDelay
        self.logger = logger
        self.decode = decode
    }

    /// The statements that make `table` notify `channel` after every statement that inserts,
    /// updates, deletes or truncates rows (one notification per statement, not per row, with
    /// an empty payload). Run them once, e.g. in a migration; running them again replaces them.
    /// - Precondition: `table` and `channel` are SQL identifiers (letters, digits and `_`;
    ///   `table` may be `schema.table`).
    /// - Complexity: O(1).
    public static func triggerSQL(table: String, channel: String) -> [String] {
        precondition(table.split(separator: ".").allSatisfy { isIdentifier(String($0)) }, "LiveQuery: not a table name: \(table)")
        precondition(isIdentifier(channel), "LiveQuery: not a channel name: \(channel)")
        let function = "diffable_notify_\(channel)"
        return [
            """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('\(channel)', ''); RETURN NULL; END $$
            """,
            "DROP TRIGGER IF EXISTS \(channel)_changed ON \(table)",
            """
            CREATE TRIGGER \(channel)_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(table)
            FOR EACH STATEMENT EXECUTE FUNCTION \(function)()
            """,
        ]
    }

    /// What the query has done so far. - Complexity: O(1).
    public var statistics: Statistics { state.statistics }

    /// The rows last applied to the list (what the browsers converge to). - Complexity: O(1).
    public var current: Snapshot? { state.current }

    /// Connects, listens and keeps the list equal to the query until the task is cancelled;
    /// after a failure, connects again (every ``retryDelay``) and queries again.
    /// - Complexity: per notification (coalesced), the query and O(rows) to decode and build
    ///   the snapshot, plus the list's apply.
    public func run() async {
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                try await session(id: attempt)
            } catch {
                if Task.isCancelled { break }
                state.update { $0.lastError = String(reflecting: error) }
                logger.warning("DiffablePostgres: connection lost (\(error)); connecting again in \(retryDelay)")
            }
            if Task.isCancelled { break }
            try? await Task.sleep(for: retryDelay)
        }
    }

    /// One connection's life: LISTEN, query, then a query per (coalesced) notification, until
    /// the connection fails or the task is cancelled.
    private func session(id: Int) async throws {
        let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        state.update { $0.connections += 1 }
        do {
            try await connection.listen(on: channel) { notifications in
                // One pending refresh at most: notifications during a query fold into one more.
                let (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                signal.yield()  // the first query, now that LISTEN is active
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await _ in notifications {
                            self.state.update { $0.notifications += 1 }
                            signal.yield()
                        }
                        throw ConnectionEnded()
                    }
                    group.addTask {
                        for await _ in signals { try await self.refresh(on: connection) }
                    }
                    defer { group.cancelAll() }
                    try await group.next()
                    throw ConnectionEnded()
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Runs the query and applies its rows.
    private func refresh(on connection: PostgresConnection) async throws {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        var items: [Item] = []
        var seen = Set<Item>()
        var skipped = 0
        for try await row in rows {
            let item = try decode(row)
            if seen.insert(item).inserted { items.append(item) } else { skipped += 1 }
        }
        var snapshot = Snapshot()
        snapshot.appendSections([section])
        snapshot.appendItems(items, toSection: section)
        state.update {
            $0.refreshes += 1
            $0.duplicatesSkipped += skipped
        }
        state.setCurrent(snapshot)
        // Not awaited: a slow browser must not hold back the next query (the list's views
        // coalesce what they have not sent yet).
        list.apply(snapshot, completion: nil)
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first), name.utf8.count <= 63 else { return false }
        return name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F }
    }

    private struct ConnectionEnded: Error, CustomStringConvertible {
        var description: String { "the connection ended" }
    }

    /// The statistics and the last snapshot, shared by the tasks of ``run()`` and readers.
    private final class LockedState: @unchecked Sendable {
        private let lock = NSLock()
        private var stats = Statistics()
        private var snapshot: Snapshot?
        var statistics: Statistics { lock.withLock { stats } }
        var current: Snapshot? { lock.withLock { snapshot } }
        func update(_ change: (inout Statistics) -> Void) { lock.withLock { change(&stats) } }
        func setCurrent(_ value: Snapshot) { lock.withLock { snapshot = value } }
    }
}
