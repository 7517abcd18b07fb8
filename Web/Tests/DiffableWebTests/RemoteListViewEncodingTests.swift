// RemoteListView's messages, read back without the production code: a data source drives the
// view, every message is parsed with JSONSerialization and replayed by the small model below
// (its own reading of the wire format in Web/README.md), and the model must then show the
// snapshot, with every surviving row still the entry it was (moved, not re-created).
import Diffable
import DiffableWeb
import Foundation
import Testing

/// What the test renders, changed only for rows and sections it reloads (a row the data source
/// does not re-send must not change, so the model can expect exactly this).
final class Texts: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: String] = [:]
    private var headers: [String: String] = [:]
    func row(_ id: String) -> String { lock.withLock { id + "|" + (rows[id] ?? "v0") } }
    func header(_ id: String) -> String { lock.withLock { "Section " + id + "|" + (headers[id] ?? "v0") } }
    func setRow(_ id: String, _ text: String) { lock.withLock { rows[id] = text } }
    func setHeader(_ id: String, _ text: String) { lock.withLock { headers[id] = text } }
}

/// The browser's list as plain arrays. Each row and section carries a token given when it was
/// made (insert, reload, section insert or reload, a new entry of a new order), which a move or
/// a reconfigure keeps: a token that changed means it was re-created.
struct ReplayModel {
    struct Row: Equatable { var html: String; var token: Int }
    struct Section { var header: String?; var rows: [Row]; var token: Int }
    var sections: [Section] = []
    var sequence = 0
    var nextToken = 0
    /// Step kinds seen, by their wire name (for checks that a test exercised what it meant to).
    var kinds: [String: Int] = [:]

    enum Failure: Error, CustomStringConvertible {
        case bad(String)
        var description: String { switch self { case .bad(let text): text } }
    }

    mutating func make(_ value: Any) throws -> Row {
        nextToken += 1
        if let html = value as? String { return Row(html: html, token: nextToken) }
        if let outline = value as? [Any], let html = outline.first as? String { return Row(html: html, token: nextToken) }
        throw Failure.bad("not a row: \(value)")
    }

    mutating func makeSection(_ value: Any) throws -> Section {
        guard let pair = value as? [Any], pair.count == 2, let rows = pair[1] as? [Any] else { throw Failure.bad("not a section: \(value)") }
        let made = try rows.map { try make($0) }
        nextToken += 1
        return Section(header: pair[0] as? String, rows: made, token: nextToken)
    }

    func int(_ step: [Any], _ k: Int) throws -> Int {
        guard k < step.count, let number = step[k] as? NSNumber else { throw Failure.bad("step \(step): no integer at \(k)") }
        return number.intValue
    }

    func checkSection(_ s: Int, insert: Bool = false) throws {
        guard s >= 0, s < sections.count + (insert ? 1 : 0) else { throw Failure.bad("section \(s) of \(sections.count)") }
    }

    func checkRow(_ s: Int, _ i: Int, insert: Bool = false) throws {
        try checkSection(s)
        guard i >= 0, i < sections[s].rows.count + (insert ? 1 : 0) else { throw Failure.bad("row \(s).\(i) of \(sections[s].rows.count)") }
    }

    mutating func apply(message text: String) throws {
        guard let message = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let type = message["t"] as? String, let seq = (message["seq"] as? NSNumber)?.intValue
        else { throw Failure.bad("not a message: \(text)") }
        guard seq == sequence + 1 else { throw Failure.bad("sequence \(seq) after \(sequence)") }
        sequence = seq
        switch type {
        case "reload":
            guard let all = message["sections"] as? [Any] else { throw Failure.bad("reload without sections") }
            sections = try all.map { try makeSection($0) }
        case "batch":
            guard let steps = message["steps"] as? [[Any]] else { throw Failure.bad("batch without steps") }
            for step in steps { try apply(step: step) }
        default:
            throw Failure.bad("unknown message type \(type)")
        }
    }

