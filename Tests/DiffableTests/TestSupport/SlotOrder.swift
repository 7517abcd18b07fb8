@testable import Diffable

extension SnapshotStorage {
    /// Whether the sections' slot lists, in display order, are exactly 0, 1, …, n − 1 (a
    /// snapshot built by appends): then an item's slot is its position counted across
    /// sections, what the tests of slot order check.
    /// - Complexity: O(n + s), stopping at the first slot out of order.
    var slotsFollowDisplayOrder: Bool {
        sectionItems.withUnsafeBufferPointer { FlatSnapshot.slotsRunInDisplayOrder(sectionOrder, $0, count: itemCount) }
    }
}
