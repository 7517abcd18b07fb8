import Diffable
import DiffableWeb
import Foundation
import WebServing
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The benchmark's server (`make web-bench` drives it through `Web/Benchmarks/bench_browser.py`): one
/// list of `n` rows, changed by 1% churn or a full re-sort, sent four ways to the same page: as
/// DiffableWeb's steps, as the whole list's HTML (the page replaces `innerHTML`), as the whole
/// list's JSON (the page rebuilds every row), and as the same JSON reconciled by key on the page
/// (kept rows keep their nodes; only rows off a longest increasing subsequence move). Every
/// byte count is of UTF-8 text, as sent on the socket.
struct BenchServer {
    struct Row: Hashable, Sendable {
        let id: Int
        var html: String { "Row \(id) · value \(id &* 2_654_435_761 % 100_000)" }
    }

    /// The benchmark's state; one driver at a time.
    final class State: @unchecked Sendable {
        let lock = NSLock()
        var rows: [Row] = []
        var nextID = 0
        var random = SeededGenerator(seed: 1)
        var raw: [@Sendable (String) -> Void] = []
        /// A data source of its own, to time diff + encode on the server alone.
        var probe: (DiffableDataSource<Int, Row, RemoteRow>, RemoteListView)?
        var probeSent: (end: UInt64, bytes: Int) = (0, 0)
    }