    mutating func apply(step: [Any]) throws {
        guard let op = step.first as? String else { throw Failure.bad("step without a name: \(step)") }
        kinds[op, default: 0] += 1
        switch op {
        case "d":
            let (s, i) = (try int(step, 1), try int(step, 2))
            try checkRow(s, i)
            sections[s].rows.remove(at: i)
        case "i":
            let (s, i) = (try int(step, 1), try int(step, 2))
            try checkRow(s, i, insert: true)
            sections[s].rows.insert(try make(step[3]), at: i)
        case "m":
            let (s, i, s2, i2) = (try int(step, 1), try int(step, 2), try int(step, 3), try int(step, 4))
            try checkRow(s, i)
            var row = sections[s].rows.remove(at: i)
            try checkRow(s2, i2, insert: true)
            // A move may carry the row's new content, as a reconfigure does.
            if step.count > 5 {
                row.html = try make(step[5]).html
                kinds["m+c", default: 0] += 1
            }
            sections[s2].rows.insert(row, at: i2)
        case "r":
            let (s, i) = (try int(step, 1), try int(step, 2))
            try checkRow(s, i)
            sections[s].rows[i] = try make(step[3])
        case "c":
            let (s, i) = (try int(step, 1), try int(step, 2))
            try checkRow(s, i)
            sections[s].rows[i].html = try make(step[3]).html
        case "o":
            let s = try int(step, 1)
            try checkSection(s)
            guard let entries = step[2] as? [Any] else { throw Failure.bad("order without entries") }
            let old = sections[s].rows
            var used = Set<Int>()
            sections[s].rows = try entries.map { entry in
                if let number = entry as? NSNumber {
                    let k = number.intValue
                    guard k >= 0, k < old.count, used.insert(k).inserted else { throw Failure.bad("order names row \(k) twice or out of range") }
                    return old[k]
                }
                return try make(entry)
            }
        case "D":
            let s = try int(step, 1)
            try checkSection(s)
            sections.remove(at: s)
        case "I":
            let s = try int(step, 1)
            try checkSection(s, insert: true)
            sections.insert(try makeSection(step[2]), at: s)
        case "M":
            let (s, s2) = (try int(step, 1), try int(step, 2))
            try checkSection(s)
            let moved = sections.remove(at: s)
            try checkSection(s2, insert: true)
            sections.insert(moved, at: s2)
        case "R":
            let s = try int(step, 1)
            try checkSection(s)
            sections[s] = try makeSection(step[2])
        default:
            throw Failure.bad("unknown step \(op)")
        }
    }
}

/// A data source driving a RemoteListView on its own queue, the browser's side replayed.
final class Harness: @unchecked Sendable {
    typealias Layout = [(id: String, items: [String])]
    let texts = Texts()
    let queue = DispatchQueue(label: "RemoteListViewEncodingTests")
    var view: RemoteListView!
    var dataSource: DiffableDataSource<String, String, RemoteRow>!
    var model = ReplayModel()
    var messages: [String] = []
    var failures: [String] = []
    var version = 0

    init(reorderThreshold: Int? = 256) {
        // As LiveList drives it: batches of one turn go out as one message after the turn.
        view = RemoteListView(send: { [unowned self] text in
            messages.append(text)
            do { try model.apply(message: text) } catch { failures.append("\(error) in \(text)") }
            // The "browser" applied it: acknowledge, so the apply's completion runs.
            _ = view.acknowledge(view.sequence)
        }, schedule: { [queue] job in queue.async(execute: job) })
        view.reorderThreshold = reorderThreshold
        let texts = self.texts
        dataSource = DiffableDataSource(view: view, executor: .queue(queue)) { _, id in .rawHTML(texts.row(id)) }
        dataSource.supplementaryViewProvider = { [unowned self] kind, path in
            guard kind == "header", let id = dataSource.sectionIdentifier(for: path.section) else { return nil }
            return .rawHTML(texts.header(id))
        }
    }

