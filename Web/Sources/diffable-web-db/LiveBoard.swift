import Diffable
import DiffablePostgres
import DiffableWeb
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import PostgresNIO
import WebServing

/// One player row of the `players` table.
struct PlayerRow: Hashable, Sendable, Identifiable {
    let id: Int
    var name: String
    var team: String
    var score: Int
    /// The writer's commit number that last changed the row (the benchmark's clock).
    var tag: Int
}

extension PlayerRow {
    /// The integers only: every apply hashes each of the 10^4 rows several times, and the name
    /// and team strings would cost most of that. Rows that are equal still hash equal.
    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(score)
        hasher.combine(tag)
    }

    /// A row of `SELECT id, name, team, score, tag`. Column by column: decoding the five as one
    /// tuple looks up the tuple's generic metadata for every row (a tenth of a refresh's time).
    init(row: PostgresRow) throws {
        var cells = row.makeIterator()
        func next() throws -> PostgresCell {
            guard let cell = cells.next() else { throw MissingColumn() }
            return cell
        }
        id = try next().decode(Int.self)
        name = try next().decode(String.self)
        team = try next().decode(String.self)
        score = try next().decode(Int.self)
        tag = try next().decode(Int.self)
    }

    struct MissingColumn: Error, CustomStringConvertible {
        var description: String { "the row has fewer than the five columns id, name, team, score, tag" }
    }
}

/// The leaderboard on PostgreSQL: each viewer sees the players of the team its signed cookie
/// names, ordered by score, kept live by a ``ScopedLiveQuery`` (the team bound as `$1`).
struct LiveBoard {
    static let table = "players"
    static let channel = "players_changed"
    static let cookieName = "diffable_scope"
    static let teams = ["red", "green", "blue", "gold"]

    let database: DatabaseSettings
    let secret: [UInt8]
    let peerPorts: [Int]
    let demoLogin: Bool
    /// Re-read only the notified rows (``RowLevelChanges``) instead of each team's whole query.
    let rowLevel: Bool

