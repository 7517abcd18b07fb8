// make gtk-bench: Diffable's apply against replacing the whole list, in one GtkListView shown
// in a window (broadway). Each cell (way, rows, change) runs in a process of its own so its
// peak RSS (VmHWM) is its own; the changes come from one seed, the same for both ways.
//
//   diffable-gtk-bench [--sizes 10000,100000] [--applies 5]
import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import DiffableTools
import Foundation

setvbuf(stdout, nil, _IOLBF, 0)

/// The lists of one cell: the first, then `applies` changed ones.
func sequence(rows: Int, change: String, applies: Int) -> [[Int]] {
    var rng = SplitMix64(seed: UInt64(rows) &* 31 &+ (change == "churn" ? 1 : 2))
    var list = Array(0..<rows)
    var next = rows
    var result = [list]
    for _ in 0..<applies {
        if change == "churn" {
            for _ in 0..<(rows / 100) { list.remove(at: Int.random(in: 0..<list.count, using: &rng)) }
            for _ in 0..<(rows / 100) {
                list.insert(next, at: Int.random(in: 0...list.count, using: &rng))
                next += 1
            }
        } else {
            list.shuffle(using: &rng)
        }
        result.append(list)
    }
    return result
}

func peakRSSMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kib / 1024
}

func makeLabel() -> GtkWidgetPointer {
    let label = gtk_label_new(nil)!
    gtk_label_set_xalign(OpaquePointer(label), 0)
    return label
}

func present(_ list: GtkWidgetPointer) {
    let window = gtk_window_new()!
    gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 400, 600)
    let scrolled = gtk_scrolled_window_new()!
    gtk_scrolled_window_set_child(OpaquePointer(scrolled), list)
    gtk_window_set_child(gtkCast(window, to: GtkWindow.self), scrolled)
    gtk_window_present(gtkCast(window, to: GtkWindow.self))
}

func settle() {
    let until = Date().addingTimeInterval(0.2)
    GTKMainContext.iterate(until: { Date() > until })
    GTKMainContext.drain()
}

