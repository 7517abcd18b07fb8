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
