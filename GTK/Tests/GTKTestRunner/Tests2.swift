import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import DiffableTools
import Foundation

func identifier(_ cell: String) -> String { String(cell.split(separator: "#").first ?? "") }

/// Emissions per batch: the fewest that keep moves inside one signal.
func signalCounts(_ results: Results) {
    let items = (0..<100).map { "a\($0)" }
    for strategy in [GTKListView<String>.EmissionStrategy.grouped, .perStep] {
        let fixture = Fixture(headers: false)
        fixture.view.emissionStrategy = strategy
        fixture.view.signalMergeSpan = 0
        fixture.apply(snapshot(of: [("flat", items)]))
        var moved = items
        moved.insert(moved.remove(at: 2), at: 50)
        fixture.apply(snapshot(of: [("flat", moved)]))
        let expected = strategy == .grouped ? 1 : 2
        results.check(fixture.view.lastEmissions.count == expected,
                      "one move, \(strategy): \(fixture.view.lastEmissions) (want \(expected) signals)")
        fixture.close()
    }
    let fixture = Fixture(headers: false)
    fixture.view.signalMergeSpan = 0
    fixture.apply(snapshot(of: [("flat", items)]))
    // Three deletes and two inserts far apart, no moves: five signals, one per change.
    var churned = items
    churned.remove(at: 90)
    churned.remove(at: 50)
    churned.remove(at: 10)
    churned.insert("x1", at: 30)
    churned.insert("x2", at: 70)
    fixture.apply(snapshot(of: [("flat", churned)]))
    results.check(fixture.view.lastEmissions.count == 5, "churn: \(fixture.view.lastEmissions) (want 5 signals)")
    // Adjacent changes share a signal: delete 40, insert before 41.
    var adjacent = churned
    adjacent.remove(at: 40)
    adjacent.insert("x3", at: 40)
    fixture.apply(snapshot(of: [("flat", adjacent)]))
    results.check(fixture.view.lastEmissions.count == 1, "adjacent delete + insert: \(fixture.view.lastEmissions)")
    // A full reversal: one signal over the whole list.
    let reversed = Array(adjacent.reversed())
    fixture.apply(snapshot(of: [("flat", reversed)]))
    results.check(fixture.view.lastEmissions == [Emission(oldRange: 0..<98, newRange: 0..<98)] || fixture.view.lastEmissions.count == 1,
                  "reversal: \(fixture.view.lastEmissions)")
    fixture.close()
    // Joining runs: deletes 19 unchanged rows apart, an insert 21 rows before the first.
    for (span, want) in [(18, 5), (19, 2), (21, 1), (512, 1)] {
        let joined = Fixture(headers: false)
        joined.view.signalMergeSpan = span
        joined.apply(snapshot(of: [("flat", items)]))
        var changed = items
        for index in [81, 61, 41, 21] { changed.remove(at: index) }  // 19 rows between
        changed.insert("y", at: 0)
        joined.apply(snapshot(of: [("flat", changed)]))
        results.check(joined.view.lastEmissions.count == want,
                      "span \(span): \(joined.view.lastEmissions)")
        checkState(results, joined, snapshot(of: [("flat", changed)]), "span \(span)")
        joined.close()
    }
    // A section moved past another: one signal spanning both sections.
    let sectioned = Fixture(headers: true)
    sectioned.view.signalMergeSpan = 0
    let layout: Layout = (0..<4).map { s in ("S\(s)", (0..<10).map { "s\(s)-\($0)" }) }
    sectioned.apply(snapshot(of: layout))
    var movedLayout = layout
    movedLayout.insert(movedLayout.remove(at: 0), at: 1)
    sectioned.apply(snapshot(of: movedLayout))
    results.check(sectioned.view.lastEmissions.count == 1 && sectioned.view.lastEmissions[0].oldRange.count <= 22,
                  "section move: \(sectioned.view.lastEmissions)")
    checkState(results, sectioned, snapshot(of: movedLayout), "section move")
    sectioned.close()
}

