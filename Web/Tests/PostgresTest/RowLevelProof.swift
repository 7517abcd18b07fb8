import Diffable
import DiffablePostgres
import DiffableWeb
import Foundation
import PostgresNIO

/// A row of `ranked`: the scope is its team.
struct RankedRow: Hashable, Sendable {
    let id: Int
    var team: String
    var score: Int
}

/// Proves the row-level mode equal to the full query: a seeded random sequence of writes, and
/// after every ten statements each scope's list must equal a direct `SELECT` — with the periodic
/// full check turned off, so only merged rows can make it equal. A second query whose comparator
/// disagrees with `ORDER BY` shows that the periodic full check catches and repairs a wrong merge.
enum RowLevelProof {
    static let teams = ["a", "b", "c"]
    static let channel = "ranked_changed"

    static func decode(_ row: PostgresRow) throws -> RankedRow {
        let (id, team, score) = try row.decode((Int, String, Int).self)
        return RankedRow(id: id, team: team, score: score)
    }

    static func query(_ team: String) -> PostgresQuery { "SELECT id, team, score FROM ranked WHERE team = \(team) ORDER BY score DESC, id" }

    static func live(
        _ configuration: PostgresConnection.Configuration, logger: Logger, checkEvery: Int,
        order: @escaping @Sendable (RankedRow, RankedRow) -> Bool
    ) -> ScopedLiveQuery<String, Int, RankedRow> {
        ScopedLiveQuery<String, Int, RankedRow>(
            configuration: configuration, channel: channel, section: 0, retryDelay: .milliseconds(200), logger: logger,
            makeList: { _ in LiveList(render: { .text("\($0.id) \($0.score)") }) }, query: query, decode: decode,
            rowLevel: RowLevelChanges(
                rowsQuery: { team, ids in "SELECT id, team, score FROM ranked WHERE id = ANY(\(ids)) AND team = \(team)" },
                id: { $0.id }, areInIncreasingOrder: order, fullCheckInterval: checkEvery))
    }

