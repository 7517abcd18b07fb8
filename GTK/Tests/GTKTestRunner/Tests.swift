import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import DiffableTools
import Foundation

typealias Snapshot = DiffableDataSourceSnapshot<String, String>

let allTests: [(String, (Results) -> Void)] = [
    ("random flat sequences", { randomSequences($0, sectioned: false, count: 110, seed: 1) }),
    ("random sectioned sequences", { randomSequences($0, sectioned: true, count: 110, seed: 2) }),
    ("random sequences, one signal per step", { randomSequences($0, sectioned: true, count: 20, seed: 3, strategy: .perStep) }),
    ("signal counts", signalCounts),
    ("widget identity", widgetIdentity),
    ("moved and changed section keeps widgets", movedChangedSection),
    ("selection follows identifiers", selectionFollows),
    ("applies from background threads", backgroundApplies),
    ("random outline sequences", randomOutlineSequences),
    ("disclosure round trip", disclosureRoundTrip),
    ("accessibility and keyboard focus", accessibilityAndFocus),
    ("drag reorder", dragReorder),
]

/// A list under test: the view in a window, its data source, and a replica of its signals.
/// Cells are "identifier#version" (versions change to check reloads and reconfigures);
/// section headers are "[section]" when `headers` is true.
final class Fixture: @unchecked Sendable {
    let view: GTKListView<String>
    let dataSource: DiffableDataSource<String, String, String>
    let window: TestWindow
    let replica: ModelReplica
    let headers: Bool
    nonisolated(unsafe) var versions: [String: Int] = [:]

    init(headers: Bool, selection: GTKListView<String>.SelectionMode = .single, height: Int32 = 480) {
        let view = GTKListView<String>(
            selection: selection, makeItem: makeLabel, bindItem: { setLabel($0, $1) }, makeHeader: makeLabel,
            bindHeader: { setLabel($0, $1) })
        self.view = view
        self.headers = headers
        window = TestWindow(showing: view.widget, height: height)
        replica = ModelReplica(view.model)
        let versions = VersionBox()
        self.versionBox = versions
        dataSource = DiffableDataSource(view: view, executor: GTKMainContext.executor) { _, item in
            "\(item)#\(versions.version(of: item))"
        }
        if headers {
            dataSource.supplementaryViewProvider = { [weak dataSource] kind, path in
                guard kind == "header", let section = dataSource?.sectionIdentifier(for: path.section) else { return nil }
                return "[\(section)]"
            }
        }
    }

    let versionBox: VersionBox

    /// Applies on the GTK thread and waits for the completion.
    func apply(_ snapshot: Snapshot, animating: Bool = true) {
        let done = Flag()
        dataSource.apply(snapshot, animatingDifferences: animating) { done.raise() }
        if done.value == 0 { GTKMainContext.iterate(until: { done.value > 0 }) }
    }

    /// The rows the snapshot should show, as cells.
    func expectedRows(_ snapshot: Snapshot) -> [String] {
        var rows: [String] = []
        for section in snapshot.sectionIdentifiers {
            if headers, snapshot.numberOfItems(inSection: section) >= 0 {
                // The header of a section is made when the section is made; a section kept
                // across applies keeps its header cell.
                rows.append("[\(section)]")
            }
            for item in snapshot.itemIdentifiers(inSection: section) { rows.append("\(item)#\(versionBox.version(of: item))") }
        }
        return rows
    }

    func close() { window.close() }
}

/// Item versions read by the cell provider (any thread).
final class VersionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var versions: [String: Int] = [:]
    func version(of item: String) -> Int { lock.withLock { versions[item] ?? 0 } }
    func bump(_ item: String) { lock.withLock { versions[item, default: 0] += 1 } }
}

/// Rows as (section, items) lists, the shape random edits work on.
typealias Layout = [(String, [String])]

func snapshot(of layout: Layout) -> Snapshot {
    var snapshot = Snapshot()
    snapshot.appendSections(layout.map(\.0))
    for (section, items) in layout { snapshot.appendItems(items, toSection: section) }
    return snapshot
}

