import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import DiffableTools
import Foundation

typealias Outline = DiffableDataSourceSectionSnapshot<String>

/// A random outline over identifiers drawn from a pool of 40: each item under a random earlier
/// item (or at the root), each parent expanded or not.
func randomOutline(using rng: inout SeededGenerator) -> Outline {
    var outline = Outline()
    var placed: [String] = []
    for id in (0..<40).map({ "n\($0)" }).shuffled(using: &rng).prefix(Int.random(in: 0...30, using: &rng)) {
        if placed.isEmpty || Int.random(in: 0..<3, using: &rng) == 0 {
            outline.append([id])
        } else {
            outline.append([id], to: placed.randomElement(using: &rng)!)
        }
        placed.append(id)
    }
    outline.expand(placed.filter { _ in Int.random(in: 0..<3, using: &rng) > 0 })
    return outline
}

/// Checks every shown row of the outline section against `outline`: its disclosure button and
/// indentation, and its accessible expanded state and level.
func checkOutlineRows(_ results: Results, _ fixture: Fixture, section: Int, _ outline: Outline, _ label: String) {
    let items = outline.items
    var problems: [String] = []
    for position in 0..<fixture.view.rowCount {
        guard let path = fixture.view.indexPath(at: position), path.section == section else { continue }
        let id = identifier(fixture.view.row(at: position)!.cell)
        let index = outline.index(of: id)!
        let level = outline.level(of: id)
        let expandable = index + 1 < items.count && outline.level(of: items[index + 1]) > level
        let want = OutlineRowState(level: level, isExpandable: expandable, isExpanded: expandable && outline.isExpanded(id))
        if fixture.view.outlineState(at: position) != want {
            problems.append("\(id): state \(String(describing: fixture.view.outlineState(at: position))) != \(want)")
        }
        guard let button = fixture.view.disclosureButton(at: position), let container = fixture.view.rowContainer(at: position) else {
            continue
        }
        if (gtk_widget_get_opacity(button) == 1) != want.isExpandable || gtk_widget_get_margin_start(button) != Int32(16 * level) {
            problems.append("\(id): disclosure button")
        }
        if let message = dfg_accessible_check_expanded(container, want.isExpandable ? (want.isExpanded ? 1 : 0) : -1) {
            problems.append("\(id): \(String(cString: message))")
            g_free(message)
        }
    }
    results.check(problems.isEmpty, "\(label): \(problems.prefix(5))")
}

/// Seeded outline applies: after each, the rows are the outline's visible items (and a flat
/// section beside it stays), the replica of the signals equals the model, and each shown row's
/// disclosure state matches the outline.
func randomOutlineSequences(_ results: Results) {
    for sequence in 0..<60 {
        var rng = SeededGenerator(testSeed: 7_000 &+ UInt64(sequence))
        let fixture = Fixture(headers: false, height: 360)
        fixture.view.signalMergeSpan = sequence % 2 == 0 ? 0 : 512
        fixture.view.showOutlines(of: fixture.dataSource, where: { $0 == "T" })
        let flat = (0..<Int.random(in: 0...6, using: &rng)).map { "f\($0)" }
        var base = Snapshot()
        base.appendSections(["F", "T"])
        base.appendItems(flat, toSection: "F")
        fixture.apply(base)
        for step in 0..<6 {
            let outline = randomOutline(using: &rng)
            let done = Flag()
            fixture.dataSource.apply(outline, to: "T", animatingDifferences: true) { done.raise() }
            GTKMainContext.iterate(until: { done.value > 0 })
            settle(0.002)
            var expected = base
            expected.appendItems(outline.visibleItems, toSection: "T")
            checkState(results, fixture, expected, "outline \(sequence) step \(step)")
            checkOutlineRows(results, fixture, section: 1, outline, "outline \(sequence) step \(step)")
        }
        fixture.close()
    }
}

