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
/// item once) and counted in ``LiveQueryStatistics/duplicatesSkipped``.
///
/// **Row-level mode** (opt-in, `rowLevel:`) re-reads only the rows a notification names and
/// merges them into the current result, as ``ScopedLiveQuery`` does (see ``RowLevelChanges``).
///
/// For one list per viewer scope (the query filtered by a bound parameter), see
/// ``ScopedLiveQuery``: this is its one-scope case.
public final class LiveQuery<Section: Hashable & Sendable, Item: Hashable & Sendable>: Sendable {
    public typealias Snapshot = DiffableDataSourceSnapshot<Section, Item>
    public typealias Statistics = LiveQueryStatistics

    public let list: LiveList<Section, Item>
    /// How long ``run()`` waits before connecting again after a failure.
    public var retryDelay: Duration { engine.retryDelay }
    /// The one scope (a live query without scoping is a scoped one with a single scope).
    private let engine: ScopedLiveQuery<Int, Section, Item>

    /// - Parameters:
    ///   - list: the list to keep equal to the query (its other sections are replaced: the
    ///     applied snapshot has `section` only).
    ///   - configuration: where and as whom to connect (a dedicated connection: it listens).
    ///   - section: the section the rows go in.
    ///   - query: a `SELECT` with an `ORDER BY` that makes the order total (the list shows the
    ///     rows in the order the server returns them). Values belong in bound parameters:
    ///     use ``ScopedLiveQuery`` for a query that takes one.
    ///   - channel: the channel the table's trigger notifies (an SQL identifier).
    ///   - decode: the item for one row.
    ///   - rowLevel: nil (the default) to run the whole query per notification; else how to
    ///     re-read and merge only the notified rows (``RowLevelChanges``, its scope `Void`:
    ///     `rowsQuery: { _, ids in "… WHERE id = ANY(\(ids))" }`), with the trigger of
    ///     ``RowLevelChanges/triggerSQL(table:channel:key:)``.
    /// - Complexity: O(1).
    public init(
        list: LiveList<Section, Item>, configuration: PostgresConnection.Configuration, section: Section, query: String,
        channel: String, retryDelay: Duration = .seconds(1), logger: Logger = Logger(label: "DiffablePostgres"),
        decode: @escaping @Sendable (PostgresRow) throws -> Item, rowLevel: RowLevelChanges<Void, Item>? = nil
    ) {
        self.list = list
        engine = ScopedLiveQuery(
            configuration: configuration, channel: channel, section: section, retryDelay: retryDelay, logger: logger,
            makeList: { _ in list }, query: { _ in PostgresQuery(unsafeSQL: query) }, decode: decode,
            rowLevel: rowLevel?.forAnyScope())
        _ = engine.registeredList(for: 0)
    }

    /// The statements that make `table` notify `channel` after every statement that inserts,
    /// updates, deletes or truncates rows (one notification per statement, not per row, with
    /// an empty payload; PostgreSQL folds a transaction's identical notifications into one).
    /// Run them once, e.g. in a migration; running them again replaces them.
    /// - Precondition: `table` and `channel` are SQL identifiers (letters, digits and `_`;
    ///   `table` may be `schema.table`).
    /// - Complexity: O(1).
    public static func triggerSQL(table: String, channel: String) -> [String] {
        precondition(table.split(separator: ".").allSatisfy { SQLIdentifier.isValid(String($0)) }, "LiveQuery: not a table name: \(table)")
        precondition(SQLIdentifier.isValid(channel), "LiveQuery: not a channel name: \(channel)")
        let function = "diffable_notify_\(channel)"
        return [
            """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('\(channel)', ''); RETURN NULL; END $$
            """,
            "DROP TRIGGER IF EXISTS \(channel)_changed ON \(table)",
            // The row-level mode's triggers (RowLevelChanges.triggerSQL), if they were installed.
            "DROP TRIGGER IF EXISTS \(channel)_rows_insert ON \(table)",
            "DROP TRIGGER IF EXISTS \(channel)_rows_update ON \(table)",
            "DROP TRIGGER IF EXISTS \(channel)_rows_delete ON \(table)",
            """
            CREATE TRIGGER \(channel)_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(table)
            FOR EACH STATEMENT EXECUTE FUNCTION \(function)()
            """,
        ]
    }

    /// What the query has done so far. - Complexity: O(1).
    public var statistics: Statistics { engine.statistics }

    /// The rows last applied to the list (what the browsers converge to). - Complexity: O(1).
    public var current: Snapshot? { engine.current(for: 0) }

    /// Connects, listens and keeps the list equal to the query until the task is cancelled;
    /// after a failure, connects again (every ``retryDelay``) and queries again.
    /// - Complexity: per notification (coalesced), the query and O(rows) to decode and build
    ///   the snapshot, plus the list's apply.
    public func run() async { await engine.run() }
}
