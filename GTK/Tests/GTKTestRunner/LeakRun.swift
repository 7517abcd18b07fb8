import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import DiffableTools
import Foundation

/// `diffable-gtk-tests --leak-run N` (make gtk-valgrind): N seeded applies through a sectioned
/// list with header rows, an outline section, a selection, row identities, disclosure
/// toggles and drops, then everything released and the main context drained, so that memcheck's leak
/// report at exit covers every row object, payload, widget and closure the applies made.
func leakRun(applies: Int) {
    do {  // the fixture's scope: released before the final drain
        var rng = SeededGenerator(testSeed: 99)
        let fixture = Fixture(headers: true, selection: .multiple, height: 300)
        fixture.view.rowIdentity = { cell, _ in identifier(cell) }
        fixture.view.showOutlines(of: fixture.dataSource, where: { $0 == "T" })
        fixture.view.reordersByDrag = true
        fixture.dataSource.reorderingHandlers = .init(canReorderItem: { _ in true })
        var layout: Layout = (0..<3).map { s in ("S\(s)", (0..<20).map { "a\(s)-\($0)" }) }
        var next = 0
        var drops = 0
        for apply in 0..<applies {
            switch apply % 4 {
            case 3:  // the outline section, then a disclosure toggle of one of its rows
                let done = Flag()
                fixture.dataSource.apply(randomOutline(using: &rng), to: "T", animatingDifferences: true) { done.raise() }
                GTKMainContext.iterate(until: { done.value > 0 })
                if let section = fixture.dataSource.index(for: "T"), fixture.dataSource.numberOfItems(inSection: section) > 0 {
                    let path = IndexPath(item: 0, section: section)
                    fixture.view.toggleDisclosure(at: fixture.view.position(of: path))
                }
            default:
                layout = edit(layout, sectioned: true, using: &rng, next: &next)
                if layout.isEmpty { layout = [("S0", [])] }
                var target = snapshot(of: layout)
                if let tree = fixture.dataSource.index(for: "T").map({ _ in fixture.dataSource.snapshot(for: "T") }) {
                    target.appendSections(["T"])
                    target.appendItems(tree.visibleItems, toSection: "T")
                }
                if let item = target.itemIdentifiers.randomElement(using: &rng) {
                    fixture.versionBox.bump(item)
                    target.reconfigureItems([item])
                }
                fixture.apply(target)
                if apply % 10 == 0, fixture.view.rowCount > 2 { fixture.view.select(IndexPath(item: 0, section: 0)) }
            }
            if apply % 7 == 0, fixture.view.rowCount > 6, let target = fixture.view.rowContainer(at: 5).flatMap(gtk_widget_get_first_child) {
                _ = dfg_emit_drag_prepare(target)
                drops += Int(dfg_emit_drop(target, 2, 1))  // a drag of row 2 onto row 5 (refused for a header)
            }
            settle(0.001)
        }
        print(
            "leak run: \(applies) applies, \(fixture.view.batchesPerformed) batches, \(drops) drops, \(fixture.view.statistics.binds) binds, "
                + "\(fixture.view.statistics.widgetsCreated) widgets made")
        fixture.close()
    }
    settle(0.2)
}
