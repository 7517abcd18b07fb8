import Foundation

/// An item index path as the C planner writes it: two 32-bit indices, 8 bytes
/// (a Foundation `IndexPath` takes 24, and an `ItemMove` 48).
struct PackedIndexPath: Hashable, Sendable {
    var section: UInt32
    var item: UInt32

    /// - Complexity: O(1).
    var indexPath: IndexPath { IndexPath(item: Int(item), section: Int(section)) }
}