/// A random edit of `layout`: deletes, inserts, moves within and across sections, and (when
/// sectioned) section deletes, inserts and moves.
func edit(_ layout: Layout, sectioned: Bool, using rng: inout SeededGenerator, next: inout Int) -> Layout {
    var layout = layout
    let edits = Int.random(in: 1...6, using: &rng)
    for _ in 0..<edits {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0...1:  // delete items
            for index in layout.indices where !layout[index].1.isEmpty && Bool.random(using: &rng) {
                layout[index].1.remove(at: Int.random(in: 0..<layout[index].1.count, using: &rng))
            }
        case 2...3:  // insert items
            let section = Int.random(in: 0..<layout.count, using: &rng)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                next += 1
                layout[section].1.insert("i\(next)", at: Int.random(in: 0...layout[section].1.count, using: &rng))
            }
        case 4...6:  // move items (across sections too)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let from = Int.random(in: 0..<layout.count, using: &rng)
                guard !layout[from].1.isEmpty else { continue }
                let item = layout[from].1.remove(at: Int.random(in: 0..<layout[from].1.count, using: &rng))
                let to = Int.random(in: 0..<layout.count, using: &rng)
                layout[to].1.insert(item, at: Int.random(in: 0...layout[to].1.count, using: &rng))
            }
        case 7:  // shuffle a stretch
            let section = Int.random(in: 0..<layout.count, using: &rng)
            layout[section].1.shuffle(using: &rng)
        default:
            guard sectioned else { continue }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0 where layout.count > 1:
                layout.remove(at: Int.random(in: 0..<layout.count, using: &rng))
            case 1:
                next += 1
                let items = (0..<Int.random(in: 0...4, using: &rng)).map { "s\(next)-\($0)" }
                layout.insert(("N\(next)", items), at: Int.random(in: 0...layout.count, using: &rng))
            default:
                let section = layout.remove(at: Int.random(in: 0..<layout.count, using: &rng))
                layout.insert(section, at: Int.random(in: 0...layout.count, using: &rng))
            }
        }
    }
    return layout
}

/// Checks the model against the snapshot, the replica against the model, the label of every
/// bound widget against its row, and the data source's snapshot.
func checkState(_ results: Results, _ fixture: Fixture, _ expected: Snapshot, _ label: String) {
    let rows = fixture.view.allRows.map(\.cell)
    let want = fixture.expectedRows(expected)
    results.check(rows == want, "\(label): model rows \(rows) != snapshot \(want)")
    results.check(fixture.replica.rows == fixture.replica.modelRows, "\(label): replayed signals give other rows than the model")
    results.check(fixture.dataSource.snapshot() == expected, "\(label): data source snapshot differs")
    var labelsOK = true
    for position in 0..<fixture.view.rowCount {
        if let widget = fixture.view.boundWidget(at: position) {
            let text = String(cString: gtk_label_get_text(OpaquePointer(widget)))
            if text != fixture.view.row(at: position)!.cell { labelsOK = false }
        }
    }
    results.check(labelsOK, "\(label): a bound widget shows another row's content")
}

func randomSequences(
    _ results: Results, sectioned: Bool, count: Int, seed: UInt64,
    strategy: GTKListView<String>.EmissionStrategy = .grouped
) {
    for sequence in 0..<count {
        var rng = SeededGenerator(testSeed: seed &* 1_000_003 &+ UInt64(sequence))
        var next = 0
        let fixture = Fixture(headers: sectioned, height: 240)
        fixture.view.emissionStrategy = strategy
        // Half the sequences join nearby runs (the default), half plan the fewest exact runs.
        fixture.view.signalMergeSpan = sequence % 2 == 0 ? 0 : 512
        // A third give the view the rows' identity (deleted and inserted again: one object).
        if sequence % 3 == 1 { fixture.view.rowIdentity = { cell, _ in identifier(cell) } }
        var layout: Layout = sectioned
            ? (0..<Int.random(in: 1...4, using: &rng)).map { s in ("S\(s)", (0..<Int.random(in: 0...8, using: &rng)).map { "a\(s)-\($0)" }) }
            : [("flat", (0..<Int.random(in: 0...30, using: &rng)).map { "a\($0)" })]
        fixture.apply(snapshot(of: layout))
        checkState(results, fixture, snapshot(of: layout), "seq \(seed)/\(sequence) first apply")
        for step in 0..<6 {
            layout = edit(layout, sectioned: sectioned, using: &rng, next: &next)
            var target = snapshot(of: layout)
            // Now and then reload or reconfigure kept items (a refresh batch follows the structural one).
            let items = target.itemIdentifiers
            if !items.isEmpty, Int.random(in: 0..<3, using: &rng) == 0 {
                let picked = items.randomElement(using: &rng)!
                fixture.versionBox.bump(picked)
                if Bool.random(using: &rng) { target.reloadItems([picked]) } else { target.reconfigureItems([picked]) }
            }
            if sectioned, !layout.isEmpty, Int.random(in: 0..<8, using: &rng) == 0 {
                target.reloadSections([layout.randomElement(using: &rng)!.0])
            }
            fixture.apply(target)
            settle(0.002)
            checkState(results, fixture, snapshot(of: layout), "seq \(seed)/\(sequence) step \(step)")
        }
        fixture.close()
    }
}
