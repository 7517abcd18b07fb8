/// A value made by a closure on its first read, once, then kept; reads from several
/// threads wait for the one that makes it. For results whose cost only some callers
/// should pay (the snapshots of an outline's visible rows in a `SnapshotDifference`).
final class MadeOnRequest<Value>: @unchecked Sendable {
    private enum State {
        case pending(() -> Value)
        case made(Value)
    }
    private let state: Locked<State>

    /// - Parameter make: runs at most once, under this value's lock; it is released once run.
    /// - Complexity: O(1).
    init(_ make: @escaping () -> Value) { state = Locked(.pending(make)) }

    /// The value, made now if this is the first read.
    /// - Complexity: O(1) after the first read; the first costs what `make` costs.
    var value: Value {
        state.withLock { state in
            switch state {
            case .made(let value): return value
            case .pending(let make):
                let value = make()
                state = .made(value)
                return value
            }
        }
    }
}
