extension DiffableDiagnostics {
    /// Reports a programming error as an event, then traps with the same message (the data
    /// source's errors where Apple raises an exception).
    static func fail(_ kind: Event.Kind, in operation: String, _ message: String) -> Never {
        report(.init(kind: kind, operation: operation, identifiers: [], message: message))
        fatalError("Diffable: \(operation): \(message)")
    }
}