    func run(port: Int) async throws {
        let list = LiveList<Int, Row>(render: { .text($0.html) })
        let state = State()
        let router = Router(context: BasicWebSocketRequestContext.self)
        list.mount(on: router, at: "/list")
        router.get("/") { _, _ in htmlResponse(Self.page) }
        router.ws("/raw") { inbound, outbound, _ in
            let (stream, continuation) = AsyncStream<String>.makeStream()
            state.lock.withLock { state.raw.append { continuation.yield($0) } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for await text in stream { try await outbound.writeTextMessage(text) } }
                for try await _ in inbound {}
                continuation.finish()
                group.cancelAll()
            }
        }
        router.post("/bench/setup") { request, _ -> String in
            let n = request.uri.queryParameters.get("n", as: Int.self) ?? 10_000
            let snapshot = state.lock.withLock {
                state.rows = (0..<n).map(Row.init)
                state.nextID = n
                state.random = SeededGenerator(seed: UInt64(n))
                return Self.snapshot(state.rows)
            }
            Self.makeProbe(state, snapshot)
            await list.apply(snapshot)
            // The keyed list starts from the same rows, untimed ("S"), so every timed "K" is an update.
            let start = "S" + Self.json(state.lock.withLock { state.rows })
            for send in state.lock.withLock({ state.raw }) { send(start) }
            return "ok"
        }
        router.post("/bench/step") { request, _ -> String in
            let kind = request.uri.queryParameters.get("kind") ?? "churn"
            guard kind == "churn" || kind == "resort" else { throw HTTPError(.badRequest, message: "kind must be churn or resort") }
            let (snapshot, rows) = state.lock.withLock {
                Self.change(state, resort: kind == "resort")
                return (Self.snapshot(state.rows), state.rows)
            }
            let (serverMs, _) = Self.probe(state, snapshot)
            // The steps' bytes: what the page's own session sent for this apply (UTF-8).
            let sentBefore = list.clientStatistics().reduce(0) { $0 + $1.bytesSent }
            await list.apply(snapshot)
            let diffBytes = list.clientStatistics().reduce(0) { $0 + $1.bytesSent } - sentBefore
            let html = "H" + rows.map { "<li class=\"dl-row\">" + HTMLEscaping.escape($0.html) + "</li>" }.joined()
            let json = Self.json(rows)
            for send in state.lock.withLock({ state.raw }) {
                send(html)
                send("J" + json)
                send("K" + json)
            }
            return #"{"serverMs":\#(serverMs),"diffBytes":\#(diffBytes),"htmlBytes":\#(html.utf8.count - 1),"jsonBytes":\#(json.utf8.count),"keyedBytes":\#(json.utf8.count)}"#
        }
        try await runServer(router, port: port, page: "/", name: "diffable-web-bench-server")
    }

    /// The whole list as JSON: each row's id and text.
    static func json(_ rows: [Row]) -> String {
        var json = "["
        for (index, row) in rows.enumerated() {
            if index > 0 { json += "," }
            json += #"{"id":\#(row.id),"text":"\#(row.html)"}"#
        }
        return json + "]"
    }

    static func snapshot(_ rows: [Row]) -> DiffableDataSourceSnapshot<Int, Row> {
        var snapshot = DiffableDataSourceSnapshot<Int, Row>()
        snapshot.appendSections([0])
        snapshot.appendItems(rows, toSection: 0)
        return snapshot
    }

    /// 1% churn: 1% of the rows leave and as many new ones arrive at random places; or a full re-sort.
    static func change(_ state: State, resort: Bool) {
        if resort {
            state.rows.shuffle(using: &state.random)
            return
        }
        let k = max(1, state.rows.count / 100)
        for _ in 0..<k { state.rows.remove(at: Int.random(in: 0..<state.rows.count, using: &state.random)) }
        for _ in 0..<k {
            state.rows.insert(Row(id: state.nextID), at: Int.random(in: 0...state.rows.count, using: &state.random))
            state.nextID += 1
        }
    }

    static func makeProbe(_ state: State, _ snapshot: DiffableDataSourceSnapshot<Int, Row>) {
        let box = ViewBox()
        let view = RemoteListView { text in
            state.probeSent = (DispatchTime.now().uptimeNanoseconds, text.utf8.count)
            // The probe's "browser" applies at once: acknowledge inside the send.
            if let view = box.view { _ = view.acknowledge(view.sequence) }
        }
        box.view = view
        let queue = DispatchQueue(label: "bench.probe")
        let dataSource = DiffableDataSource<Int, Row, RemoteRow>(view: view, executor: .queue(queue)) { _, row in .text(row.html) }
        let group = DispatchGroup()
        group.enter()
        dataSource.apply(snapshot) { group.leave() }
        group.wait()
        state.probe = (dataSource, view)
    }

    /// Diff + encode on the server: from the apply call to the message's text being ready.
    static func probe(_ state: State, _ snapshot: DiffableDataSourceSnapshot<Int, Row>) -> (Double, Int) {
        guard let (dataSource, _) = state.probe else { return (0, 0) }
        let group = DispatchGroup()
        group.enter()
        let start = DispatchTime.now().uptimeNanoseconds
        dataSource.apply(snapshot) { group.leave() }
        group.wait()
        return (Double(state.probeSent.end - start) / 1e6, state.probeSent.bytes)
    }

    final class ViewBox: @unchecked Sendable { weak var view: RemoteListView? }

    static let page = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>DiffableWeb benchmark</title>
        <style>ul { list-style: none; margin: 0; padding: 0; } #diff, #raw, #keyed { height: 300px; overflow: auto; }</style></head>
        <body><div id="diff"></div><ul id="raw"></ul><ul id="keyed"></ul>
        <script src="/list/client.js"></script>
        <script>
        // Browser time of each way: from the message's arrival to the DOM updated and laid out.
        window.results = { diff: [], html: [], json: [], keyed: [] };
        // The keyed list checked against its JSON after each update (untimed): a wrong
        // reconciliation would make its times meaningless.
        window.keyedWrong = 0;
        const layout = () => document.body.offsetHeight;
        window.list = new DiffableList(document.getElementById("diff"), "/list/ws", {
          onApplied: (info) => {
            const start = performance.now(); layout();
            if (info.type === "batch") window.results.diff.push({ ms: info.ms + performance.now() - start });
          }
        });

        // What a careful hand-written client does with the whole list: reconcile by id. Rows
        // whose id stays keep their node; of those, the ones on a longest increasing run of
        // old positions stay put and only the others move; new ids get new nodes, gone ids
        // lose theirs.
        const keyedList = document.getElementById("keyed");
        let keyedNodes = new Map();  // id -> li
        let keyedOrder = [];          // ids in DOM order
        // Positions (in `olds`) on one longest strictly increasing subsequence of the values
        // that are >= 0 (-1: a new row, on no run). O(n log n): tails by length, back links.
        function longestRun(olds) {
          const n = olds.length, back = new Int32Array(n), tails = [];
          for (let j = 0; j < n; j++) {
            const v = olds[j];
            if (v < 0) continue;
            let lo = 0, hi = tails.length;
            while (lo < hi) { const mid = (lo + hi) >> 1; if (olds[tails[mid]] < v) lo = mid + 1; else hi = mid; }
            back[j] = lo > 0 ? tails[lo - 1] : -1;
            tails[lo] = j;
          }
          const on = new Uint8Array(n);
          for (let j = tails.length ? tails[tails.length - 1] : -1; j >= 0; j = back[j]) on[j] = 1;
          return on;
        }
        function reconcile(rows) {
          const oldIndex = new Map();
          for (let i = 0; i < keyedOrder.length; i++) oldIndex.set(keyedOrder[i], i);
          const n = rows.length, olds = new Int32Array(n), order = new Array(n), nodes = new Map();
          for (let j = 0; j < n; j++) {
            const i = oldIndex.get(rows[j].id);
            olds[j] = i === undefined ? -1 : i;
            order[j] = rows[j].id;
          }
          const stays = longestRun(olds);
          const wanted = new Set(order);
          for (const [id, node] of keyedNodes) if (!wanted.has(id)) node.remove();
          // From the end, so the node after each position is already in place.
          let next = null;
          for (let j = n - 1; j >= 0; j--) {
            const row = rows[j];
            let node = keyedNodes.get(row.id);
            if (node === undefined) {
              node = document.createElement("li"); node.className = "dl-row"; node.textContent = row.text; node.shown = row.text;
              keyedList.insertBefore(node, next);
            } else {
              if (node.shown !== row.text) { node.textContent = row.text; node.shown = row.text; }
              if (!stays[j]) keyedList.insertBefore(node, next);
            }
            nodes.set(row.id, node);
            next = node;
          }
          keyedNodes = nodes;
          keyedOrder = order;
        }
        function checkKeyed(rows) {
          const children = keyedList.children;
          let wrong = children.length !== rows.length;
          for (let j = 0; !wrong && j < rows.length; j++) wrong = children[j].textContent !== rows[j].text;
          if (wrong) window.keyedWrong++;
        }

        const raw = document.getElementById("raw");
        const socket = new WebSocket(location.href.replace(/^http/, "ws").replace(/\\/$/, "") + "/raw");
        socket.onmessage = (event) => {
          const start = performance.now();
          const data = event.data;
          const kind = data[0];
          if (kind === "H") {
            raw.innerHTML = data.slice(1); layout();
            window.results.html.push({ ms: performance.now() - start });
          } else if (kind === "J") {
            const rows = JSON.parse(data.slice(1));
            const fragment = document.createDocumentFragment();
            for (const row of rows) {
              const li = document.createElement("li"); li.className = "dl-row"; li.textContent = row.text; fragment.appendChild(li);
            }
            raw.textContent = ""; raw.appendChild(fragment); layout();
            window.results.json.push({ ms: performance.now() - start });
          } else if (kind === "K" || kind === "S") {
            const rows = JSON.parse(data.slice(1));
            if (kind === "S") { keyedList.textContent = ""; keyedNodes = new Map(); keyedOrder = []; }
            reconcile(rows); layout();
            if (kind === "K") window.results.keyed.push({ ms: performance.now() - start });
            checkKeyed(rows);
          }
        };
        window.rawReady = new Promise((resolve) => { socket.onopen = resolve; });
        </script></body></html>
        """
}