    /// Applies `layout` (reloading or reconfiguring the given items and reloading the given
    /// sections, whose texts change first) and checks the replayed model against it. Returns the
    /// step kinds of this apply ("m+c": moves that carried new content).
    @discardableResult
    func apply(
        _ layout: Layout, reloadItems: [String] = [], reloadSections: [String] = [], reconfigureItems: [String] = []
    ) async throws -> [String: Int] {
        version += 1
        let before = queue.sync { self.model }
        for id in reloadItems { texts.setRow(id, "v\(version) \"quoted\" \\ ü 😀\n") }
        for id in reconfigureItems { texts.setRow(id, "v\(version) reconfigured") }
        for id in reloadSections {
            texts.setHeader(id, "v\(version)")
            for item in layout.first(where: { $0.id == id })?.items ?? [] { texts.setRow(item, "v\(version) in reloaded \(id)") }
        }
        var snapshot = DiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(layout.map(\.id))
        for section in layout { snapshot.appendItems(section.items, toSection: section.id) }
        snapshot.reloadItems(reloadItems)
        snapshot.reconfigureItems(reconfigureItems)
        snapshot.reloadSections(reloadSections)
        await dataSource.apply(snapshot)
        let (failures, model) = queue.sync { (self.failures, self.model) }
        if !failures.isEmpty { throw ReplayModel.Failure.bad(failures.joined(separator: "\n")) }

        let expected = layout.map { section in [texts.header(section.id)] + section.items.map(texts.row) }
        let shown = model.sections.map { [$0.header ?? "<none>"] + $0.rows.map(\.html) }
        #expect(shown == expected, "after apply \(version)")

        // Every row whose item survived, not reloaded, is the row it was, unless the data source
        // sent one of its sections anew: the data source turns a moved section that rows enter
        // or leave into a section delete + insert, and a move between two sections whose old and
        // new indices are equal into a row delete + insert (UIKit's rules, docs/BATCH_UPDATE_RULES.md
        // I5 and I8). So: both sections kept their tokens, and the indices differ.
        var oldSections: [String: (index: Int, token: Int)] = [:]
        var oldRows: [String: (section: String, token: Int)] = [:]
        for (index, section) in before.sections.enumerated() {
            let id = Self.id(section.header ?? "")
            oldSections[id] = (index, section.token)
            for row in section.rows { oldRows[Self.id(row.html)] = (id, row.token) }
        }
        var newSections: [String: Int] = [:]
        for section in model.sections { newSections[Self.id(section.header ?? "")] = section.token }
        let kept = Set(newSections.keys.filter { oldSections[$0]?.token == newSections[$0] })
        for (index, section) in model.sections.enumerated() {
            let id = Self.id(section.header ?? "")
            guard kept.contains(id) else { continue }
            for row in section.rows {
                let item = Self.id(row.html)
                guard let old = oldRows[item], !reloadItems.contains(item), kept.contains(old.section),
                    old.section == id || oldSections[old.section]!.index != index
                else { continue }
                #expect(row.token == old.token, "row \(item) (from section \(old.section) to \(id)) was re-created in apply \(version)")
            }
        }
        for id in reloadSections {
            #expect(newSections[id] != oldSections[id]?.token, "section \(id) reloaded without being sent again")
        }
        var kinds = model.kinds
        for (kind, count) in before.kinds { kinds[kind, default: 0] -= count }
        return kinds.filter { $0.value > 0 }
    }

    /// The identifier in front of a row's or header's "|".
    static func id(_ html: String) -> String {
        let head = html.split(separator: "|", maxSplits: 1).first.map(String.init) ?? html
        return head.hasPrefix("Section ") ? String(head.dropFirst(8)) : head
    }
}

func layout(_ sections: [(String, [String])]) -> Harness.Layout { sections.map { (id: $0.0, items: $0.1) } }

func rows(_ prefix: String, _ count: Int) -> [String] { (0..<count).map { "\(prefix)\($0)" } }

@Suite struct RemoteListViewEncodingTests {
    let abc = layout([("A", rows("a", 3)), ("B", rows("b", 3)), ("C", rows("c", 3))])

    @Test func aSectionMovesDown() async throws {
        let harness = Harness()
        try await harness.apply(abc)
        let kinds = try await harness.apply(layout([("B", rows("b", 3)), ("C", rows("c", 3)), ("A", rows("a", 3))]))
        #expect(kinds["M", default: 0] >= 1, "\(kinds)")
    }

    @Test func aSectionMovesUp() async throws {
        let harness = Harness()
        try await harness.apply(abc)
        let kinds = try await harness.apply(layout([("C", rows("c", 3)), ("A", rows("a", 3)), ("B", rows("b", 3))]))
        #expect(kinds["M", default: 0] >= 1, "\(kinds)")
    }

    @Test func severalSectionsMoveAtOnce() async throws {
        let harness = Harness()
        let five = layout(["A", "B", "C", "D", "E"].map { ($0, rows($0.lowercased(), 3)) })
        try await harness.apply(five)
        let order = ["E", "C", "A", "D", "B"]
        var kinds = try await harness.apply(order.map { id in five.first { $0.id == id }! })
        #expect(kinds["M", default: 0] >= 2 && kinds["I"] == nil && kinds["D"] == nil, "\(kinds)")
        kinds = try await harness.apply(Array(five.reversed()))
        #expect(kinds["M", default: 0] >= 2, "\(kinds)")
    }

