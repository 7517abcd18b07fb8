import Foundation

/// A (section, item) pair: 16 bytes, hashed and compared without Foundation's `IndexPath`.
package struct RowPath: Hashable, Comparable {
    package var section: Int
    package var item: Int

    /// - Complexity: O(1).
    package init(section: Int, item: Int) { (self.section, self.item) = (section, item) }

    /// - Complexity: O(1).
    var indexPath: IndexPath { IndexPath(item: item, section: section) }

    /// Section first, then item: the order of `IndexPath`s. - Complexity: O(1).
    package static func < (lhs: RowPath, rhs: RowPath) -> Bool { (lhs.section, lhs.item) < (rhs.section, rhs.item) }
}

/// One item list of a ``BatchUpdate`` (or one side of its moves) read as ``RowPath``s, without
/// making the `IndexPath`s of a list a diff packed: the validator reads 10^7 moves at 8 bytes
/// each instead of 48. Read elements only after V0 (every `IndexPath` has two indices).
///
/// `package`: a view model in the same package (the benchmarks' headless list) reads a
/// batch's lists through it too (``BatchUpdate/rows(of:)``), without making their `IndexPath`s.
package struct PathColumn: RandomAccessCollection {
    private enum Storage {
        case paths([IndexPath])
        case sources([BatchUpdate.ItemMove])
        case targets([BatchUpdate.ItemMove])
        case packed(PackedIndexPaths, start: Int)
    }
    private let storage: Storage
    package let count: Int
    /// Whether the list is ascending by (section, item): every list a diff packs is (docs/ALGORITHM.md,
    /// "Output order": moves ascending by destination), except the sources of its moves.
    private let isAscending: Bool

    /// - Complexity: O(1) (O(count) in checked builds, which check the packed order).
    init(_ list: ItemPathList) {
        switch list {
        case .indexPaths(let paths): (storage, isAscending) = (.paths(paths), false)
        case .packed(let store, let range): (storage, isAscending) = (.packed(store, start: range.lowerBound), true)
        }
        count = list.count
        checkOrder()
    }

    /// The sources (`targets` false) or targets of `list`.
    /// - Complexity: O(1) (O(count) in checked builds, which check the packed order).
    init(_ list: ItemMoveList, targets: Bool) {
        switch list {
        case .moves(let moves): (storage, isAscending) = (targets ? .targets(moves) : .sources(moves), false)
        case .packed(let store, let from, let to):
            (storage, isAscending) = (.packed(store, start: targets ? to.lowerBound : from.lowerBound), targets)
        }
        count = list.count
        checkOrder()
    }

    /// Checked builds: a list taken to be ascending is.
    /// - Complexity: O(count) in checked builds, else O(1).
    @inline(__always)
    private func checkOrder() {
        #if DIFFABLE_INTERNAL_CHECKS
            if isAscending {
                for offset in indices.dropFirst() {
                    precondition(self[offset - 1] < self[offset], "a packed list of a diff is not ascending at \(offset)")
                }
            }
        #endif
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    /// - Complexity: O(1).
    package subscript(position: Int) -> RowPath {
        switch storage {
        case .paths(let paths): Self.row(paths[position])
        case .sources(let moves): Self.row(moves[position].from)
        case .targets(let moves): Self.row(moves[position].to)
        case .packed(let store, let start):
            RowPath(section: Int(store.paths[start + position].section), item: Int(store.paths[start + position].item))
        }
    }

    private static func row(_ path: IndexPath) -> RowPath { RowPath(section: path[0], item: path[1]) }

    /// Calls `body` with the offset in this list and the item of each of its rows in `section`
    /// whose item is below `limit`, in list order. The scan runs here, over the packed paths
    /// where a diff left them: a reader in another module pays a call for each row it reads
    /// through the subscript (about 100 instructions a row, against a few here). A list a diff
    /// packed in ascending order is bisected to the section's run.
    /// - Complexity: O(log count + rows found) for a diff's ascending lists; O(count) for its
    ///   move sources and for lists made by hand; plus `body` for each row found.
    package func forEachRow(inSection section: Int, below limit: Int, _ body: (_ offset: Int, _ item: Int) -> Void) {
        guard case .packed(let store, let start) = storage else {
            for offset in 0..<count {
                let row = self[offset]
                if row.section == section && row.item >= 0 && row.item < limit { body(offset, row.item) }
            }
            return
        }
        guard let wanted = UInt32(exactly: section) else { return }
        store.paths.withUnsafeBufferPointer { all in
            let paths = UnsafeBufferPointer(rebasing: all[start..<(start + count)])
            guard isAscending else {
                for offset in paths.indices where paths[offset].section == wanted && Int(paths[offset].item) < limit {
                    body(offset, Int(paths[offset].item))
                }
                return
            }
            // Ascending: the section's rows are one run, found by bisection.
            var low = 0, high = paths.count
            while low < high {
                let middle = (low + high) / 2
                if paths[middle].section < wanted { low = middle + 1 } else { high = middle }
            }
            for offset in low..<paths.count {
                let path = paths[offset]
                guard path.section == wanted && Int(path.item) < limit else { break }
                body(offset, Int(path.item))
            }
        }
    }

    /// The first `IndexPath` without exactly two indices (a packed list has none).
    /// - Complexity: O(count).
    package var firstMalformed: IndexPath? {
        switch storage {
        case .paths(let paths): paths.first { $0.count != 2 }
        case .sources(let moves): moves.first { $0.from.count != 2 }?.from
        case .targets(let moves): moves.first { $0.to.count != 2 }?.to
        case .packed: nil
        }
    }
}