/// Disclosure buttons and keys go through the data source's sectionSnapshotHandlers (lazy
/// children, a refused expand) and come back as a batch; the toggled row keeps its widget.
func disclosureRoundTrip(_ results: Results) {
    let fixture = Fixture(headers: false)
    let parents = (0..<5).map { "p\($0)" }
    fixture.view.showOutlines(of: fixture.dataSource, isExpandable: { $0.hasPrefix("p") && !$0.contains("-") })
    var calls: [String] = []
    fixture.dataSource.sectionSnapshotHandlers = .init(
        shouldExpandItem: { $0 != "p4" },
        willExpandItem: { calls.append("willExpand \($0)") },
        willCollapseItem: { calls.append("willCollapse \($0)") },
        snapshotForExpandingParent: { parent, current in
            calls.append("load \(parent) (had \(current.items.count))")
            var children = Outline()
            children.append((0..<3).map { "\(parent)-c\($0)" })
            return children
        })
    var outline = Outline()
    outline.append(parents)
    let done = Flag()
    fixture.dataSource.apply(outline, to: "T", animatingDifferences: false) { done.raise() }
    GTKMainContext.iterate(until: { done.value > 0 })
    settle(0.2)
    func rows() -> [String] { fixture.view.allRows.map { identifier($0.cell) } }
    func click(_ id: String) -> Bool {
        guard let position = rows().firstIndex(of: id), let button = fixture.view.disclosureButton(at: position) else { return false }
        let before = fixture.view.batchesPerformed
        gtk_widget_activate(button)  // a click: the button's "clicked" through GTK
        GTKMainContext.iterate(until: { fixture.view.batchesPerformed > before }, timeout: 0.5)
        settle(0.05)
        return true
    }
    let widgetBefore = fixture.view.boundWidget(at: 1)
    results.check(
        fixture.view.outlineState(at: 1) == OutlineRowState(level: 0, isExpandable: true, isExpanded: false), "p1 collapsed, expandable")
    results.check(click("p1"), "p1 has a disclosure button")
    results.check(rows() == ["p0", "p1", "p1-c0", "p1-c1", "p1-c2", "p2", "p3", "p4"], "expand p1 (lazy children): \(rows())")
    results.check(calls == ["willExpand p1", "load p1 (had 0)"], "handlers on expand: \(calls)")
    results.check(
        fixture.view.outlineState(at: 1)?.isExpanded == true && fixture.view.outlineState(at: 2)?.level == 1,
        "p1 expanded, children at level 1")
    results.check(fixture.view.boundWidget(at: 1) == widgetBefore, "the expanded row keeps its widget")
    if let container = fixture.view.rowContainer(at: 1), let message = dfg_accessible_check_expanded(container, 1) {
        results.check(false, "p1's row is not announced expanded: \(String(cString: message))")
        g_free(message)
    }
    results.check(fixture.replica.rows == fixture.replica.modelRows, "expand: the replayed signals give the model's rows")
    calls = []
    _ = click("p4")
    results.check(rows().count == 8 && calls.isEmpty, "p4 refused by shouldExpandItem: \(rows()), \(calls)")
    // Keyboard: + on the focused row expands it, − collapses it.
    let p2 = rows().firstIndex(of: "p2")!
    gtk_widget_grab_focus(fixture.view.rowContainer(at: p2)!)
    results.check(fixture.view.focusedPosition == p2, "focus on p2: \(String(describing: fixture.view.focusedPosition))")
    results.check(dfg_activate_key_binding(fixture.view.widget, guint(GDK_KEY_plus), GdkModifierType(rawValue: 0)) != 0, "+ is bound")
    GTKMainContext.iterate(until: { rows().count == 11 }, timeout: 2)
    results.check(rows().contains("p2-c2") && calls == ["willExpand p2", "load p2 (had 0)"], "+ expands p2: \(rows()), \(calls)")
    results.check(dfg_activate_key_binding(fixture.view.widget, guint(GDK_KEY_minus), GdkModifierType(rawValue: 0)) != 0, "− is bound")
    GTKMainContext.iterate(until: { rows().count == 8 }, timeout: 2)
    results.check(!rows().contains("p2-c0") && calls.last == "willCollapse p2", "− collapses p2: \(rows()), \(calls)")
    calls = []
    _ = click("p1")
    results.check(rows() == parents && calls == ["willCollapse p1"], "collapse p1: \(rows()), \(calls)")
    results.check(fixture.dataSource.snapshot(for: "T").items.contains("p1-c0"), "collapsed children stay in the outline")
    results.check(fixture.replica.rows == fixture.replica.modelRows, "collapse: the replayed signals give the model's rows")
    fixture.close()
}