    /// A, B, C, D, E to D, A, B, C, E: only D moves (up), and rows move between and inside the
    /// sections that stay; the rows keep their entries and D comes whole.
    @Test func rowsMoveAcrossSectionsWhileAnotherSectionMoves() async throws {
        let harness = Harness()
        try await harness.apply(layout(["A", "B", "C", "D", "E"].map { ($0, rows($0.lowercased(), 4)) }))
        let kinds = try await harness.apply(layout([
            ("D", rows("d", 4)),
            ("A", ["a0", "b1", "a2", "a3"]),
            ("B", ["b0", "a1", "b2", "b3", "e0"]),
            ("C", ["c3", "c0", "c1", "c2"]),
            ("E", ["e1", "e2", "e3"]),
        ]))
        // b1 goes from B (old index 1) to A (new index 1): a delete + insert (I8); the others move.
        #expect(kinds["M"] == 1 && kinds["m", default: 0] >= 3 && kinds["I"] == nil, "\(kinds)")
    }

    /// Sections that move while rows enter and leave them are sent as a delete + insert (the
    /// data source's rule for UIKit): the replay still ends at the snapshot.
    @Test func movedSectionsThatRowsEnterAndLeave() async throws {
        let harness = Harness()
        let five = layout(["A", "B", "C", "D", "E"].map { ($0, rows($0.lowercased(), 4)) })
        try await harness.apply(five)
        let kinds = try await harness.apply(layout([
            ("E", ["e0", "a1", "e1", "e2", "e3"]),
            ("C", ["c3", "c0", "b2", "c1", "c2"]),
            ("A", ["a0", "a2", "a3", "d0"]),
            ("D", ["d1", "d2", "d3"]),
            ("B", ["b0", "b1", "b3", "new"]),
        ]))
        #expect(kinds["I", default: 0] >= 2, "\(kinds)")
        try await harness.apply(Array(five.reversed()))
    }

    @Test func sectionReloadsAlongsideSectionMoves() async throws {
        let harness = Harness()
        try await harness.apply(abc)
        var kinds = try await harness.apply(abc, reloadSections: ["B"])
        #expect(kinds["R"] == 1, "\(kinds)")
        kinds = try await harness.apply(layout([("C", rows("c", 3)), ("B", rows("b", 3)), ("A", rows("a", 3))]), reloadSections: ["A"])
        #expect(kinds["R", default: 0] + kinds["D", default: 0] >= 1 && kinds["M", default: 0] >= 1, "\(kinds)")
    }

    @Test func rowReloadsInMovedSections() async throws {
        let harness = Harness()
        try await harness.apply(abc)
        let kinds = try await harness.apply(
            layout([("B", ["b0", "a1", "b1", "b2"]), ("C", rows("c", 3)), ("A", ["a0", "a2"])]), reloadItems: ["a1", "c2", "b0"])
        #expect(kinds["r", default: 0] + kinds["I", default: 0] >= 1, "\(kinds)")
    }

    @Test func sectionsInsertedAndDeletedAroundMovedOnes() async throws {
        let harness = Harness()
        try await harness.apply(abc)
        let kinds = try await harness.apply(layout([("N", ["n0", "a0"]), ("C", rows("c", 3)), ("A", ["a1", "a2", "b1"]), ("O", [])]))
        #expect(kinds["I", default: 0] == 2 && kinds["D", default: 0] == 1, "\(kinds)")
    }

    /// Rows that move and change in one apply go as one move each, carrying the new content;
    /// the rows that change without moving as reconfigures.
    @Test func movedRowsCarryTheirNewContent() async throws {
        let harness = Harness()
        try await harness.apply(layout([("A", rows("a", 8)), ("B", rows("b", 4))]))
        let kinds = try await harness.apply(
            layout([("A", ["a0", "a6", "a1", "a2", "a3", "a4", "b3", "a7"]), ("B", ["a5", "b0", "b1", "b2"])]),
            reconfigureItems: ["a6", "b3", "a5", "a2", "b1"])
        // a6, b3 and a5 move (a5 and b3 between sections); a2 and b1 stay.
        #expect(kinds["m+c"] == 3 && kinds["c"] == 2 && kinds["m"] == 3, "\(kinds)")
        let last = harness.messages.last ?? ""
        for id in ["a6", "b3", "a5", "a2", "b1"] {
            #expect(last.components(separatedBy: "\(id)|v2 reconfigured").count == 2, "\(id)'s new content sent once in \(last)")
        }
    }

