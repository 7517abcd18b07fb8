// The process list: every process from /proc (pid, command, CPU %, RSS): first the process
// tree (parent → children) as an outline section whose children load when a row expands, then
// one section per user, re-sorted by CPU every second, with a filter entry. Rows that move keep
// their widget; a changed CPU or RSS updates its row in place (matching items by pid,
// `.reconfigure`).
//
//   diffable-gtk-demo [--seconds N] [--screenshot FILE.png]
//   (N: quit after N seconds; FILE: the window as a PNG, written when it quits)
//
// Needs a display: DISPLAY, or GDK_BACKEND=broadway (`make gtk-demo` starts a gtk4-broadwayd
// when neither is set and prints the URL to open in a browser).
import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import Foundation

setvbuf(stdout, nil, _IOLBF, 0)
var seconds: Double?
var screenshot: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--seconds": seconds = arguments.next().flatMap(Double.init)
    case "--screenshot": screenshot = arguments.next()
    default:
        print("usage: diffable-gtk-demo [--seconds N] [--screenshot FILE.png]")
        exit(2)
    }
}
guard GTKMainContext.initialize() else {
    print("diffable-gtk-demo: no display (set DISPLAY, or run `make gtk-demo`, which starts gtk4-broadwayd)")
    exit(1)
}

/// A process as a row of its user's section or as a node of the process tree.
enum DemoItem: Hashable, Sendable, Identifiable {
    case process(ProcessInfoRow)
    case node(ProcessInfoRow)

    /// Which row and which pid: CPU and RSS changes reconfigure the same row.
    struct Key: Hashable, Sendable {
        let tree: Bool
        let pid: Int32
    }
    var id: Key {
        switch self {
        case .process(let process): Key(tree: false, pid: process.id)
        case .node(let process): Key(tree: true, pid: process.id)
        }
    }
    var process: ProcessInfoRow {
        switch self {
        case .process(let process), .node(let process): process
        }
    }
}

enum DemoCell {
    case process(ProcessInfoRow, tree: Bool)
    case header(String)
}

let treeSection = "process tree"

func label(_ chars: Int32, xalign: Float) -> GtkWidgetPointer {
    let label = gtk_label_new(nil)!
    gtk_label_set_xalign(OpaquePointer(label), xalign)
    gtk_label_set_width_chars(OpaquePointer(label), chars)
    return label
}

func makeProcessRow() -> GtkWidgetPointer {
    let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
    let command = label(20, xalign: 0)
    gtk_label_set_ellipsize(OpaquePointer(command), PANGO_ELLIPSIZE_END)
    gtk_widget_set_hexpand(command, 1)
    for child in [label(7, xalign: 1), command, label(7, xalign: 1), label(10, xalign: 1)] {
        gtk_box_append(gtkCast(box, to: GtkBox.self), child)
    }
    return box
}

func children(of box: GtkWidgetPointer) -> [GtkWidgetPointer] {
    var result: [GtkWidgetPointer] = []
    var child = gtk_widget_get_first_child(box)
    while let current = child {
        result.append(current)
        child = gtk_widget_get_next_sibling(current)
    }
    return result
}

func bindProcessRow(_ widget: GtkWidgetPointer, _ cell: DemoCell) {
    guard case .process(let process, _) = cell else { return }
    let labels = children(of: widget)
    let texts = [
        "\(process.id)", process.command, String(format: "%.1f %%", process.cpu),
        process.rssKiB >= 10240 ? "\(process.rssKiB / 1024) MiB" : "\(process.rssKiB) KiB",
    ]
    for (label, text) in zip(labels, texts) { gtk_label_set_text(OpaquePointer(label), text) }
}

func makeHeaderRow() -> GtkWidgetPointer {
    let header = gtk_label_new(nil)!
    gtk_label_set_xalign(OpaquePointer(header), 0)
    gtk_widget_add_css_class(header, "heading")
    gtk_widget_set_margin_top(header, 8)
    return header
}

