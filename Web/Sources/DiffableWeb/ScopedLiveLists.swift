import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// One ``LiveList`` per viewer scope behind one WebSocket route: each connection is
/// authenticated before it is upgraded, and the scope its credentials name (never anything
/// the browser can edit, such as a query parameter it chose) picks the list it is served.
///
/// ```swift
/// let lists = ScopedLiveLists<String, Int, Row>(
///     authenticate: { request in try signer.verify(cookie(named: "session", in: request) ?? "") },
///     list: { team in try await live.list(for: team) })
/// lists.allowedOrigins = ["http://127.0.0.1:8081"]     // the other instances' pages
/// lists.mount(on: router, at: "/board")
/// ```
///
/// A connection whose `Origin` is foreign or whose authentication throws is refused before
/// the upgrade; the reason is logged (the browser learns nothing more than the refusal).
/// Credentials that expire (``init(authenticateUntil:list:)``) also end a connection already
/// open: when they expire the server logs it and closes it with status
/// ``credentialsExpiredCloseCode`` (4401), which the browser client reports instead of
/// reconnecting with them.
public final class ScopedLiveLists<Scope: Hashable & Sendable, Section: Hashable & Sendable, Item: Hashable & Sendable>: Sendable {
    /// The scope a request is authenticated for; throws (any error, logged) to refuse it.
    public typealias Authenticate = @Sendable (Request) throws -> Scope
    /// The scope a request is authenticated for and until when (nil: no end); throws to refuse it.
    public typealias AuthenticateUntil = @Sendable (Request) throws -> (scope: Scope, expiresAt: Date?)
    /// The list a scope's viewers share (made on first use by the app, e.g. a live query's).
    public typealias ListForScope = @Sendable (Scope) async throws -> LiveList<Section, Item>

    private let authenticate: AuthenticateUntil
    private let listForScope: ListForScope
    private let settings: Settings

    /// Origins besides the page's own allowed to open the WebSocket (e.g. the other
    /// instances' pages when a client fails over to them directly).
    public var allowedOrigins: Set<String> {
        get { settings.value.origins }
        set { settings.update { $0.origins = newValue } }
    }

    /// Where refusals are logged.
    public var logger: Logger {
        get { settings.value.logger }
        set { settings.update { $0.logger = newValue } }
    }

    /// The WebSocket close status sent when a connection's credentials expire: an application
    /// code (4000–4999), 4000 + HTTP's 401.
    public static var credentialsExpiredCloseCode: Int { 4401 }

    /// Credentials that do not expire (or whose expiry the app enforces itself).
    /// - Complexity: O(1).
    public convenience init(authenticate: @escaping Authenticate, list: @escaping ListForScope) {
        self.init(authenticateUntil: { request in (try authenticate(request), nil) }, list: list)
    }

    /// Credentials valid until a time (e.g. ``ScopeToken``'s `claims(of:)`): a connection still
    /// open then is closed with ``credentialsExpiredCloseCode``, the reason logged.
    /// - Complexity: O(1).
    public init(authenticateUntil: @escaping AuthenticateUntil, list: @escaping ListForScope) {
        self.authenticate = authenticateUntil
        self.listForScope = list
        settings = Settings(.init(origins: [], logger: Logger(label: "DiffableWeb")))
    }

    /// Adds `GET <path>/client.js` and the WebSocket `<path>/ws` to `router` (as
    /// ``LiveList/mount(on:at:)`` does for one list).
    /// - Complexity: O(1).
    public func mount<Context: WebSocketRequestContext>(on router: Router<Context>, at path: String) {
        let prefix = ClientScript.mount(on: router, at: path)
        router.ws(
            RouterPath(prefix + "/ws"),
            shouldUpgrade: { [self] request, _ in
                _ = try scope(of: request)
                return .upgrade([:])
            },
            onUpgrade: { [self] inbound, outbound, context in
                // Checked again: what passed the upgrade is not carried to here.
                let (scope, expiry) = try scope(of: context.request)
                let list = try await listForScope(scope)
                let closing = expiry.map { expiry in
                    ClosingTime(
                        at: expiry, code: Self.credentialsExpiredCloseCode, reason: "credentials expired",
                        log: "credentials for scope \(scope) expired at \(expiry)")
                }
                try await list.serve(inbound: inbound, outbound: outbound, closing: closing, logger: logger)
            })
    }

    /// The request's scope and its expiry, or an HTTP 403 whose reason is logged.
    private func scope(of request: Request) throws -> (scope: Scope, expiresAt: Date?) {
        let (origins, logger) = (settings.value.origins, settings.value.logger)
        if let problem = LiveList<Section, Item>.originProblem(request, allowedOrigins: origins) {
            logger.warning("DiffableWeb: \(problem)")
            throw HTTPError(.forbidden)
        }
        do {
            return try authenticate(request)
        } catch {
            logger.warning("DiffableWeb: WebSocket refused: authentication failed: \(error)")
            throw HTTPError(.forbidden)
        }
    }

    /// The settings, set before serving and read by every request.
    private final class Settings: @unchecked Sendable {
        struct Value {
            var origins: Set<String>
            var logger: Logger
        }
        private let lock = NSLock()
        private var stored: Value
        init(_ value: Value) { stored = value }
        var value: Value { lock.withLock { stored } }
        func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
    }
}

/// The value of the cookie `name` in `request`'s `Cookie` headers, or nil.
/// - Complexity: O(length of the headers).
public func cookie(named name: String, in request: Request) -> String? {
    for header in request.headers[values: .cookie] {
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            return String(trimmed[trimmed.index(after: equals)...])
        }
    }
    return nil
}
