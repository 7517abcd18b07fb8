import Diffable
import DiffablePostgres
import DiffableWeb
import Foundation
import PostgresNIO

/// `LiveQuery`'s row-level mode: the one-scope API passes `rowLevel` to the same engine as
/// `ScopedLiveQuery`. With the periodic full check off, after inserts, re-ranks and deletes the
/// list equals a direct `SELECT` while every refresh after the first was a merge of re-read rows.
enum LiveQueryRowLevel {
    static let sql = "SELECT id, name, score FROM solo ORDER BY score DESC, id"

    static func run(admin: PostgresConnection, configuration: PostgresConnection.Configuration, logger: Logger) async throws {
        func execute(_ statement: String) async throws { try await admin.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
        @Sendable func decode(_ row: PostgresRow) throws -> Player {
            let (id, name, score) = try row.decode((Int, String, Int).self)
            return Player(id: id, name: name, score: score)
        }
        func expected() async throws -> [Player] {
            var players: [Player] = []
            for try await row in try await admin.query(PostgresQuery(unsafeSQL: sql), logger: logger) { players.append(try decode(row)) }
            return players
        }
        try await execute("DROP TABLE IF EXISTS solo")
        try await execute("CREATE TABLE solo (id integer PRIMARY KEY, name text NOT NULL, score integer NOT NULL)")
        for statement in RowLevelChanges<Void, Player>.triggerSQL(table: "solo", channel: "solo_changed", key: "id") {
            try await execute(statement)
        }
        try await execute("INSERT INTO solo SELECT n, 'solo ' || n, (n * 31) % 97 FROM generate_series(1, 100) AS n")

        let live = LiveQuery(
            list: LiveList<Int, Player>(matchingItemsByID: .reconfigure, render: { .text("\($0.name) \($0.score)") }),
            configuration: configuration, section: 0, query: sql, channel: "solo_changed", retryDelay: .milliseconds(200),
            logger: logger, decode: decode,
            rowLevel: RowLevelChanges(
                rowsQuery: { _, ids in "SELECT id, name, score FROM solo WHERE id = ANY(\(ids))" }, id: { $0.id },
                areInIncreasingOrder: { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }, fullCheckInterval: Int.max))
        let runner = Task { await live.run() }
        defer { runner.cancel() }

        func converged(_ what: String) async throws {
            let want = try await expected()
            for _ in 0..<400 {
                if live.current?.itemIdentifiers == want { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            check(live.current?.itemIdentifiers == want, "LiveQuery, row-level: \(what): the list equals the query (\(want.count) rows)")
        }
        try await converged("100 rows")
        let first = live.statistics
        for n in 1...20 { try await execute("UPDATE solo SET score = score + \(n * 11) WHERE id = \(n * 4)") }
        try await execute("INSERT INTO solo VALUES (500, 'newcomer', 60), (501, 'another', 3)")
        try await execute("DELETE FROM solo WHERE id % 9 = 0")
        try await converged("20 re-ranks, 2 inserts, 11 deletes")
        let after = live.statistics
        let fullQueries = (after.refreshes - after.rowLevelRefreshes) - (first.refreshes - first.rowLevelRefreshes)
        check(
            after.rowLevelRefreshes > first.rowLevelRefreshes && fullQueries == 0,
            "LiveQuery, row-level: \(after.rowLevelRefreshes - first.rowLevelRefreshes) merges and \(fullQueries) full queries after the first"
        )
    }
}
