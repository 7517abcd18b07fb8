/// What a data source matching values by `id` keeps beside a committed snapshot of values:
/// its flat form keyed by the values' `id`s, the next diff's old side. A struct of its own
/// rather than `FlatSnapshot?`: the matcher's generic apply path would look up that
/// optional's metadata at run time (about 1,000 instructions an apply).
struct IDKeys: Sendable {
    /// The committed snapshot's flat form with the keys of its values' `id`s (one per item, in
    /// display order); nil when not kept (after a reorder by the user, which moved one value):
    /// the next diff makes it again from the values.
    var flat: FlatSnapshot?
}

/// The flat form of a snapshot of values keyed by their `id`s, made on the thread that calls
/// `apply` and taken once by the plan (a redone plan makes it again). Not nested in the
/// generic matcher: a generic class's metadata is looked up at run time on every allocation
/// (about 330 instructions an apply), a plain one's once.
final class PreparedIDKeys: @unchecked Sendable {
    private let mutex = Lock.Mutex()  // inline: one object fewer per apply
    private var flat: FlatSnapshot?

    /// - Complexity: O(1).
    init(_ flat: FlatSnapshot) { self.flat = flat }

    /// The flat form, the first time; nil after.
    /// - Complexity: O(1).
    func take() -> FlatSnapshot? {
        mutex.withLock {
            defer { flat = nil }
            return flat
        }
    }
}
