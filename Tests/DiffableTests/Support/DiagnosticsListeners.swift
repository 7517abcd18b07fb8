import Foundation

@testable import Diffable

/// One `DiffableDiagnostics.handler` for the whole test process, forwarding every event to the
/// listeners registered at that moment. The handler is global and suites run in parallel: a test
/// that installed its own handler and reset it afterwards could take another test's events away
/// (CI saw the hostile-identifier apply report lost that way). Tests read every event reported
/// while they listened and keep their own, picked out by identifier.
enum DiagnosticsListeners {
    private static let listeners = Locked<[UUID: @Sendable (DiffableDiagnostics.Event) -> Void]>([:])

    private static let installed: Void = {
        DiffableDiagnostics.handler = { event in
            for listener in listeners.withLock({ Array($0.values) }) { listener(event) }
        }
    }()

    /// Awaits `body`, then returns what it returned and every event reported meanwhile.
    static func collectAwaiting<T>(_ body: () async throws -> T) async rethrows -> (T, [DiffableDiagnostics.Event]) {
        let log = EventLog()
        let id = register(log)
        defer { unregister(id) }
        return (try await body(), log.all)
    }

    /// Runs `body`, then returns what it returned and every event reported meanwhile.
    static func collect<T>(_ body: () throws -> T) rethrows -> (T, [DiffableDiagnostics.Event]) {
        let log = EventLog()
        let id = register(log)
        defer { unregister(id) }
        return (try body(), log.all)
    }

    private static func register(_ log: EventLog) -> UUID {
        _ = installed
        let id = UUID()
        listeners.withLock { $0[id] = { log.append($0) } }
        return id
    }

    private static func unregister(_ id: UUID) { _ = listeners.withLock { $0.removeValue(forKey: id) } }
}
