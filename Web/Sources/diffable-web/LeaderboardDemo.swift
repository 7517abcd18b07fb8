import Diffable
import DiffableWeb
import Foundation
import WebServing
import Hummingbird
import HummingbirdWebSocket

/// One player of the demo leaderboard; `id` keeps the row while the score changes.
struct Player: Hashable, Sendable, Identifiable {
    let id: Int
    let name: String
    var score: Int
    /// The player's place in the league, set only in filtered views (where a row's position is
    /// not its rank); the whole board numbers its rows in CSS, so a re-rank resends no row.
    var rank: Int? = nil
    /// The name's UTF-8 bytes lowercased (ASCII), for the filter.
    let folded: [UInt8]

    init(id: Int, name: String, score: Int) {
        self.id = id
        self.name = name
        self.score = score
        folded = name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }

    // The name (and its folded bytes) follow from `id`: equality and hashing skip them.
    static func == (a: Player, b: Player) -> Bool { a.id == b.id && a.score == b.score && a.rank == b.rank }
    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(score)
        hasher.combine(rank)
    }

    /// Whether the name contains `needle` (lowercased UTF-8), ignoring ASCII case.
    /// - Complexity: O(name × needle) at worst; names are short.
    func nameContains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard folded.count >= needle.count else { return false }
        outer: for start in 0...(folded.count - needle.count) {
            for offset in 0..<needle.count where folded[start + offset] != needle[offset] { continue outer }
            return true
        }
        return false
    }
}

/// The demo: `rows` players in eight leagues (a section each), scores changing and every league
/// re-ranked `ticksPerSecond` times a second; the page filters by name as you type.
struct LeaderboardDemo {
    static let leagues = ["Amber", "Basalt", "Cobalt", "Dune", "Ember", "Fjord", "Granite", "Harbor"]
    let rows: Int
    let ticksPerSecond: Int