func bindHeaderRow(_ widget: GtkWidgetPointer, _ cell: DemoCell) {
    guard case .header(let section) = cell else { return }
    gtk_label_set_text(OpaquePointer(widget), section == treeSection ? "process tree (parent → children)" : "user \(section)")
}

let list = GTKListView<DemoCell>(
    selection: .single, makeItem: makeProcessRow, bindItem: bindProcessRow, makeHeader: makeHeaderRow,
    bindHeader: bindHeaderRow)
// A user's section that moves and changes arrives as a delete and an insert: the rows' pid
// (and kind) lets the list keep their widgets.
list.rowIdentity = { cell, _ in
    switch cell {
    case .process(let process, let tree): DemoItem.Key(tree: tree, pid: process.id)
    case .header(let section): section
    }
}
list.accessibleLabel = { cell, _ in
    switch cell {
    case .process(let process, _): "process \(process.id), \(process.command), CPU \(String(format: "%.1f", process.cpu)) %"
    case .header(let section): section == treeSection ? "process tree" : "processes of \(section)"
    }
}
let dataSource = DiffableDataSource<String, DemoItem, DemoCell>(
    view: list, executor: GTKMainContext.executor, matchingItemsByID: .reconfigure
) { _, item in
    switch item {
    case .process(let process): .process(process, tree: false)
    case .node(let process): .process(process, tree: true)
    }
}
dataSource.supplementaryViewProvider = { kind, path in
    guard kind == "header", let section = dataSource.sectionIdentifier(for: path.section) else { return nil }
    return .header(section)
}
// The tree's children load when a row expands: the data source asks for them then.
dataSource.sectionSnapshotHandlers = .init(snapshotForExpandingParent: { parent, _ in
    var children = DiffableDataSourceSectionSnapshot<DemoItem>()
    children.append(childrenByParent[parent.process.id, default: []].map(DemoItem.node))
    return children
})
list.showOutlines(of: dataSource, where: { $0 == treeSection }) { childrenByParent[$0.process.id] != nil }

let window = gtk_window_new()!
gtk_window_set_title(gtkCast(window, to: GtkWindow.self), "Diffable GTK — processes")
gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 720, 640)
let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
let entry = gtk_search_entry_new()!
gtk_widget_set_margin_start(entry, 6)
gtk_widget_set_margin_end(entry, 6)
gtk_widget_set_margin_top(entry, 6)
let status = gtk_label_new(nil)!
gtk_label_set_xalign(OpaquePointer(status), 0)
gtk_widget_set_margin_start(status, 8)
let scrolled = gtk_scrolled_window_new()!
gtk_widget_set_vexpand(scrolled, 1)
gtk_scrolled_window_set_child(OpaquePointer(scrolled), list.widget)
gtk_box_append(gtkCast(column, to: GtkBox.self), entry)
gtk_box_append(gtkCast(column, to: GtkBox.self), status)
gtk_box_append(gtkCast(column, to: GtkBox.self), scrolled)
gtk_window_set_child(gtkCast(window, to: GtkWindow.self), column)

let sampler = ProcessSampler()
var processes: [ProcessInfoRow] = []
var childrenByParent: [Int32: [ProcessInfoRow]] = [:]
var filterText = ""
var applies = 0