    static func run(admin: PostgresConnection, configuration: PostgresConnection.Configuration, logger: Logger) async throws {
        func execute(_ statement: String) async throws { try await admin.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
        func expected(_ team: String) async throws -> [RankedRow] {
            var rows: [RankedRow] = []
            for try await row in try await admin.query(query(team), logger: logger) { rows.append(try decode(row)) }
            return rows
        }
        try await execute("DROP TABLE IF EXISTS ranked")
        try await execute("CREATE TABLE ranked (id integer PRIMARY KEY, team text NOT NULL, score integer NOT NULL)")
        for statement in RowLevelChanges<String, RankedRow>.triggerSQL(table: "ranked", channel: channel, key: "id") {
            try await execute(statement)
        }
        try await execute("INSERT INTO ranked SELECT n, chr(97 + n % 3), (n * 37) % 50 FROM generate_series(1, 300) AS n")

        let exact = live(configuration, logger: logger, checkEvery: Int.max) { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
        // Ascending where the query sorts descending: only the periodic check can make it right.
        let wrong = live(configuration, logger: logger, checkEvery: 3) { $0.score != $1.score ? $0.score < $1.score : $0.id < $1.id }
        let runners = [Task { await exact.run() }, Task { await wrong.run() }]
        for team in teams {
            _ = await exact.list(for: team)
            _ = await wrong.list(for: team)
        }

        /// Waits (up to 20 s) until every scope of `live` holds its query's rows.
        func converged(_ live: ScopedLiveQuery<String, Int, RankedRow>, _ what: String) async throws -> Bool {
            for _ in 0..<400 {
                var equal = true
                for team in teams where try await live.current(for: team)?.itemIdentifiers != expected(team) { equal = false }
                if equal { return true }
                try await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        var random = SplitMix(seed: 41)
        var nextID = 1000
        var rounds = 0
        var failedRound: Int?
        let before = exact.statistics
        for round in 1...30 {
            for _ in 0..<10 {
                let id = 1 + random.next(below: nextID)
                switch random.next(below: 7) {
                case 0:
                    nextID += 3
                    try await execute(
                        "INSERT INTO ranked SELECT n, chr(97 + n % 3), \(random.next(below: 50)) FROM generate_series(\(nextID - 2), \(nextID)) AS n"
                    )
                case 1: try await execute("UPDATE ranked SET score = \(random.next(below: 50)) WHERE id = \(id)")
                case 2: try await execute("UPDATE ranked SET score = score + 7 WHERE id % \(5 + random.next(below: 20)) = 0")
                case 3: try await execute("UPDATE ranked SET team = '\(teams[random.next(below: 3)])' WHERE id = \(id)")
                case 4: try await execute("DELETE FROM ranked WHERE id = \(id)")
                case 5:
                    nextID += 1
                    try await execute("UPDATE ranked SET id = \(nextID) WHERE id = \(id)")  // a key change
                default:
                    // One transaction, two statements: two notifications at its commit.
                    try await execute("BEGIN")
                    try await execute("DELETE FROM ranked WHERE id = \(id + 1)")
                    try await execute("UPDATE ranked SET team = 'b', score = 49 WHERE id = \(id)")
                    try await execute("COMMIT")
                }
            }
            rounds = round
            if try await !converged(exact, "round \(round)") {
                failedRound = round
                break
            }
        }
        let after = exact.statistics
        check(failedRound == nil, "row-level: after each of \(rounds) rounds of 10 random writes, all 3 scopes equal a direct SELECT")
        check(
            after.rowLevelRefreshes - before.rowLevelRefreshes >= rounds && after.fullChecks == 0,
            "row-level: \(after.rowLevelRefreshes - before.rowLevelRefreshes) merges made it so, no full check (\(after.refreshes - before.refreshes) refreshes)"
        )

        // More keys than fit in one notification: the overflow marker, then a full query.
        let full = exact.statistics.refreshes - exact.statistics.rowLevelRefreshes
        try await execute("INSERT INTO ranked SELECT n, chr(97 + n % 3), n % 50 FROM generate_series(100000, 103000) AS n")
        check(try await converged(exact, "overflow"), "row-level: a 3001-row insert (overflow marker) converges")
        check(
            exact.statistics.refreshes - exact.statistics.rowLevelRefreshes > full,
            "row-level: the overflowing payload ran the full query")
        try await execute("TRUNCATE ranked")
        try await execute("INSERT INTO ranked VALUES (1, 'a', 3), (2, 'a', 4)")
        check(try await converged(exact, "truncate"), "row-level: TRUNCATE (no keys) and an insert converge")

        // Healing: the notifications sent while the connection is down are lost; the reconnect re-queries.
        let connections = exact.statistics.connections
        try await execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database()")
        try await execute("UPDATE ranked SET team = 'c' WHERE id = 1")
        try await execute("INSERT INTO ranked VALUES (3, 'a', 9)")
        check(
            try await converged(exact, "reconnect") && exact.statistics.connections > connections,
            "row-level: changes made while its connection was down arrive after the reconnect")

        // Each no-op update notifies key 2, whose ascending merge misplaces it in team a until the
        // third apply's full query puts it back.
        var repaired = false
        for _ in 0..<30 where !repaired {
            try await execute("UPDATE ranked SET score = score WHERE id = 2")
            try await Task.sleep(for: .milliseconds(300))
            repaired = try await wrong.current(for: "a")?.itemIdentifiers == expected("a")
        }
        check(repaired, "row-level: a wrong comparator's list is repaired by the periodic full query")
        check(
            wrong.statistics.fullChecks > 0 && wrong.statistics.fullCheckDifferences > 0,
            "row-level: the periodic check ran \(wrong.statistics.fullChecks) times and caught \(wrong.statistics.fullCheckDifferences) differences"
        )
        for runner in runners { runner.cancel() }
        for runner in runners { await runner.value }
    }
}

/// A small seeded generator (SplitMix64), so a failing sequence can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