/// One cell in this process: prints "cell way rows change ms binds signals rss".
func runCell(way: String, rows: Int, change: String, applies: Int) {
    guard GTKMainContext.initialize() else { print("no display"); exit(1) }
    let lists = sequence(rows: rows, change: change, applies: applies)
    var times: [Double] = []
    var binds: [Int] = []
    var signals: [Int] = []
    if way == "diffable" {
        let view = GTKListView<Int>(selection: .single, makeItem: makeLabel, bindItem: { widget, value in
            gtk_label_set_text(OpaquePointer(widget), "row \(value)")
        })
        let dataSource = DiffableDataSource<Int, Int, Int>(view: view, executor: GTKMainContext.executor) { _, item in item }
        present(view.widget)
        func apply(_ list: [Int]) {
            var snapshot = DiffableDataSourceSnapshot<Int, Int>()
            snapshot.appendSections([0])
            snapshot.appendItems(list)
            var done = false
            dataSource.apply(snapshot, animatingDifferences: true) { done = true }
            if !done { GTKMainContext.iterate(until: { done }) }
        }
        apply(lists[0])
        settle()
        for list in lists.dropFirst() {
            let binds0 = view.statistics.binds
            let signals0 = view.emissionCount
            let start = Date()
            apply(list)
            GTKMainContext.drain()
            times.append(Date().timeIntervalSince(start) * 1000)
            binds.append(view.statistics.binds - binds0)
            signals.append(view.emissionCount - signals0)
            settle()
            binds[binds.count - 1] = view.statistics.binds - binds0
        }
    } else {
        // The usual GTK code without a diff: a GListStore of GtkStringObjects, replaced whole.
        let store = g_list_store_new(gtk_string_object_get_type())!
        final class Counter { var binds = 0 }
        let counter = Counter()
        let factory = dfg_factory_new({ item, _ in
            gtk_list_item_set_child(item, makeLabel())
        }, { item, user in
            Unmanaged<Counter>.fromOpaque(user!).takeUnretainedValue().binds += 1
            let object = gtk_list_item_get_item(item)!
            let text = gtk_string_object_get_string(OpaquePointer(object))
            gtk_label_set_text(OpaquePointer(gtk_list_item_get_child(item)), text)
        }, nil, nil, Unmanaged.passUnretained(counter).toOpaque())
        let selection = gtk_single_selection_new(store)
        let list = gtk_list_view_new(selection, factory)!
        present(list)
        var signalCount = 0
        func replace(_ values: [Int]) {
            var objects: [UnsafeMutableRawPointer?] = values.map { UnsafeMutableRawPointer(gtk_string_object_new("row \($0)")) }
            let old = g_list_model_get_n_items(store)
            objects.withUnsafeMutableBufferPointer { g_list_store_splice(store, 0, old, $0.baseAddress, guint($0.count)) }
            for object in objects { g_object_unref(object) }
            signalCount += 1
        }
        replace(lists[0])
        settle()
        for values in lists.dropFirst() {
            let binds0 = counter.binds
            let start = Date()
            replace(values)
            GTKMainContext.drain()
            times.append(Date().timeIntervalSince(start) * 1000)
            signals.append(1)
            settle()
            binds.append(counter.binds - binds0)
        }
        _ = signalCount
    }
    let median = times.sorted()[times.count / 2]
    let meanBinds = Double(binds.reduce(0, +)) / Double(binds.count)
    let meanSignals = Double(signals.reduce(0, +)) / Double(signals.count)
    print(String(format: "cell %@ %d %@ %.2f %.1f %.1f %.1f", way, rows, change, median, meanBinds, meanSignals, peakRSSMiB()))
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--cell", arguments.count == 5 {
    runCell(way: arguments[1], rows: Int(arguments[2])!, change: arguments[3], applies: Int(arguments[4])!)
    exit(0)
}
var sizes = [10_000, 100_000]
var applies = 5
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    let value = arguments.isEmpty ? "" : arguments.removeFirst()
    switch flag {
    case "--sizes": sizes = value.split(separator: ",").compactMap { Int($0) }
    case "--applies": applies = Int(value) ?? applies
    default:
        print("usage: diffable-gtk-bench [--sizes 10000,100000] [--applies 5]")
        exit(2)
    }
}

func cell(_ way: String, _ rows: Int, _ change: String) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--cell", way, "\(rows)", change, "\(applies)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try! process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("cell ") } ?? ""
    return line.split(separator: " ").map(String.init)
}

let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
print("<!-- make gtk-bench: median of \(applies) applies per cell, GtkListView in a 400×600 window on broadway, load average \(load) before, \(ProcessInfo.processInfo.activeProcessorCount) cores -->")
print("| rows | change | Diffable ms | replace ms | time ÷ | Diffable binds | replace binds | binds ÷ | Diffable signals | Diffable peak RSS MiB | replace peak RSS MiB |")
print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for rows in sizes {
    for change in ["churn", "re-sort"] {
        let ours = cell("diffable", rows, change)
        let theirs = cell("replace", rows, change)
        guard ours.count == 8, theirs.count == 8 else {
            print("| \(rows) | \(change) | failed: \(ours) \(theirs) |")
            continue
        }
        let (t1, t2) = (Double(ours[4])!, Double(theirs[4])!)
        let (b1, b2) = (Double(ours[5])!, Double(theirs[5])!)
        let label = change == "churn" ? "1% churn" : "full re-sort"
        print(String(format: "| %@ | %@ | %.2f | %.2f | %.1f× | %.1f | %.1f | %@ | %.0f | %.0f | %.0f |",
                     rows.formatted(), label, t1, t2, t2 / t1, b1, b2, b1 > 0 ? String(format: "%.0f×", b2 / b1) : "∞ (0 binds)",
                     Double(ours[6])!, Double(ours[7])!, Double(theirs[7])!))
    }
}