/// Sections by total CPU (then name), rows by CPU (then pid), filtered by command or user.
func refresh() {
    let needle = filterText.lowercased()
    let shown =
        needle.isEmpty
        ? processes
        : processes.filter { $0.command.lowercased().contains(needle) || $0.user.lowercased().contains(needle) }
    let byUser = Dictionary(grouping: shown, by: \.user)
    let users = byUser.keys.sorted {
        let a = byUser[$0]!.reduce(0) { $0 + $1.cpu }, b = byUser[$1]!.reduce(0) { $0 + $1.cpu }
        return a != b ? a > b : $0 < $1
    }
    // The tree keeps the rows the user expanded; its outline is applied first, so the flat
    // apply after it leaves the section's rows as they are (and the outline with them).
    // The first time, the first root (normally init) is expanded, so the tree shows a level.
    let expanded =
        applies == 0
        ? Set(rootProcesses().prefix(1).map(\.id)) : Set(dataSource.snapshot(for: treeSection).expandedItems.map(\.process.id))
    let tree = processTree(expanding: expanded)
    let started = Date()
    dataSource.apply(tree, to: treeSection, animatingDifferences: true, completion: nil)
    var snapshot = DiffableDataSourceSnapshot<String, DemoItem>()
    snapshot.appendSections([treeSection] + users)
    snapshot.appendItems(tree.visibleItems, toSection: treeSection)
    for user in users {
        snapshot.appendItems(
            byUser[user]!.sorted { $0.cpu != $1.cpu ? $0.cpu > $1.cpu : $0.id < $1.id }.map(DemoItem.process), toSection: user)
    }
    dataSource.apply(snapshot, animatingDifferences: true) {
        let ms = Date().timeIntervalSince(started) * 1000
        applies += 1
        let stats = list.statistics
        let text = String(
            format: "%d processes of %d, %d users · apply %.1f ms · %d signals · binds %d, in-place updates %d",
            shown.count, processes.count, users.count, ms, list.lastEmissionsOfStructuralBatch.count, stats.binds,
            stats.reconfigures)
        gtk_label_set_text(OpaquePointer(status), text)
    }
}

dfg_connect_changed(
    entry,
    { editable, _ in
        filterText = String(cString: gtk_editable_get_text(OpaquePointer(editable)))
        refresh()
    }, nil)

/// The process tree: processes whose parent is not listed at the root, the children of
/// `expanded` pids under them (and expanded), other children not loaded yet.
func processTree(expanding expanded: Set<Int32>) -> DiffableDataSourceSectionSnapshot<DemoItem> {
    var tree = DiffableDataSourceSectionSnapshot<DemoItem>()
    let roots = rootProcesses()
    tree.append(roots.map(DemoItem.node))
    func load(_ process: ProcessInfoRow) {
        guard expanded.contains(process.id), let children = childrenByParent[process.id] else { return }
        tree.append(children.map(DemoItem.node), to: .node(process))
        tree.expand([.node(process)])
        children.forEach(load)
    }
    roots.forEach(load)
    return tree
}

/// Processes whose parent is not listed, by pid.
func rootProcesses() -> [ProcessInfoRow] {
    let pids = Set(processes.map(\.id))
    return processes.filter { !pids.contains($0.parent) }.sorted { $0.id < $1.id }
}

func sample() {
    processes = sampler.sample()
    childrenByParent = Dictionary(grouping: processes, by: \.parent).mapValues { $0.sorted { $0.id < $1.id } }
}

sample()
refresh()
dfg_timeout_add(
    1000,
    { _ in
        sample()
        refresh()
        return 1
    }, nil)

var running = true
dfg_connect(window, "destroy", { _, _ in running = false }, nil)
gtk_window_present(gtkCast(window, to: GtkWindow.self))
if let backend = ProcessInfo.processInfo.environment["GDK_BACKEND"], backend == "broadway" {
    print("diffable-gtk-demo: showing on broadway display \(ProcessInfo.processInfo.environment["BROADWAY_DISPLAY"] ?? ":0")")
}
let start = Date()
if screenshot != nil && seconds == nil { seconds = 5 }
// What the window's content drew in its last frame (a widget paintable follows its frames).
let screenshotSource = screenshot == nil ? nil : gtk_widget_paintable_new(column)
while running {
    g_main_context_iteration(nil, 1)
    if let seconds, Date().timeIntervalSince(start) >= seconds {
        print("diffable-gtk-demo: \(applies) applies, \(list.statistics.binds) binds, \(list.statistics.reconfigures) in-place updates")
        if let screenshot {
            guard let paintable = screenshotSource, dfg_save_widget_png(paintable, column, screenshot) != 0 else {
                print("diffable-gtk-demo: could not write \(screenshot)")
                exit(1)
            }
            print("diffable-gtk-demo: screenshot \(screenshot)")
        }
        break
    }
}
