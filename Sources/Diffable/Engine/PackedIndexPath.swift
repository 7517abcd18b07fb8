import Foundation

/// An item index path as the C planner writes it: two 32-bit indices, 8 bytes
/// (a Foundation `IndexPath` takes 24, and an `ItemMove` 48).
struct PackedIndexPath: Hashable, Sendable {
    var section: UInt32
    var item: UInt32

    /// - Complexity: O(1).
    var indexPath: IndexPath { IndexPath(item: Int(item), section: Int(section)) }

    /// `packed` as Foundation `IndexPath`s, in order.
    ///
    /// Each path is built where it is stored: a one-index path appended to the array, then
    /// its item appended to the stored value. A path made aside and then appended is copied
    /// into the array and destroyed (Foundation's `IndexPath` is an enum whose copy and
    /// destroy are out-of-line calls): about 13 instructions a path more, on lists an app
    /// reads once.
    /// - Complexity: O(packed.count).
    static func indexPaths(_ packed: UnsafeBufferPointer<PackedIndexPath>) -> [IndexPath] {
        var made: [IndexPath] = []
        made.reserveCapacity(packed.count)
        for path in packed { made.append(IndexPath(index: Int(path.section))) }
        made.withUnsafeMutableBufferPointer { paths in
            for offset in paths.indices { paths[offset].append(Int(packed[offset].item)) }
        }
        return made
    }
}
