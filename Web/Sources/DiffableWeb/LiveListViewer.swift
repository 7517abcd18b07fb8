import Foundation
import NIOCore

/// One connected browser, as the list's hub sees it: the view it shares, its own sequence
/// numbers, what it was sent and has acknowledged. Confined to the hub, but `send`, `errors`
/// and `meter`, which any thread may use.
final class LiveListViewer<Section: Hashable & Sendable, Item: Hashable & Sendable>: @unchecked Sendable {
    /// Hands a message to the connection's writer, in order.
    let send: @Sendable (OutgoingMessage) -> Void
    /// Protocol errors answered so far; past ``LiveList/maxProtocolErrors`` the connection ends.
    let errors = LockedCounter()
    /// Bytes handed to the socket writer and not yet written.
    let meter: OutgoingMeter

    /// The view whose rows it shows (nil once it left).
    var group: ViewGroup<Section, Item>?
    var filterText = ""
    /// The last sequence number sent to it (its first message is 1).
    var sequence = 0
    /// Messages sent and not yet acknowledged: their numbers, the view they came from and the
    /// view's version each brings the browser to.
    var sent: [(sequence: Int, group: ObjectIdentifier, version: Int, isBatch: Bool)] = []
    /// The version of its view the browser shows once it applied what was sent; nil before
    /// it got its view's whole list.
    var shownVersion: Int?
    /// The highest version of its current view the browser acknowledged.
    var acknowledgedVersion: Int?
    /// It gets the whole list next (it joined a view, asked for it, or fell too far behind).
    var wantsReload = false
    /// Its own view replays the shared one's state; nothing goes out until it has.
    var awaitingBaseline = false
    /// Clicks that arrived before the browser had its whole list; they run once it has.
    var deferred: [() -> Void] = []
    /// The list's applies it is known to show (for awaited applies).
    var shownSerial = 0
    var messagesSent = 0
    var bytesSent = 0

    init(send: @escaping @Sendable (OutgoingMessage) -> Void, meter: OutgoingMeter) {
        self.send = send
        self.meter = meter
    }

    /// Batches sent and not acknowledged: while there is one, it gets nothing new.
    var batchesInFlight: Int { sent.count { $0.isBatch } }
}

/// A message for one browser's connection.
enum OutgoingMessage: Sendable {
    /// A whole message of its own (an error).
    case text(String)
    /// A shared view's message: this browser's header (type and sequence number), then the
    /// body every browser of the view gets: one WebSocket message in two frames, the body's
    /// buffer written as it is.
    case shared(header: String, body: ByteBuffer)

    /// Its size in bytes.
    var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .shared(let header, let body): header.utf8.count + body.readableBytes
        }
    }

    /// The whole text (tests).
    var text: String {
        switch self {
        case .text(let text): text
        case .shared(let header, let body): header + String(buffer: body)
        }
    }
}