/// Rows that only move keep their widget; binds are the rows newly shown, inserted or reloaded.
func widgetIdentity(_ results: Results) {
    for strategy in [GTKListView<String>.EmissionStrategy.grouped, .perStep] {
        let fixture = Fixture(headers: true, height: 600)
        fixture.view.emissionStrategy = strategy
        var layout: Layout = [("A", (0..<12).map { "a\($0)" }), ("B", (0..<12).map { "b\($0)" }), ("C", (0..<200).map { "c\($0)" })]
        fixture.apply(snapshot(of: layout))
        settle(0.3)
        // id -> (widget, position) of every row GTK made a widget for (GTK 4.8 keeps up to
        // about 200 around the visible part).
        func shown() -> [String: (widget: UnsafeMutableRawPointer, position: Int)] {
            var widgets: [String: (UnsafeMutableRawPointer, Int)] = [:]
            for position in 0..<fixture.view.rowCount {
                if let widget = fixture.view.boundWidget(at: position) {
                    widgets[identifier(fixture.view.row(at: position)!.cell)] = (UnsafeMutableRawPointer(widget), position)
                }
            }
            return widgets
        }
        let before = shown()
        var bound: [String] = []
        fixture.view.onBind { cell, _, _ in bound.append(identifier(cell)) }
        let bindsBefore = fixture.view.statistics.binds
        let positionUpdatesBefore = fixture.view.statistics.positionUpdates
        // Visible rows move within and across sections (A and C), section B (untouched by item
        // changes: a moved section that is touched arrives as delete + insert, rule I5) moves to
        // the front, two rows are inserted, one deleted and one reloaded.
        layout[0].1.reverse()
        layout[2].1.insert(layout[0].1.remove(at: 3), at: 5)
        layout[0].1.insert(layout[2].1.remove(at: 8), at: 0)
        layout[2].1.insert("new1", at: 4)
        layout[0].1.insert("new2", at: 2)
        layout[0].1.remove(at: 7)
        layout.insert(layout.remove(at: 1), at: 0)
        var target = snapshot(of: layout)
        fixture.versionBox.bump("a4")
        target.reloadItems(["a4"])
        fixture.apply(target)
        let structural = fixture.view.lastEmissionsOfStructuralBatch
        settle(0.3)
        let after = shown()
        let binds = fixture.view.statistics.binds - bindsBefore
        let positionUpdates = fixture.view.statistics.positionUpdates - positionUpdatesBefore
        // Rows near the top (well inside GTK's window of widgets) that were shown before and
        // after, and only moved: each must keep its widget.
        var kept = 0
        var lost: [String] = []
        var needBind = Set<String>()
        for (id, now) in after {
            let fresh = id == "a4" || id.hasPrefix("new")
            guard let was = before[id], !fresh else {
                needBind.insert(id)
                continue
            }
            if was.widget == now.widget {
                if was.position < 100 && now.position < 100 { kept += 1 }
            } else {
                needBind.insert(id)
                if was.position < 100 && now.position < 100 { lost.append(id) }
            }
        }
        let freshShown = after.keys.filter { $0 == "a4" || $0.hasPrefix("new") }.count
        checkState(results, fixture, snapshot(of: layout), "widget identity \(strategy)")
        let line = "widget identity (\(strategy)): of the rows in the top 100 positions before and after, \(kept) kept their widget, "
            + "\(lost.count) got another\(lost.isEmpty ? "" : " \(lost.sorted())"); binds \(binds) = inserted/reloaded rows shown \(freshShown) "
            + "+ rows newly given a widget \(needBind.count - freshShown); GTK's position-only re-binds (closure skipped): \(positionUpdates)"
        results.notes.append(line)
        if strategy == .grouped {
            results.check(lost.isEmpty && kept > 10, line)
            results.check(binds == needBind.count && Set(bound) == needBind, line + "; bound \(bound.sorted())")
        } else {
            results.check(!lost.isEmpty, "one signal per step should lose moved rows' widgets: " + line)
        }
        fixture.view.onBind(nil)
        fixture.close()
    }
}

/// A section moved and changed in one batch arrives as a section delete and insert (UIKit's
/// rule); with `rowIdentity` its rows keep their widgets, without it they get new ones.
func movedChangedSection(_ results: Results) {
    for identified in [true, false] {
        let fixture = Fixture(headers: true, height: 600)
        if identified { fixture.view.rowIdentity = { cell, _ in identifier(cell) } }
        var layout: Layout = [("A", (0..<6).map { "a\($0)" }), ("B", (0..<10).map { "b\($0)" }), ("C", (0..<40).map { "c\($0)" })]
        fixture.apply(snapshot(of: layout))
        settle(0.3)
        func widgets() -> [String: UnsafeMutableRawPointer] {
            var result: [String: UnsafeMutableRawPointer] = [:]
            for position in 0..<fixture.view.rowCount {
                if let widget = fixture.view.boundWidget(at: position) {
                    result[identifier(fixture.view.row(at: position)!.cell)] = UnsafeMutableRawPointer(widget)
                }
            }
            return result
        }
        let before = widgets()
        let binds = fixture.view.statistics.binds
        var section = layout.remove(at: 1)
        section.1.remove(at: 4)
        section.1.insert("b-new", at: 2)
        layout.insert(section, at: 0)
        fixture.apply(snapshot(of: layout))
        let batch = fixture.view.lastEmissionsOfStructuralBatch
        settle(0.3)
        let after = widgets()
        let kept = section.1.filter { $0 != "b-new" && before[$0] != nil && before[$0] == after[$0] }.count
        let bound = fixture.view.statistics.binds - binds
        checkState(results, fixture, snapshot(of: layout), "moved and changed section (identity \(identified))")
        let line = "moved and changed section (rowIdentity \(identified ? "set" : "nil")): \(kept) of 9 kept rows kept their widget, "
            + "binds \(bound) (1 inserted row), signals \(batch.count)"
        results.notes.append(line)
        if identified {
            results.check(kept == 9 && bound == 1 && before["[B]"] == after["[B]"], line)
        } else {
            results.check(kept == 0 && bound >= 10, line)
        }
        fixture.close()
    }
}

