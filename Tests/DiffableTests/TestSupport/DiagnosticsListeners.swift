import Foundation

@testable import Diffable

/// One `DiffableDiagnostics.handler` for the whole test process, appending every event to the
/// logs of the tests listening at that moment. The handler is global and suites run in parallel:
/// a test that installed its own handler and reset it afterwards could take another test's
/// events away (CI saw the hostile-identifier apply report lost that way). Tests read every
/// event reported while they listened and keep their own, picked out by identifier.
enum DiagnosticsListeners {
    private typealias Log = Locked<[DiffableDiagnostics.Event]>
    private static let logs = Locked<[UUID: Log]>([:])

    private static let installed: Void = {
        DiffableDiagnostics.handler = { event in
            for log in logs.withLock({ Array($0.values) }) { log.withLock { $0.append(event) } }
        }
    }()

    /// Awaits `body`, then returns what it returned and every event reported meanwhile.
    static func collectAwaiting<T>(_ body: () async throws -> T) async rethrows -> (T, [DiffableDiagnostics.Event]) {
        let (id, log) = listen()
        defer { stopListening(id) }
        return (try await body(), log.withLock { $0 })
    }

    /// Runs `body`, then returns what it returned and every event reported meanwhile.
    static func collect<T>(_ body: () throws -> T) rethrows -> (T, [DiffableDiagnostics.Event]) {
        let (id, log) = listen()
        defer { stopListening(id) }
        return (try body(), log.withLock { $0 })
    }

    private static func listen() -> (UUID, Log) {
        _ = installed
        let id = UUID(), log = Log([])
        logs.withLock { $0[id] = log }
        return (id, log)
    }

    private static func stopListening(_ id: UUID) { _ = logs.withLock { $0.removeValue(forKey: id) } }
}