    func run(port: Int) async throws {
        let board = LiveList<Int, Player>(
            matchingItemsByID: .reconfigure,
            render: { player in
                let rank = player.rank.map { #"<span class="rank">\#($0)</span>"# } ?? ""
                return .rawHTML(
                    #"\#(rank)<span class="name">\#(HTMLEscaping.escape(player.name))</span><span class="score">\#(player.score)</span>"#)
            },
            header: { league in .text("\(Self.leagues[league]) league") })
        // Filtered views: only the leagues with a match, each player with its rank in the league.
        // Once per update and distinct filter text, not per browser.
        board.filterSnapshot = { snapshot, text in Self.filtered(snapshot, by: text) }

        var random = SeededGenerator(seed: 27)
        var leagues: [[Player]] = Array(repeating: [], count: Self.leagues.count)
        for id in 0..<rows {
            let player = Player(id: id, name: Self.name(for: id), score: Int.random(in: 0..<100_000, using: &random))
            leagues[id % Self.leagues.count].append(player)
        }
        board.apply(Self.snapshot(of: &leagues), completion: nil)
        let (startLeagues, startRandom) = (leagues, random)

        let router = Router(context: BasicWebSocketRequestContext.self)
        board.mount(on: router, at: "/board")
        router.get("/") { _, _ in htmlResponse(Self.page(rows: rows)) }
        // The page links its icon inline; a browser that asks anyway gets no content, not a 404.
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }

        let interval = UInt64(1_000_000_000 / max(ticksPerSecond, 1))
        let ticker = Task {
            var (leagues, random) = (startLeagues, startRandom)
            // On a fixed schedule (the work of a tick does not stretch the period); a tick that
            // ran late is not made up for.
            var deadline = DispatchTime.now().uptimeNanoseconds
            while !Task.isCancelled {
                deadline = max(deadline + interval, DispatchTime.now().uptimeNanoseconds)
                let now = DispatchTime.now().uptimeNanoseconds
                if deadline > now { try? await Task.sleep(nanoseconds: deadline - now) }
                // About 2% of the players score (or lose) each tick, then every league re-ranks.
                for league in leagues.indices {
                    for _ in 0..<max(1, leagues[league].count / 50) {
                        let index = Int.random(in: 0..<leagues[league].count, using: &random)
                        leagues[league][index].score = max(0, leagues[league][index].score + Int.random(in: -2_000...6_000, using: &random))
                    }
                }
                board.apply(Self.snapshot(of: &leagues), completion: nil)
            }
        }
        defer { ticker.cancel() }
        try await runServer(router, port: port, page: "/", name: "diffable-web serve: \(rows) players, \(ticksPerSecond) re-ranks a second")
    }

    /// Every league sorted by score (highest first), one section each.
    static func snapshot(of leagues: inout [[Player]]) -> DiffableDataSourceSnapshot<Int, Player> {
        var snapshot = DiffableDataSourceSnapshot<Int, Player>()
        snapshot.appendSections(Array(leagues.indices))
        for league in leagues.indices {
            leagues[league].sort { ($0.score, $1.id) > ($1.score, $0.id) }
            snapshot.appendItems(leagues[league], toSection: league)
        }
        return snapshot
    }

    /// The players whose name contains `text` (ignoring ASCII case), with their rank in their
    /// league; leagues without a match are left out.
    /// - Complexity: O(players × name length).
    static func filtered(_ snapshot: DiffableDataSourceSnapshot<Int, Player>, by text: String) -> DiffableDataSourceSnapshot<Int, Player> {
        let needle = text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        var result = DiffableDataSourceSnapshot<Int, Player>()
        for league in snapshot.sectionIdentifiers {
            var matches: [Player] = []
            for (index, player) in snapshot.itemIdentifiers(inSection: league).enumerated() where player.nameContains(needle) {
                var ranked = player
                ranked.rank = index + 1
                matches.append(ranked)
            }
            guard !matches.isEmpty else { continue }
            result.appendSections([league])
            result.appendItems(matches, toSection: league)
        }
        return result
    }

    /// A pronounceable name per id, from syllables (built-in data, nothing to download).
    static func name(for id: Int) -> String {
        let first = ["ka", "lo", "mi", "ra", "te", "su", "vo", "ne", "zi", "po", "an", "el"]
        let second = ["ren", "dor", "lia", "mar", "sen", "tov", "ric", "nel", "bin", "qua"]
        let family = ["Adler", "Brook", "Castell", "Dorn", "Ebert", "Falk", "Grove", "Hale", "Iver", "Juno", "Kern", "Lund"]
        var n = id
        let a = first[n % first.count]; n /= first.count
        let b = second[n % second.count]; n /= second.count
        let c = family[n % family.count]; n /= family.count
        let given = (a + b).prefix(1).uppercased() + (a + b).dropFirst()
        return n == 0 ? "\(given) \(c)" : "\(given) \(c) \(n + 1)"
    }

    static func page(rows: Int) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Diffable live leaderboard</title>
        <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%232456c8'/%3E%3C/svg%3E">
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
        header { position: sticky; top: 0; background: #1d2330; color: #fff; padding: 10px 16px; display: flex; gap: 16px; align-items: center; z-index: 1; }
        header h1 { font-size: 17px; margin: 0; font-weight: 600; }
        header input { font-size: 14px; padding: 5px 8px; border-radius: 4px; border: 0; width: 220px; }
        #status { font-size: 12px; opacity: .8; }
        #board { display: grid; grid-template-columns: repeat(4, 1fr); gap: 12px; padding: 12px 16px; }
        .dl-section { background: #fff; border-radius: 6px; box-shadow: 0 1px 2px #0002; max-height: 42vh; overflow: auto; }
        .dl-header { position: sticky; top: 0; margin: 0; padding: 6px 10px; background: #e8ebf2; font-size: 13px; }
        .dl-rows { list-style: none; margin: 0; padding: 0; counter-reset: rank; }
        .dl-row { display: flex; padding: 2px 10px; border-bottom: 1px solid #f0f1f4; counter-increment: rank; }
        .dl-row::before, .dl-row .rank { content: counter(rank); width: 3.2em; color: #8a90a0; }
        .dl-row:has(.rank)::before { content: none; width: 0; }
        .dl-row .name { flex: 1; } .dl-row .score { font-variant-numeric: tabular-nums; color: #2456c8; }
        </style></head><body>
        <header><h1>Live leaderboard · \(rows) players</h1>
        <input id="filter" placeholder="Filter players…" autocomplete="off">
        <span id="status">connecting</span></header>
        <main id="board"></main>
        <script src="/board/client.js"></script>
        <script>
        const status = document.getElementById("status");
        let applied = 0;
        const list = new DiffableList(document.getElementById("board"), "/board/ws", {
          onStatus: (text) => { status.textContent = text; },
          onApplied: (info) => { applied++; status.textContent = "live · update " + applied + " · " + info.bytes + " bytes · " + info.ms.toFixed(1) + " ms"; }
        });
        document.getElementById("filter").addEventListener("input", (event) => list.setFilter(event.target.value));
        window.list = list;
        </script></body></html>
        """
    }
}