/// The selection follows a moved identifier, drops a deleted one, survives a reload.
func selectionFollows(_ results: Results) {
    func selected(_ fixture: Fixture) -> [String] {
        fixture.view.selectedIndexPaths.compactMap { fixture.dataSource.itemIdentifier(for: $0) }
    }
    // Single selection, sections.
    let single = Fixture(headers: true)
    var layout: Layout = [("A", (0..<30).map { "a\($0)" }), ("B", (0..<10).map { "b\($0)" }), ("C", (0..<30).map { "c\($0)" })]
    single.apply(snapshot(of: layout))
    settle(0.1)
    single.view.select(IndexPath(item: 5, section: 0))
    results.check(selected(single) == ["a5"], "select a5: \(selected(single))")
    layout[0].1.remove(at: 5)
    layout[2].1.insert("a5", at: 20)  // far away, other section
    layout[0].1.insert("z1", at: 0)
    layout.insert(layout.remove(at: 1), at: 0)  // B (untouched) moves to the front
    single.apply(snapshot(of: layout))
    results.check(selected(single) == ["a5"], "moved a5 stays selected: \(selected(single))")
    var reload = snapshot(of: layout)
    single.versionBox.bump("a5")
    reload.reloadItems(["a5"])
    single.apply(reload)
    results.check(selected(single) == ["a5"], "reloaded a5 stays selected: \(selected(single))")
    layout[2].1.removeAll { $0 == "a5" }
    single.apply(snapshot(of: layout))
    results.check(selected(single).isEmpty, "deleted a5 leaves the selection: \(selected(single))")
    checkState(results, single, snapshot(of: layout), "single selection")
    single.close()
    // Multiple selection, flat.
    let multiple = Fixture(headers: false, selection: .multiple)
    var items = (0..<80).map { "m\($0)" }
    multiple.apply(snapshot(of: [("flat", items)]))
    for index in [1, 2, 3] { multiple.view.select(IndexPath(item: index, section: 0)) }
    results.check(selected(multiple) == ["m1", "m2", "m3"], "select three: \(selected(multiple))")
    items.shuffle(using: &SeededGenerator.shared)
    items.removeAll { $0 == "m3" }
    multiple.apply(snapshot(of: [("flat", items)]))
    results.check(Set(selected(multiple)) == ["m1", "m2"], "shuffled, m3 deleted: \(selected(multiple))")
    multiple.close()
}

extension SeededGenerator {
    static var shared = SeededGenerator(testSeed: 42)
}

/// 100 applies from four background threads, in a known call order, end at the last one.
func backgroundApplies(_ results: Results) {
    let fixture = Fixture(headers: true)
    fixture.apply(snapshot(of: [("S", ["start"])]))
    let lock = NSLock()
    var calls = 0
    var last = Snapshot()
    let done = Flag()
    let offMain = Flag()
    var threads: [Thread] = []
    for thread in 0..<4 {
        let worker = Thread {
            for _ in 0..<25 {
                lock.lock()
                calls += 1
                var rng = SeededGenerator(testSeed: UInt64(calls))
                var next = calls * 1000
                let sections = (0..<Int.random(in: 1...3, using: &rng)).map { s in
                    ("T\(s)", (0..<Int.random(in: 0...40, using: &rng)).map { _ in next += 1; return "r\(next % 97)" })
                }
                // Unique identifiers: drop repeats.
                var seen = Set<String>()
                let layout: Layout = sections.map { ($0.0, $0.1.filter { seen.insert($0).inserted }) }
                let target = snapshot(of: layout)
                last = target
                if !GTKMainContext.isCurrent { offMain.raise() }
                fixture.dataSource.apply(target, animatingDifferences: Bool.random(using: &rng)) { done.raise() }
                lock.unlock()
                usleep(UInt32.random(in: 0...2000, using: &rng))
            }
            _ = thread
        }
        threads.append(worker)
        worker.start()
    }
    let finished = GTKMainContext.iterate(until: { done.value == 100 }, timeout: 60)
    results.check(finished, "100 background applies finished: \(done.value)")
    results.check(offMain.value == 100, "applies were made off the GTK thread")
    settle(0.05)
    let final = lock.withLock { last }
    checkState(results, fixture, final, "after 100 background applies")
    results.notes.append("background applies: 100 from 4 threads, \(fixture.view.batchesPerformed) batches performed on the GTK thread")
    fixture.close()
}
