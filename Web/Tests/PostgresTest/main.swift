// DiffablePostgres against a live server (make web-postgres-test starts a throwaway cluster on
// loopback and stops it afterwards): a LiveQuery keeps a LiveList equal to an ordered query
// while rows are inserted, updated in a burst (coalesced) and deleted, and heals after its
// connection is terminated (changes made meanwhile arrive once it is back); ScopeToken signs,
// verifies and refuses tokens; the row-level mode (RowLevelProof.swift) equals the full query.
// Exits 1 on a failure.
import Diffable
import DiffablePostgres
import DiffableWeb
import Foundation
import PostgresNIO

struct Player: Hashable, Sendable, Identifiable {
    let id: Int
    var name: String
    var score: Int
}

let environment = ProcessInfo.processInfo.environment
let configuration = PostgresConnection.Configuration(
    host: environment["PGHOST"] ?? "127.0.0.1", port: Int(environment["PGPORT"] ?? "") ?? 5432,
    username: environment["PGUSER"] ?? "postgres", password: nil, database: environment["PGDATABASE"] ?? "postgres", tls: .disable)
var logger = Logger(label: "diffable-postgres-test")
logger.logLevel = .error
let sql = "SELECT id, name, score FROM players ORDER BY score DESC, id"

nonisolated(unsafe) var failures = 0
nonisolated(unsafe) var checks = 0
func check(_ condition: Bool, _ what: String) {
    checks += 1
    print((condition ? "ok: " : "FAILED: ") + what)
    if !condition { failures += 1 }
}

let admin = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
func run(_ statement: String) async throws { try await admin.query(PostgresQuery(unsafeSQL: statement), logger: logger) }

/// The query's rows, read on the admin connection.
func expected() async throws -> [Player] {
    var players: [Player] = []
    for try await (id, name, score) in try await admin.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode((Int, String, Int).self)
    {
        players.append(Player(id: id, name: name, score: score))
    }
    return players
}

try await run("DROP TABLE IF EXISTS players")
try await run("CREATE TABLE players (id integer PRIMARY KEY, name text NOT NULL, score integer NOT NULL)")
for statement in LiveQuery<Int, Player>.triggerSQL(table: "players", channel: "players_changed") { try await run(statement) }

let board = LiveList<Int, Player>(matchingItemsByID: .reconfigure, render: { .text("\($0.name) \($0.score)") })
let live = LiveQuery(
    list: board, configuration: configuration, section: 0, query: sql, channel: "players_changed", retryDelay: .milliseconds(200),
    logger: logger
) { row in
    let (id, name, score) = try row.decode((Int, String, Int).self)
    return Player(id: id, name: name, score: score)
}
let runner = Task { await live.run() }

/// Waits (up to 20 s) until the live query last applied exactly the query's current rows.
func converged(_ what: String) async throws {
    let want = try await expected()
    for _ in 0..<400 {
        if live.current?.itemIdentifiers == want {
            check(true, "\(what): the list equals the query (\(want.count) rows)")
            return
        }
        try await Task.sleep(for: .milliseconds(50))
    }
    check(false, "\(what): the list has \(live.current?.numberOfItems ?? -1) rows, the query \(want.count)")
}

try await converged("empty table")
try await run("INSERT INTO players SELECT n, 'player ' || n, (n * 7919) % 1000 FROM generate_series(1, 200) AS n")
try await converged("200 inserted")

let before = live.statistics
for n in 1...50 { try await run("UPDATE players SET score = score + \(n * 13) WHERE id = \(n * 3)") }
try await converged("50 updates, one statement each")
let burst = live.statistics
check(burst.notifications - before.notifications >= 1, "the burst notified (\(burst.notifications - before.notifications) notifications)")
check(
    burst.refreshes - before.refreshes <= 50, "the burst cost \(burst.refreshes - before.refreshes) queries for 50 statements (coalesced)")

try await run("DELETE FROM players WHERE id % 5 = 0")
try await converged("40 deleted")

// Healing: terminate the live query's backend, change rows while it reconnects.
let connectionsBefore = live.statistics.connections
try await run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database()")
try await run("UPDATE players SET score = 5000 WHERE id = 7")
try await run("INSERT INTO players VALUES (1000, 'newcomer', 4000)")
try await converged("changes made while its connection was down")
check(live.statistics.connections > connectionsBefore, "it connected again (\(live.statistics.connections) connections in all)")

// Row-level mode: after random writes (inserts, re-ranks, scope changes, key changes, deletes,
// an overflowing burst, a truncate), every scope's merged list equals a direct SELECT.
try await RowLevelProof.run(admin: admin, configuration: configuration, logger: logger)
// The same mode through LiveQuery, the one-scope API.
try await LiveQueryRowLevel.run(admin: admin, configuration: configuration, logger: logger)

// ScopeToken: what the live-database suite's viewers present (its tokens are minted in Python).
let signer = try ScopeToken.Signer(secret: Array("0123456789abcdef0123456789abcdef".utf8))
let token = signer.sign(scope: "red team", validFor: .seconds(60))
check((try? signer.verify(token)) == "red team", "a token verifies to its scope")
func refusal(_ token: String, now: Date = Date()) -> ScopeToken.Refusal.Kind? {
    do {
        _ = try signer.verify(token, now: now)
        return nil
    } catch { return error.kind }
}
let parts = token.split(separator: ".")
let edited = ["v1", "Ymx1ZQ", String(parts[2]), String(parts[3])].joined(separator: ".")
check(refusal(edited) == .badSignature, "a token whose scope was edited is refused (bad signature)")
check(refusal(token, now: Date().addingTimeInterval(120)) == .expired, "an expired token is refused")
check(refusal("v1.cmVk") == .malformed && refusal(String(repeating: "x", count: 5000)) == .malformed, "malformed tokens are refused")
check((try? ScopeToken.Signer(secret: Array("short".utf8))) == nil, "a signing secret under 32 bytes is refused")

runner.cancel()
await runner.value
try await admin.close().get()
print("statistics: \(live.statistics)")
print("PostgreSQL: \(checks - failures) passed, \(failures) failed")
exit(failures == 0 ? 0 : 1)
