import CDiffableGTK
import CGtk4
import Diffable
import Foundation

// Reordering by drag: each row widget is a GtkDragSource carrying its model position and a
// GtkDropTarget; the data source's reorderingHandlers decide which rows may move and take the
// move into its snapshot.
extension GTKListView {
    /// Whether the user can drag item rows to reorder them (`GtkDragSource` and `GtkDropTarget`
    /// on every row widget). A drag starts only on a row the data source's
    /// `canMoveItem(at:)` allows (for ``DiffableDataSource``: its
    /// `reorderingHandlers.canReorderItem`); a drop on a row's upper half puts the dragged row
    /// before it, on its lower half after it, on a section header first in that section. The
    /// list shows the move at once (one signal; the row keeps its widget), then reports it with
    /// `moveItem(at:to:)`, where the data source runs `willReorder` and `didReorder`.
    /// Set it before the first apply (rows shown before keep widgets without drag). Default false.
    /// - Complexity: O(1).
    public var reordersByDrag: Bool {
        get { binder.reorderable }
        set { binder.reorderable = newValue }
    }

    /// The user dropped the row at model position `from` on the row at `target` (in its lower
    /// half when `below`). Shows the move and reports it to the data source; returns whether
    /// it moved a row. - Complexity: O(k log k) for the move's signal, plus the data source's
    /// `moveItem(at:to:)`.
    @discardableResult
    public func dropRow(from: Int, onto target: Int, below: Bool) -> Bool {
        GTKMainContext.assertCurrent("GTKListView.dropRow(from:onto:below:)")
        guard let dataSource, let source = indexPath(at: from), dataSource.canMoveItem(at: source) else { return false }
        var destination: IndexPath
        if let onto = indexPath(at: target) {
            destination = IndexPath(item: onto.item + (below ? 1 : 0), section: onto.section)
        } else if let section = section(ofHeaderAt: target) {
            destination = IndexPath(item: 0, section: section)
        } else {
            return false
        }
        // The destination as UIKit reports it: in the list without the dragged row.
        if destination.section == source.section && destination.item > source.item {
            destination = IndexPath(item: destination.item - 1, section: destination.section)
        }
        guard destination != source else { return false }
        var newCounts = itemCounts
        newCounts[source.section] -= 1
        newCounts[destination.section] += 1
        applyGrouped(
            BatchUpdate(moveItems: [BatchUpdate.ItemMove(from: source, to: destination)]), oldCounts: itemCounts,
            newCounts: newCounts, dataSource: dataSource)
        dataSource.moveItem(at: source, to: destination)
        refreshOutline()
        return true
    }

    /// The section whose header row is at model `position`, or nil. - Complexity: O(sections).
    func section(ofHeaderAt position: Int) -> Int? {
        var start = 0
        for section in itemCounts.indices {
            if headers[section] && start == position { return section }
            start += (headers[section] ? 1 : 0) + itemCounts[section]
        }
        return nil
    }

    /// Wires the row widgets' drag sources and drop targets to the data source.
    func connectReordering() {
        binder.onDragPrepare = { [weak self] item in
            let position = gtk_list_item_get_position(item)
            guard let self, position != GTK_INVALID_LIST_POSITION, let path = self.indexPath(at: Int(position)),
                self.dataSource?.canMoveItem(at: path) == true
            else { return -1 }
            return Int(position)
        }
        binder.onDrop = { [weak self] item, from, below in
            let target = gtk_list_item_get_position(item)
            guard let self, target != GTK_INVALID_LIST_POSITION else { return false }
            return self.dropRow(from: from, onto: Int(target), below: below)
        }
    }
}