    /// The table (if missing) and the library's trigger on it (the row-level one, which serves
    /// both modes, if `rowLevel`).
    static func setUp(_ database: DatabaseSettings, rowLevel: Bool) async throws {
        let logger = Logger(label: "diffable-web-db")
        let connection = try await PostgresConnection.connect(configuration: database.configuration, id: 1, logger: logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS players (id integer PRIMARY KEY, name text NOT NULL, team text NOT NULL,
                score integer NOT NULL, tag integer NOT NULL DEFAULT 0)
            """, logger: logger)
        try await connection.query("CREATE INDEX IF NOT EXISTS players_by_team ON players (team, score DESC, id)", logger: logger)
        let trigger =
            rowLevel
            ? RowLevelChanges<String, PlayerRow>.triggerSQL(table: table, channel: channel, key: "id")
            : LiveQuery<Int, PlayerRow>.triggerSQL(table: table, channel: channel)
        for statement in trigger {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        try await connection.close()
        print("diffable-web-db setup: table \(table), \(rowLevel ? "row-level " : "")trigger notifying \(channel)")
    }

    func run(port: Int) async throws {
        let logger = {
            var logger = Logger(label: "diffable-web-db")
            logger.logLevel = .notice
            return logger
        }()
        let signer = try ScopeToken.Signer(secret: secret)
        let live = ScopedLiveQuery<String, Int, PlayerRow>(
            configuration: database.configuration, channel: Self.channel, section: 0, retryDelay: .milliseconds(250), logger: logger,
            makeList: { _ in
                let list = LiveList<Int, PlayerRow>(matchingItemsByID: .reconfigure, render: Self.render)
                list.logger = logger
                return list
            },
            query: { team in "SELECT id, name, team, score, tag FROM players WHERE team = \(team) ORDER BY score DESC, id" },
            decode: PlayerRow.init(row:),
            rowLevel: rowLevel
                ? RowLevelChanges(
                    rowsQuery: { team, ids in "SELECT id, name, team, score, tag FROM players WHERE id = ANY(\(ids)) AND team = \(team)" },
                    id: { $0.id }, areInIncreasingOrder: Self.isRanked(_:before:)) : nil)
        let lists = ScopedLiveLists<String, Int, PlayerRow>(
            authenticateUntil: { request in
                guard let token = cookie(named: Self.cookieName, in: request) else { throw MissingCookie() }
                let claims = try signer.claims(of: token)
                return (claims.scope, claims.expiresAt)
            },
            list: { team in await live.list(for: team) })
        lists.allowedOrigins = Set(peerPorts.map { "http://127.0.0.1:\($0)" })
        lists.logger = logger

        let router = Router(context: BasicWebSocketRequestContext.self)
        lists.mount(on: router, at: "/board")
        router.get("/") { request, _ in
            guard let token = cookie(named: Self.cookieName, in: request), let team = try? signer.verify(token) else {
                return htmlResponse(Self.signInPage(demoLogin: demoLogin))
            }
            return htmlResponse(Self.page(team: team, peerPorts: peerPorts))
        }
        router.get("/healthz") { _, _ in
            live.isListening ? Response(status: .ok) : Response(status: .serviceUnavailable)
        }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        if demoLogin {
            router.get("/login") { request, _ in
                guard let team = request.uri.queryParameters.get("team"), Self.teams.contains(team) else {
                    throw HTTPError(.badRequest, message: "team must be one of \(Self.teams.joined(separator: ", "))")
                }
                let token = signer.sign(scope: team, validFor: .seconds(12 * 3600))
                return Response(
                    status: .seeOther,
                    headers: [.location: "/", .setCookie: "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"])
            }
        }
        let watcher = Task { await live.run() }
        defer { watcher.cancel() }
        try await runServer(router, port: port, page: "/", name: "diffable-web-db serve")
    }

    /// `ORDER BY score DESC, id` in Swift.
    @Sendable static func isRanked(_ first: PlayerRow, before second: PlayerRow) -> Bool {
        first.score != second.score ? first.score > second.score : first.id < second.id
    }

    struct MissingCookie: Error, CustomStringConvertible {
        var description: String { "no \(LiveBoard.cookieName) cookie" }
    }

    /// A row: the name carries the id, team and tag for programs that check the list.
    @Sendable static func render(_ player: PlayerRow) -> RemoteRow {
        .rawHTML(
            #"<span class="name" data-id="\#(player.id)" data-team="\#(HTMLEscaping.escape(player.team))" data-tag="\#(player.tag)">"#
                + #"\#(HTMLEscaping.escape(player.name))</span><span class="score">\#(player.score)</span>"#)
    }

    static func signInPage(demoLogin: Bool) -> String {
        let links = demoLogin ? teams.map { #"<a href="/login?team=\#($0)">\#($0)</a>"# }.joined(separator: " · ") : "sign in first"
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Live board: sign in</title></head>
            <body style="font: 15px system-ui, sans-serif; margin: 2em">
            <p>The board shows your team's players only. Choose a team: \(links)</p></body></html>
            """
    }

    static func page(team: String, peerPorts: [Int]) -> String {
        let endpoints = (["/board/ws"] + peerPorts.map { "ws://127.0.0.1:\($0)/board/ws" }).map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Live board · \(HTMLEscaping.escape(team))</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
            header { position: sticky; top: 0; background: #1d2330; color: #fff; padding: 10px 16px; display: flex; gap: 16px; z-index: 1; }
            header h1 { font-size: 17px; margin: 0; font-weight: 600; }
            #status { font-size: 12px; opacity: .8; }
            #board { max-width: 560px; margin: 12px auto; background: #fff; border-radius: 6px; box-shadow: 0 1px 2px #0002; }
            .dl-rows { list-style: none; margin: 0; padding: 0; counter-reset: rank; }
            .dl-row { display: flex; padding: 2px 10px; border-bottom: 1px solid #f0f1f4; counter-increment: rank; }
            .dl-row::before { content: counter(rank); width: 3.2em; color: #8a90a0; }
            .dl-row .name { flex: 1; } .dl-row .score { font-variant-numeric: tabular-nums; color: #2456c8; }
            </style></head><body>
            <header><h1>Team \(HTMLEscaping.escape(team)) · live from PostgreSQL</h1><span id="status">connecting</span></header>
            <main id="board"></main>
            <script src="/board/client.js"></script>
            <script>
            const status = document.getElementById("status");
            const list = new DiffableList(document.getElementById("board"), [\(endpoints)], {
              // (window.list is set once the constructor returned; its first status comes before.)
              onStatus: (text) => { status.textContent = text + (window.list ? " · " + window.list.url.host : ""); },
            });
            window.list = list;
            </script></body></html>
            """
    }
}