/// Rows carry accessible labels; keyboard focus stays on a row an apply moves, and the arrow
/// keys move on from its new place.
func accessibilityAndFocus(_ results: Results) {
    let fixture = Fixture(headers: false, height: 600)
    fixture.view.signalMergeSpan = 0
    var items = (0..<200).map { "k\($0)" }
    fixture.apply(snapshot(of: [("flat", items)]))
    settle(0.3)
    var labelled = 0
    for position in 0..<40 {
        guard let container = fixture.view.rowContainer(at: position) else { continue }
        if let message = dfg_accessible_check_label(container, fixture.view.row(at: position)!.cell) {
            results.check(false, "row \(position): \(String(cString: message))")
            g_free(message)
        } else {
            labelled += 1
        }
    }
    results.check(labelled >= 20, "rows with their accessible label: \(labelled)")
    let role = gtk_accessible_get_accessible_role(OpaquePointer(fixture.view.rowContainer(at: 0)!))
    results.check(role == GTK_ACCESSIBLE_ROLE_LIST_ITEM, "row role \(role)")
    results.notes.append(
        "accessibility: \(labelled) of the first 40 rows carry their label; row role \(role.rawValue) (GTK_ACCESSIBLE_ROLE_LIST_ITEM)")

    let container = fixture.view.rowContainer(at: 5)!
    gtk_widget_grab_focus(container)
    results.check(fixture.view.focusedPosition == 5, "focus on k5")
    // k5 moves down, rows are inserted above it and one deleted: one apply.
    items.insert(items.remove(at: 5), at: 30)
    items.insert(contentsOf: ["new0", "new1"], at: 0)
    items.removeAll { $0 == "k10" }
    fixture.apply(snapshot(of: [("flat", items)]))
    settle(0.1)
    let moved = items.firstIndex(of: "k5")!
    let focusWidget = gtk_root_get_focus(OpaquePointer(fixture.window.window))
    results.check(
        fixture.view.focusedPosition == moved, "focus follows k5 to \(moved): \(String(describing: fixture.view.focusedPosition))")
    results.check(
        focusWidget.map { UnsafeMutableRawPointer($0) } == UnsafeMutableRawPointer(container), "the focused widget is k5's row widget")
    let focusedText = fixture.view.focusedPosition.flatMap { fixture.view.row(at: $0) }.map { identifier($0.cell) }
    results.check(focusedText == "k5", "the focused row shows k5: \(String(describing: focusedText))")
    // Arrow keys move from k5's new place.
    results.check(dfg_activate_key_binding(fixture.view.widget, guint(GDK_KEY_Down), GdkModifierType(rawValue: 0)) != 0, "Down is bound")
    settle(0.05)
    let below = fixture.view.focusedPosition.flatMap { fixture.view.row(at: $0) }.map { identifier($0.cell) }
    results.check(below == items[moved + 1], "Down after the apply: \(String(describing: below)) (want \(items[moved + 1]))")
    _ = dfg_activate_key_binding(fixture.view.widget, guint(GDK_KEY_Up), GdkModifierType(rawValue: 0))
    _ = dfg_activate_key_binding(fixture.view.widget, guint(GDK_KEY_Up), GdkModifierType(rawValue: 0))
    settle(0.05)
    let above = fixture.view.focusedPosition.flatMap { fixture.view.row(at: $0) }.map { identifier($0.cell) }
    results.check(above == items[moved - 1], "Up twice: \(String(describing: above)) (want \(items[moved - 1]))")
    results.notes.append("keyboard: focus followed k5 from 5 to \(moved); Down → \(below ?? "-"), Up Up → \(above ?? "-")")
    fixture.close()
}
