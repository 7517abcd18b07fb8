import Diffable
import PostgresNIO

/// The opt-in row-level mode of ``ScopedLiveQuery``: notifications name the changed primary
/// keys, and each scope re-reads only those rows and merges them into its ordered result
/// instead of running its whole query again.
///
/// ```swift
/// for statement in RowLevelChanges<String, PlayerRow>.triggerSQL(table: "players", channel: "players_changed", key: "id") {
///     try await admin.query(PostgresQuery(unsafeSQL: statement), logger: logger)   // once
/// }
/// let rows = RowLevelChanges<String, PlayerRow>(
///     rowsQuery: { team, ids in "SELECT id, name, team, score FROM players WHERE id = ANY(\(ids)) AND team = \(team)" },
///     id: { $0.id },
///     areInIncreasingOrder: { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id })  // ORDER BY score DESC, id
/// ```
///
/// **When it equals the full query.** `rowsQuery` must select the same columns under the same
/// filter as the scope's query, restricted to the given keys, and `areInIncreasingOrder` must be
/// the query's `ORDER BY` as a strict total order (end it on the key). Then every row is either
/// re-read after its last change (its key was notified; a deleted or out-of-scope row is simply
/// not returned and is removed) or unchanged, so the merged list equals the query's result at
/// the last commit. Whatever this cannot vouch for falls back to the full query: a notification
/// without keys (`TRUNCATE`, the plain trigger of ``LiveQuery/triggerSQL(table:channel:)``), a
/// payload the trigger replaced by the overflow marker `*` (more keys than fit in NOTIFY's
/// 8000 bytes), a payload that does not parse, a new scope, and every reconnect (notifications
/// sent while the connection was down are lost). Every ``fullCheckInterval`` row-level applies,
/// the full query runs anyway and its result replaces the merged one; a difference (a comparator
/// that disagrees with `ORDER BY`, e.g. on text collation) is counted in
/// ``LiveQueryStatistics/fullCheckDifferences``.
public struct RowLevelChanges<Scope: Sendable, Item: Sendable>: Sendable {
    /// The scope's query restricted to the keys (bound as an `integer[]`/`bigint[]` parameter).
    public let rowsQuery: @Sendable (Scope, [Int]) -> PostgresQuery
    /// An item's primary key, as the trigger notifies it.
    public let id: @Sendable (Item) -> Int
    /// The query's `ORDER BY` as a strict total order.
    public let areInIncreasingOrder: @Sendable (Item, Item) -> Bool
    /// Row-level applies between two full queries that check (and, if needed, repair) the result.
    public let fullCheckInterval: Int

    /// - Precondition: `fullCheckInterval` > 0.
    /// - Complexity: O(1).
    public init(
        rowsQuery: @escaping @Sendable (Scope, [Int]) -> PostgresQuery, id: @escaping @Sendable (Item) -> Int,
        areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool, fullCheckInterval: Int = 100
    ) {
        precondition(fullCheckInterval > 0, "RowLevelChanges: fullCheckInterval must be positive, not \(fullCheckInterval)")
        self.rowsQuery = rowsQuery
        self.id = id
        self.areInIncreasingOrder = areInIncreasingOrder
        self.fullCheckInterval = fullCheckInterval
    }

    /// The same mode for a query without a scope (``LiveQuery``'s): every scope reads the same rows.
    /// - Complexity: O(1).
    func forAnyScope<Other: Sendable>() -> RowLevelChanges<Other, Item> where Scope == Void {
        let rowsQuery = rowsQuery
        return RowLevelChanges<Other, Item>(
            rowsQuery: { _, keys in rowsQuery((), keys) }, id: id, areInIncreasingOrder: areInIncreasingOrder,
            fullCheckInterval: fullCheckInterval)
    }

    /// The payload the trigger sends instead of keys that do not fit in one notification.
    public static var overflowMarker: String { "*" }

    /// The largest key list the trigger sends (NOTIFY refuses payloads of 8000 bytes or more).
    static var payloadLimit: Int { 7900 }

