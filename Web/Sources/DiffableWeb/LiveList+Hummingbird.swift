import Diffable
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket

extension LiveList {
    /// Adds the list's two routes to `router`: `GET <path>/client.js` (the browser client,
    /// ``ClientScript``) and the WebSocket `<path>/ws`. The app's server must allow WebSocket
    /// upgrades: `server: .http1WebSocketUpgrade(webSocketRouter: router)`.
    ///
    /// A page then shows the list with
    /// `<script src="<path>/client.js"></script>` and `new DiffableList(element, "<path>/ws")`.
    /// - Complexity: O(1).
    public func mount<Context: WebSocketRequestContext>(on router: Router<Context>, at path: String) {
        let prefix = ClientScript.mount(on: router, at: path)
        router.ws(
            RouterPath(prefix + "/ws"),
            shouldUpgrade: { [self] request, _ in
                if let problem = originProblem(request) {
                    logger?.warning("\(problem)")
                    throw HTTPError(.forbidden, message: problem)
                }
                return .upgrade([:])
            },
            onUpgrade: { [self] inbound, outbound, _ in
                try await serve(inbound: inbound, outbound: outbound)
            })
    }

    /// Why a browser's WebSocket request must be refused, or nil: its `Origin` is neither the
    /// page's own (the request's host) nor one of ``allowedOrigins``. Browsers always send
    /// `Origin` on WebSockets, so another site's page cannot open one with the user's cookies.
    /// - Complexity: O(length of the headers).
    func originProblem(_ request: Request) -> String? { Self.originProblem(request, allowedOrigins: allowedOrigins) }

    /// ``originProblem(_:)`` with the given allowed origins (shared with ``ScopedLiveLists``).
    /// - Complexity: O(length of the headers).
    static func originProblem(_ request: Request, allowedOrigins: Set<String>) -> String? {
        guard let origin = request.headers[.origin] else { return nil }
        if allowedOrigins.contains(origin) { return nil }
        let host = request.head.authority ?? request.headers[HTTPField.Name("Host")!]
        if let host, let url = URL(string: origin), let originHost = url.host {
            let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
            if originAuthority.lowercased() == host.lowercased() { return nil }
        }
        return "WebSocket refused: Origin \(origin) is not this site (\(host ?? "no Host header")) nor an allowed origin"
    }

    /// The largest shared body copied behind its browser's header into one frame; a larger
    /// one (a whole list, say) goes as a second frame from the shared buffer.
    static var copiedBodyLimit: Int { 64 << 10 }

    /// Runs one client's connection until it closes: messages from the session to the socket,
    /// frames from the socket to the session; at `closing`'s time (if any), the server closes it
    /// with `closing`'s status, after the messages already queued.
    func serve(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, closing: ClosingTime? = nil, logger: Logger? = nil
    ) async throws {
        // A message, or nil: close the connection (closing's status).
        let (messages, continuation) = AsyncStream<OutgoingMessage?>.makeStream()
        let meter = OutgoingMeter()
        let viewer = connect(meter: meter) { message in
            meter.queued(message.byteCount)
            continuation.yield(message)
        }
        defer { disconnect(viewer) }
        let deadline = closing.map { closing in
            Task {
                try await Task.sleep(for: .seconds(max(0, closing.at.timeIntervalSinceNow)))
                (logger ?? self.logger)?.notice("DiffableWeb: closing a connection (status \(closing.code)): \(closing.log)")
                continuation.yield(nil)
            }
        }
        // The connection ended first: its closing time no longer matters.
        defer { deadline?.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in messages {
                    switch message {
                    case .text(let text):
                        try await outbound.writeTextMessage(text)
                    case .shared(let header, let body) where body.readableBytes <= Self.copiedBodyLimit:
                        // One frame, one write (one system call, one TCP segment to wake the
                        // browser): copying a small body costs less than a second write.
                        var frame = ByteBuffer()
                        frame.reserveCapacity(header.utf8.count + body.readableBytes)
                        frame.writeString(header)
                        frame.writeImmutableBuffer(body)
                        try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: frame)))
                    case .shared(let header, let body):
                        // One message in two frames: the large body's buffer is shared, not copied.
                        try await outbound.write(.custom(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: header))))
                        try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .continuation, data: body)))
                    case nil:
                        if let closing {
                            try await outbound.close(.unknown(UInt16(closing.code)), reason: closing.reason)
                        }
                        return
                    }
                    meter.written(message?.byteCount ?? 0)
                }
            }
            do {
                for try await message in inbound.messages(maxSize: maxInboundMessageBytes) {
                    let keepGoing: Bool
                    switch message {
                    // The stream checks the size of fragmented messages only; one frame is checked here.
                    case .text(let text) where text.utf8.count > maxInboundMessageBytes:
                        fail(
                            ProtocolError(.tooLarge, "a message of \(text.utf8.count) bytes; at most \(maxInboundMessageBytes) are accepted; closing"),
                            viewer)
                        keepGoing = false
                    case .text(let text): keepGoing = receive(text, from: viewer)
                    case .binary: keepGoing = receiveBinary(from: viewer)
                    }
                    if !keepGoing { break }
                }
            } catch {
                // The socket closed under us (too large a message, a protocol error): nothing to answer.
            }
            // The writer sends what is queued (a last error, say), then ends.
            continuation.finish()
        }
    }
}

/// When and how the server ends a connection itself (its credentials expire).
struct ClosingTime: Sendable {
    let at: Date
    /// The WebSocket close status (an application's: 4000–4999) and its reason.
    let code: Int
    let reason: String
    /// What the server's log says.
    let log: String
}

/// What one client was sent and what still waits for it.
public struct ClientStatistics: Sendable, Equatable {
    /// Messages and bytes of JSON sent so far.
    public var messagesSent: Int
    public var bytesSent: Int
    /// Batches sent and not yet acknowledged (at most the batches of one apply).
    public var batchesInFlight: Int
    /// Bytes handed to the socket writer and not yet written, now and at most so far.
    public var queuedBytes: Int
    public var maxQueuedBytes: Int
}

/// Bytes waiting between a session and its socket.
final class OutgoingMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private var peak = 0
    func queued(_ bytes: Int) { lock.withLock { now += bytes; peak = max(peak, now) } }
    func written(_ bytes: Int) { lock.withLock { now -= bytes } }
    var current: Int { lock.withLock { now } }
    var maximum: Int { lock.withLock { peak } }
}