    @Test func aLargeReorderGoesAsOneNewOrder() async throws {
        let harness = Harness(reorderThreshold: 4)
        let items = rows("k", 40)
        try await harness.apply(layout([("A", items), ("B", rows("b", 3))]))
        var shuffled = Array(items.reversed())
        shuffled.remove(at: 5)
        shuffled.insert("fresh", at: 17)
        let kinds = try await harness.apply(layout([("A", shuffled), ("B", rows("b", 3))]))
        #expect(kinds["o"] == 1, "\(kinds)")
    }

    /// 300 seeded applies of everything at once: sections moved, inserted, deleted and reloaded,
    /// rows inserted, deleted, moved within and across sections, reloaded; twice, the second
    /// time with new orders ("o") for sections where a few rows move.
    @Test(arguments: [256, 3]) func seededSequences(threshold: Int) async throws {
        let harness = Harness(reorderThreshold: threshold)
        var random = Generator(seed: UInt64(threshold))
        var current = layout([("A", rows("a", 5)), ("B", rows("b", 5)), ("C", rows("c", 5))])
        var next = 0
        try await harness.apply(current)
        var seen: [String: Int] = [:]
        for _ in 0..<150 {
            var sections = current
            if random.chance(0.15), let s = sections.indices.filter({ sections[$0].items.count >= 4 }).first {
                // Only one section's rows reversed: with a low threshold, a new order ("o").
                sections[s].items.reverse()
                let kinds = try await harness.apply(sections)
                for (kind, count) in kinds { seen[kind, default: 0] += count }
                current = sections
                continue
            }
            if random.chance(0.3), sections.count > 1 {  // section moves
                for _ in 0..<random.int(1...2) {
                    let moved = sections.remove(at: random.int(0...sections.count - 1))
                    sections.insert(moved, at: random.int(0...sections.count))
                }
            }
            if random.chance(0.15), sections.count > 1 { sections.remove(at: random.int(0...sections.count - 1)) }
            if random.chance(0.15) {
                let free = ["A", "B", "C", "D", "E", "F"].filter { id in !sections.contains { $0.id == id } }
                if let id = free.first {
                    let fresh = (0..<random.int(0...3)).map { _ in next += 1; return "n\(next)" }
                    sections.insert((id, fresh), at: random.int(0...sections.count))
                }
            }
            let shown = Set(current.flatMap(\.items))
            for _ in 0..<random.int(0...3) where !sections.isEmpty {  // row deletes
                let s = random.int(0...sections.count - 1)
                if !sections[s].items.isEmpty { sections[s].items.remove(at: random.int(0...sections[s].items.count - 1)) }
            }
            for _ in 0..<random.int(0...5) where !sections.isEmpty {  // row moves, often across sections
                let s = random.int(0...sections.count - 1), t = random.int(0...sections.count - 1)
                guard !sections[s].items.isEmpty else { continue }
                let item = sections[s].items.remove(at: random.int(0...sections[s].items.count - 1))
                sections[t].items.insert(item, at: random.int(0...sections[t].items.count))
            }
            for _ in 0..<random.int(0...3) where !sections.isEmpty {  // row inserts
                next += 1
                let s = random.int(0...sections.count - 1)
                sections[s].items.insert("n\(next)", at: random.int(0...sections[s].items.count))
            }
            let stillShown = sections.flatMap(\.items).filter(shown.contains)
            let reloadItems = stillShown.isEmpty || !random.chance(0.3) ? [] : [stillShown[random.int(0...stillShown.count - 1)]]
            let kept = sections.map(\.id).filter { id in current.contains { $0.id == id } }
            let reloadSections = kept.isEmpty || !random.chance(0.15) ? [] : [kept[random.int(0...kept.count - 1)]]
            let reconfigureItems = stillShown.filter { !reloadItems.contains($0) && random.chance(0.3) }
            let kinds = try await harness.apply(
                sections, reloadItems: reloadItems, reloadSections: reloadSections, reconfigureItems: reconfigureItems)
            for (kind, count) in kinds { seen[kind, default: 0] += count }
            current = sections
        }
        // The sequences exercised every kind of step they were meant to.
        for kind in ["d", "i", "m", "r", "c", "m+c", "D", "I", "M", "R"] { #expect(seen[kind, default: 0] > 0, "no \(kind) step in \(seen)") }
        if threshold == 3 { #expect(seen["o", default: 0] > 0, "no new order in \(seen)") }
    }
}

/// SplitMix64: the seeded sequences repeat.
struct Generator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) < p * 1_000_000 }
}