    /// The statements that make `table` notify `channel` with the changed rows' keys: one
    /// statement-level trigger per `INSERT`, `UPDATE` and `DELETE` reading its transition tables
    /// (an update notifies old and new keys, so a changed key removes the old row), the keys
    /// comma-separated, or ``overflowMarker`` when they exceed 7900 bytes; `TRUNCATE` notifies
    /// with an empty payload (a full query). Replaces the plain trigger of
    /// ``LiveQuery/triggerSQL(table:channel:)`` (whose listeners keep working: any payload makes
    /// them query). Run them once, e.g. in a migration.
    /// - Precondition: `table`, `channel` and `key` are SQL identifiers (`table` may be `schema.table`);
    ///   `key` is an integer column that identifies a row.
    /// - Complexity: O(1); per statement on the table, O(changed rows) in the database.
    public static func triggerSQL(table: String, channel: String, key: String) -> [String] {
        precondition(
            table.split(separator: ".").allSatisfy { SQLIdentifier.isValid(String($0)) }, "RowLevelChanges: not a table name: \(table)")
        precondition(SQLIdentifier.isValid(channel), "RowLevelChanges: not a channel name: \(channel)")
        precondition(SQLIdentifier.isValid(key), "RowLevelChanges: not a column name: \(key)")
        let function = "diffable_notify_rows_\(channel)"
        let keys = { (tables: String) in "SELECT string_agg(DISTINCT k::text, ',') INTO keys FROM (\(tables)) AS changed(k)" }
        var statements = [
            """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE keys text;
            BEGIN
              IF TG_OP = 'INSERT' THEN \(keys("SELECT \(key) FROM diffable_new"));
              ELSIF TG_OP = 'DELETE' THEN \(keys("SELECT \(key) FROM diffable_old"));
              ELSE \(keys("SELECT \(key) FROM diffable_new UNION SELECT \(key) FROM diffable_old"));
              END IF;
              IF keys IS NULL THEN RETURN NULL; END IF;
              IF octet_length(keys) > \(payloadLimit) THEN keys := '\(overflowMarker)'; END IF;
              PERFORM pg_notify('\(channel)', keys);
              RETURN NULL;
            END $$
            """,
            "CREATE OR REPLACE FUNCTION diffable_notify_\(channel)() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('\(channel)', ''); RETURN NULL; END $$",
            "DROP TRIGGER IF EXISTS \(channel)_changed ON \(table)",
            "CREATE TRIGGER \(channel)_changed AFTER TRUNCATE ON \(table) FOR EACH STATEMENT EXECUTE FUNCTION diffable_notify_\(channel)()",
        ]
        let referencing = [
            "insert": "NEW TABLE AS diffable_new", "update": "OLD TABLE AS diffable_old NEW TABLE AS diffable_new",
            "delete": "OLD TABLE AS diffable_old",
        ]
        for operation in ["insert", "update", "delete"] {
            statements.append("DROP TRIGGER IF EXISTS \(channel)_rows_\(operation) ON \(table)")
            statements.append(
                """
                CREATE TRIGGER \(channel)_rows_\(operation) AFTER \(operation.uppercased()) ON \(table)
                REFERENCING \(referencing[operation]!) FOR EACH STATEMENT EXECUTE FUNCTION \(function)()
                """)
        }
        return statements
    }

    /// The keys of a notification's payload, nil when it asks for a full query (empty, the
    /// overflow marker, or not a comma-separated list of integers).
    /// - Complexity: O(payload length).
    static func keys(in payload: String) -> [Int]? {
        guard !payload.isEmpty, payload != overflowMarker else { return nil }
        var keys: [Int] = []
        for part in payload.split(separator: ",", omittingEmptySubsequences: false) {
            guard let key = Int(part) else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// `current` (ordered by ``areInIncreasingOrder``) with the rows of `changed` replaced by
    /// `fresh`, the rows re-read for those keys (a key without a fresh row was deleted or left
    /// the scope), each at its sorted position.
    /// - Complexity: O(n + k log k) for n current and k fresh rows.
    func merge(_ current: [Item], changed: Set<Int>, fresh: [Item]) -> [Item] {
        let inserted = fresh.sorted(by: areInIncreasingOrder)
        var merged: [Item] = []
        merged.reserveCapacity(current.count + inserted.count)
        var next = 0
        for item in current where !changed.contains(id(item)) {
            while next < inserted.count, areInIncreasingOrder(inserted[next], item) {
                merged.append(inserted[next])
                next += 1
            }
            merged.append(item)
        }
        merged.append(contentsOf: inserted[next...])
        return merged
    }
}
