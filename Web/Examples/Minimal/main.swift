// The smallest complete DiffableWeb app: a flat section whose rows change every second, and an
// outline section whose rows expand in the browser. Run it from Web/ with
//
//     swift run diffable-web-example            # then open http://127.0.0.1:8080/
//     swift run diffable-web-example --port 0   # any free port; the URL is printed
//
// The page (page.html, next to this file) loads the client script and names the classes the
// client gives its elements, for styling.
import Diffable
import DiffableWeb
import Foundation
import Hummingbird
import HummingbirdWebSocket

/// One row: `id` keeps the row (and its DOM node) while `title` or `done` change.
struct Chore: Hashable, Sendable, Identifiable {
    let id: String
    var title: String
    var done = false
}

// Two lists, each at its own path: a flat one whose rows change every second, and an outline.
let today = LiveList<String, Chore>(
    matchingItemsByID: .reconfigure,  // a changed chore is updated in place
    render: { chore in .text((chore.done ? "✓ " : "") + chore.title) },  // escaped: shows text, runs nothing
    header: { section in .text(section) })
today.filter = { chore, text in chore.title.localizedCaseInsensitiveContains(text) }
let projects = LiveList<String, Chore>(render: { .text($0.title) }, header: { .text($0) })

var chores = (1...5).map { Chore(id: "c\($0)", title: "Chore \($0)") }
var snapshot = DiffableDataSourceSnapshot<String, Chore>()
snapshot.appendSections(["Today"])
snapshot.appendItems(chores, toSection: "Today")
// In top-level code too, `await today.apply(…)` is the async form: it returns once every browser
// connected now shows the change (here none is connected yet, so at once).
await today.apply(snapshot)

// An outline section: its rows indented, with a disclosure control that expands them in the
// browser (each browser's own; a click goes to the server, which sends the rows).
var sections = DiffableDataSourceSnapshot<String, Chore>()
sections.appendSections(["Projects"])
await projects.apply(sections)
let garden = Chore(id: "p1", title: "Garden")
var outline = DiffableDataSourceSectionSnapshot<Chore>()
outline.append([garden, Chore(id: "p2", title: "Bookshelf")])
outline.append([Chore(id: "p1a", title: "Dig"), Chore(id: "p1b", title: "Plant")], to: garden)
await projects.apply(outline, to: "Projects")

let router = Router(context: BasicWebSocketRequestContext.self)
today.mount(on: router, at: "/today")  // GET /today/client.js and the WebSocket /today/ws
projects.mount(on: router, at: "/projects")
router.get("/") { _, _ in
    Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.page_html)))
}
router.get("/favicon.ico") { _, _ in Response(status: .noContent) }

// Every second one chore is done or undone. Awaited, each change paces the next to the browsers
// (a slow one never holds the others back: it catches up with the newest state).
let ticker = Task { [snapshot, chores] in
    var (snapshot, chores, turn) = (snapshot, chores, 0)
    while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(1))
        turn += 1
        chores[turn % chores.count].done.toggle()
        snapshot.deleteItems(snapshot.itemIdentifiers(inSection: "Today"))
        snapshot.appendItems(chores, toSection: "Today")
        await today.apply(snapshot)
    }
}

let port = CommandLine.arguments.firstIndex(of: "--port").flatMap { index in
    index + 1 < CommandLine.arguments.count ? Int(CommandLine.arguments[index + 1]) : nil
} ?? 8080
let app = Application(
    router: router,
    server: .http1WebSocketUpgrade(webSocketRouter: router),
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        let url = "http://127.0.0.1:\(channel.localAddress?.port ?? port)/"
        FileHandle.standardOutput.write(Data("diffable-web-example: \(url)\n".utf8))
    })
try await app.runService()
ticker.cancel()
