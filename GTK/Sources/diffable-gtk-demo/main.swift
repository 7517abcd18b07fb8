// The process list: every process from /proc (pid, command, CPU %, RSS), one section per
// user, re-sorted by CPU every second, with a filter entry. Rows that move keep their widget;
// a changed CPU or RSS updates its row in place (matching items by pid, `.reconfigure`).
//
//   diffable-gtk-demo [--seconds N]     (N: quit after N seconds)
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
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--seconds": seconds = arguments.next().flatMap(Double.init)
    default:
        print("usage: diffable-gtk-demo [--seconds N]")
        exit(2)
    }
}
guard GTKMainContext.initialize() else {
    print("diffable-gtk-demo: no display (set DISPLAY, or run `make gtk-demo`, which starts gtk4-broadwayd)")
    exit(1)
}

enum DemoCell {
    case process(ProcessInfoRow)
    case header(String)
}

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
    guard case .process(let process) = cell else { return }
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
    guard case .header(let user) = cell else { return }
    gtk_label_set_text(OpaquePointer(widget), "user \(user)")
}

let list = GTKListView<DemoCell>(
    selection: .single, makeItem: makeProcessRow, bindItem: bindProcessRow, makeHeader: makeHeaderRow,
    bindHeader: bindHeaderRow)
let dataSource = DiffableDataSource<String, ProcessInfoRow, DemoCell>(
    view: list, executor: GTKMainContext.executor, matchingItemsByID: .reconfigure
) { _, process in .process(process) }
dataSource.supplementaryViewProvider = { kind, path in
    guard kind == "header", let user = dataSource.sectionIdentifier(for: path.section) else { return nil }
    return .header(user)
}

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
var filterText = ""
var applies = 0

/// Sections by total CPU (then name), rows by CPU (then pid), filtered by command or user.
func refresh() {
    let needle = filterText.lowercased()
    let shown = needle.isEmpty
        ? processes
        : processes.filter { $0.command.lowercased().contains(needle) || $0.user.lowercased().contains(needle) }
    let byUser = Dictionary(grouping: shown, by: \.user)
    let users = byUser.keys.sorted {
        let a = byUser[$0]!.reduce(0) { $0 + $1.cpu }, b = byUser[$1]!.reduce(0) { $0 + $1.cpu }
        return a != b ? a > b : $0 < $1
    }
    var snapshot = DiffableDataSourceSnapshot<String, ProcessInfoRow>()
    snapshot.appendSections(users)
    for user in users {
        snapshot.appendItems(byUser[user]!.sorted { $0.cpu != $1.cpu ? $0.cpu > $1.cpu : $0.id < $1.id }, toSection: user)
    }
    let started = Date()
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

dfg_connect_changed(entry, { editable, _ in
    filterText = String(cString: gtk_editable_get_text(OpaquePointer(editable)))
    refresh()
}, nil)

processes = sampler.sample()
refresh()
dfg_timeout_add(1000, { _ in
    processes = sampler.sample()
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
while running {
    g_main_context_iteration(nil, 1)
    if let seconds, Date().timeIntervalSince(start) >= seconds {
        print("diffable-gtk-demo: \(applies) applies, \(list.statistics.binds) binds, \(list.statistics.reconfigures) in-place updates")
        break
    }
}
