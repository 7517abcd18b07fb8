import Foundation

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

extension DiffableDataSourceSnapshot {
    /// Asks a reload (`reloading`) or a reconfigure of `items`, all present: the refresh of the
    /// changed values on an `id` mirror. Pre-specialized for the common `id` types: the matcher
    /// is generic over them, and `tryReconfigureItems(_:)` run unspecialized cost about 7,000
    /// instructions for one item (its set and list of a type looked up at run time).
    /// - Complexity: O(k) expected.
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == Int)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == String)
    @specialized(where SectionIdentifierType == Int, ItemIdentifierType == UUID)
    @specialized(where SectionIdentifierType == String, ItemIdentifierType == UUID)
    mutating func refreshPresentItems(_ items: [ItemIdentifierType], reloading: Bool) {
        // Every item is present (the caller's mirror holds them), so neither call throws.
        if reloading { try? tryReloadItems(items) } else { try? tryReconfigureItems(items) }
    }
}
