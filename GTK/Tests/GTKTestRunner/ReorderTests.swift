import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import Foundation

/// Drag reordering through the rows' GtkDragSource and GtkDropTarget signals (GTK 4 cannot
/// inject a pointer drag, so the tests emit the controllers' own "prepare" and "drop"):
/// canReorderItem refuses a drag, a drop moves the row (one signal, same widget) and the data
/// source takes the move (didReorder, its snapshot).
func dragReorder(_ results: Results) {
    let fixture = Fixture(headers: true, height: 600)
    fixture.view.reordersByDrag = true
    var reorders: [String] = []
    fixture.dataSource.reorderingHandlers = .init(
        canReorderItem: { $0 != "a0" },
        didReorder: { transaction in reorders.append("\(transaction.finalSnapshot.itemIdentifiers.count) items") })
    var layout: Layout = [("A", (0..<20).map { "a\($0)" }), ("B", (0..<10).map { "b\($0)" })]
    fixture.apply(snapshot(of: layout))
    settle(0.3)
    func position(_ id: String) -> Int { fixture.view.allRows.firstIndex { identifier($0.cell) == id }! }
    func rowWidget(_ id: String) -> GtkWidgetPointer { gtk_widget_get_first_child(fixture.view.rowContainer(at: position(id))!)! }
    results.check(dfg_emit_drag_prepare(rowWidget("a0")) == -1, "canReorderItem refuses a0's drag")
    results.check(dfg_emit_drag_prepare(rowWidget("a3")) == Int32(position("a3")), "a3's drag carries its position")
    results.check(dfg_emit_drag_prepare(rowWidget("[A]")) == -1, "a header cannot be dragged")

    // a3 dropped on a10's lower half: after a10.
    let widget = fixture.view.boundWidget(at: position("a3"))
    let target = rowWidget("a10")
    let signals = fixture.replica.signals
    results.check(dfg_emit_drop(target, guint(position("a3")), Double(gtk_widget_get_height(target)) * 0.75) != 0, "drop a3 on a10")
    layout[0].1.insert(layout[0].1.remove(at: 3), at: 10)
    settle(0.05)
    checkState(results, fixture, snapshot(of: layout), "drop a3 after a10")
    results.check(fixture.replica.signals == signals + 1, "one signal for the drop: \(fixture.replica.signals - signals)")
    results.check(fixture.view.boundWidget(at: position("a3")) == widget, "a3 keeps its widget")
    // b5 dropped on a1's upper half: before a1, across sections.
    let b5 = rowWidget("b5")
    _ = dfg_emit_drop(rowWidget("a1"), guint(position("b5")), 1)
    layout[0].1.insert(layout[1].1.remove(at: 5), at: 1)
    settle(0.05)
    checkState(results, fixture, snapshot(of: layout), "drop b5 before a1")
    results.check(rowWidget("b5") == b5, "b5 keeps its widget across sections")
    // a2 dropped on section B's header: first in B.
    _ = dfg_emit_drop(rowWidget("[B]"), guint(position("a2")), 1)
    layout[1].1.insert(layout[0].1.remove(at: layout[0].1.firstIndex(of: "a2")!), at: 0)
    settle(0.05)
    checkState(results, fixture, snapshot(of: layout), "drop a2 on B's header")
    results.check(reorders.count == 3, "didReorder ran for each drop: \(reorders)")
    // The next apply diffs from the dropped order: nothing to change.
    let before = fixture.view.batchesPerformed
    fixture.apply(snapshot(of: layout))
    results.check(
        fixture.view.batchesPerformed == before || fixture.view.lastEmissions.isEmpty, "applying the dropped order changes nothing")
    fixture.close()
}
