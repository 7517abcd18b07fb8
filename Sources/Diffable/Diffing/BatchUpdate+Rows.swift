import Foundation

extension BatchUpdate {
    /// One item list of a batch, or one side of its moves.
    package enum ItemList {
        case deletes, inserts, moveSources, moveTargets, reloads, reconfigures
    }

    /// `list` read in place as ``RowPath``s, without making its `IndexPath`s (a diff's lists
    /// stay packed). Every path must have exactly two indices, as a data source's and a
    /// validated batch's do; a reader of other batches checks ``PathColumn/firstMalformed``.
    /// - Complexity: O(1); each element O(1).
    package func rows(of list: ItemList) -> PathColumn {
        switch list {
        case .deletes: PathColumn(deleteItemList)
        case .inserts: PathColumn(insertItemList)
        case .moveSources: PathColumn(moveItemList, targets: false)
        case .moveTargets: PathColumn(moveItemList, targets: true)
        case .reloads: PathColumn(reloadItemList)
        case .reconfigures: PathColumn(reconfigureItemList)
        }
    }
}
