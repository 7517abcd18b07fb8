/// What a data source matching by `id` keeps beside a committed snapshot of values: the
/// snapshot of their `id`s (the same layout), and whether the slots of both follow display
/// order, known when the mirror was built (an `id` mirror is built in display order; the
/// values' order is checked once, then), so that an apply checks only the new values.
struct IDMirror<Section: Hashable & Sendable, ID: Hashable & Sendable>: Sendable {
    var ids = DiffableDataSourceSnapshot<Section, ID>()
    /// Whether the values' snapshot beside the mirror and the mirror keep every item at the
    /// slot of its position (`slotsFollowDisplayOrder` of their storages); false after a move.
    var slotsFollowDisplayOrder = true
}
