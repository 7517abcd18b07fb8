/// What a data source matching values by `id` keeps beside a committed snapshot of values:
/// the keys of their `id`s in display order, the item keys of the next diff's old side.
struct IDKeys: Sendable {
    /// One key per item, in display order; nil when not kept (after a reorder by the user,
    /// which moved one value): the next diff makes them again from the values.
    var keys: [UInt64]?
}
