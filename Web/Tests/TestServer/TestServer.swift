import Diffable
import DiffableWeb
import Foundation
import WebServing
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// An item of the browser tests: `id` keeps the row, `text` is what it shows.
struct TestItem: Hashable, Sendable, Identifiable, Decodable {
    let id: String
    let text: String
    /// Shows a disclosure control though the item has no children yet (they load on expand).
    var expandable: Bool? = nil

    init(id: String, text: String) {
        self.id = id
        self.text = text
    }

    /// `text`, or `textBase64`'s bytes decoded as UTF-8 (invalid sequences become U+FFFD).
    init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        id = try fields.decode(String.self, forKey: .id)
        if let encoded = try fields.decodeIfPresent(String.self, forKey: .textBase64) {
            guard let bytes = Data(base64Encoded: encoded) else {
                throw DecodingError.dataCorruptedError(forKey: .textBase64, in: fields, debugDescription: "not base64")
            }
            text = String(decoding: bytes, as: UTF8.self)
        } else {
            text = try fields.decode(String.self, forKey: .text)
        }
        expandable = try fields.decodeIfPresent(Bool.self, forKey: .expandable)
    }

    private enum Keys: String, CodingKey { case id, text, textBase64, expandable }
}

/// The page and routes `Web/Tests/test_browser.py` drives: it posts snapshots, the server
/// applies them to a `LiveList` and answers once the browser acknowledged the change.
struct TestServer {
    struct Section: Decodable {
        let id: String
        let items: [TestItem]
    }
    struct SnapshotBody: Decodable {
        let sections: [Section]
        /// Items to reload (replace their row) though unchanged.
        let reload: [String]?
        /// Sections to reload (replace with all their rows) though unchanged.
        let reloadSections: [String]?
    }
    struct OutlineEntry: Decodable {
        let item: TestItem
        let parent: String?
        let expanded: Bool?
    }
    struct OutlineBody: Decodable {
        let section: String
        let entries: [OutlineEntry]
    }

    func run(port: Int) async throws {
        let list = LiveList<String, TestItem>(
            matchingItemsByID: .reconfigure,
            render: { item in
                // "[input]" rows carry a text field (trusted markup with the text escaped), for the focus test.
                item.text.hasPrefix("[input]")
                    ? .rawHTML(#"<input class="row-input" value="\#(HTMLEscaping.escape(item.text))">"#)
                    : .text(item.text, expandable: item.expandable)
            },
            header: { section in .text("Section " + section) })
        list.filter = { item, text in item.text.contains(text) }
        // Lazily loaded children: a parent with none gets three when it first expands.
        list.sectionSnapshotHandlers = .init(snapshotForExpandingParent: { parent, children in
            guard children.items.isEmpty else { return children }
            var loaded = DiffableDataSourceSectionSnapshot<TestItem>()
            loaded.append((1...3).map { TestItem(id: parent.id + "/lazy\($0)", text: parent.text + " · child \($0)") })
            return loaded
        })

        let router = Router(context: BasicWebSocketRequestContext.self)
        list.mount(on: router, at: "/list")
        router.get("/") { _, _ in htmlResponse(Self.page) }
        router.post("/test/apply") { request, _ -> String in
            let body = try await Self.decode(SnapshotBody.self, from: request)
            var snapshot = DiffableDataSourceSnapshot<String, TestItem>()
            snapshot.appendSections(body.sections.map(\.id))
            for section in body.sections { snapshot.appendItems(section.items, toSection: section.id) }
            if let ids = body.reload {
                let byID = Dictionary(uniqueKeysWithValues: snapshot.itemIdentifiers.map { ($0.id, $0) })
                snapshot.reloadItems(ids.compactMap { byID[$0] })
            }
            if let ids = body.reloadSections { snapshot.reloadSections(ids) }
            if request.uri.queryParameters.get("wait") == "0" {
                list.apply(snapshot, completion: nil)
            } else {
                await list.apply(snapshot)
            }
            return "ok"
        }
        router.post("/test/outline") { request, _ -> String in
            let body = try await Self.decode(OutlineBody.self, from: request)
            var outline = DiffableDataSourceSectionSnapshot<TestItem>()
            let byID = Dictionary(uniqueKeysWithValues: body.entries.map { ($0.item.id, $0.item) })
            for entry in body.entries {
                outline.append([entry.item], to: entry.parent.flatMap { byID[$0] })
            }
            outline.expand(body.entries.filter { $0.expanded == true }.map(\.item))
            await list.apply(outline, to: body.section)
            return "ok"
        }
        router.get("/test/stats") { _, _ -> String in
            let rows = list.clientStatistics().map {
                #"{"messagesSent":\#($0.messagesSent),"bytesSent":\#($0.bytesSent),"batchesInFlight":\#($0.batchesInFlight),"#
                    + #""queuedBytes":\#($0.queuedBytes),"maxQueuedBytes":\#($0.maxQueuedBytes)}"#
            }
            return "[" + rows.joined(separator: ",") + "]"
        }
        try await runServer(router, port: port, page: "/", name: "diffable-web-test-server")
    }

    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        let buffer = try await request.body.collect(upTo: 256 << 20)
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "the body is not a valid \(type): \(error)")
        }
    }

    static let page = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>DiffableWeb test page</title></head>
        <body><input id="outside" placeholder="outside the list">
        <div id="list"></div>
        <script src="/list/client.js"></script>
        <script>window.list = new DiffableList(document.getElementById("list"), "/list/ws");</script>
        </body></html>
        """
}
