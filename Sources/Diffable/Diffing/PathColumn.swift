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
struct PathColumn: RandomAccessCollection {
    private enum Storage {
        case paths([IndexPath])
        case sources([BatchUpdate.ItemMove])
        case targets([BatchUpdate.ItemMove])
        case packed(PackedIndexPaths, start: Int)
    }
    private let storage: Storage
    let count: Int

    /// - Complexity: O(1).
    init(_ list: ItemPathList) {
        switch list {
        case .indexPaths(let paths): storage = .paths(paths)
        case .packed(let store, let range): storage = .packed(store, start: range.lowerBound)
        }
        count = list.count
    }

    /// The sources (`targets` false) or targets of `list`. - Complexity: O(1).
    init(_ list: ItemMoveList, targets: Bool) {
        switch list {
        case .moves(let moves): storage = targets ? .targets(moves) : .sources(moves)
        case .packed(let store, let from, let to): storage = .packed(store, start: targets ? to.lowerBound : from.lowerBound)
        }
        count = list.count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// - Complexity: O(1).
    subscript(position: Int) -> RowPath {
        switch storage {
        case .paths(let paths): Self.row(paths[position])
        case .sources(let moves): Self.row(moves[position].from)
        case .targets(let moves): Self.row(moves[position].to)
        case .packed(let store, let start):
            RowPath(section: Int(store.paths[start + position].section), item: Int(store.paths[start + position].item))
        }
    }

    private static func row(_ path: IndexPath) -> RowPath { RowPath(section: path[0], item: path[1]) }

    /// The first `IndexPath` without exactly two indices (a packed list has none).
    /// - Complexity: O(count).
    var firstMalformed: IndexPath? {
        switch storage {
        case .paths(let paths): paths.first { $0.count != 2 }
        case .sources(let moves): moves.first { $0.from.count != 2 }?.from
        case .targets(let moves): moves.first { $0.to.count != 2 }?.to
        case .packed: nil
        }
    }
}
