// LiveList's shared views, through its connection entry points (no socket): browsers with the
// same filter share one view; each numbers its messages from 1 without a gap; a browser that
// never acknowledges gets its reload and one batch while the others go on, and later catches
// up with the newest state; an awaited apply returns once every browser shows the change.
// Every browser's messages are replayed by the independent ReplayModel.
import Diffable
@testable import DiffableWeb
import Foundation
import Testing

struct Entry: Hashable, Sendable, Identifiable {
    let id: String
    var text: String
}

/// A browser of the test: replays every message it gets and acknowledges it (unless told not to).
final class FakeBrowser: @unchecked Sendable {
    private let lock = NSLock()
    private var model = ReplayModel()
    private var failures: [String] = []
    private var kinds: [String] = []
    private var unacknowledged: [Int] = []
    private(set) var viewer: LiveListViewer<String, Entry>!
    let list: LiveList<String, Entry>
    private let acknowledging: Bool

    init(_ list: LiveList<String, Entry>, acknowledging: Bool = true) {
        self.list = list
        self.acknowledging = acknowledging
        // Under the lock: the hub may deliver the first message (on its queue) before connect's
        // result is stored, and `received` must not read `viewer` before then.
        lock.withLock { viewer = list.connect { [weak self] message in self?.received(message.text) } }
    }

    private func received(_ text: String) {
        let (sequence, viewer): (Int?, LiveListViewer<String, Entry>) = lock.withLock {
            do {
                try model.apply(message: text)
                kinds.append(text.hasPrefix(#"{"t":"reload""#) ? "reload" : "batch")
            } catch {
                failures.append("\(error)")
            }
            if acknowledging { return (model.sequence, self.viewer) }
            unacknowledged.append(model.sequence)
            return (nil, self.viewer)
        }
        if let sequence { _ = list.receive(#"{"t":"ack","seq":\#(sequence)}"#, from: viewer) }
    }

    /// Acknowledges what it held back; from now on it acknowledges at once.
    func acknowledgeAll() {
        let last: Int? = lock.withLock { unacknowledged.last }
        if let last { _ = list.receive(#"{"t":"ack","seq":\#(last)}"#, from: viewer) }
    }

    func send(_ text: String) { _ = list.receive(text, from: viewer) }

    var rows: [[String]] { lock.withLock { model.sections.map { $0.rows.map(\.html) } } }
    var messageKinds: [String] { lock.withLock { kinds } }
    var sequence: Int { lock.withLock { model.sequence } }
    var problems: [String] { lock.withLock { failures } }
}

private func snapshot(_ version: Int, count: Int = 40) -> DiffableDataSourceSnapshot<String, Entry> {
    var generator = Generator(seed: UInt64(version))
    var entries = (0..<count).map { Entry(id: "e\($0)", text: ($0 % 2 == 0 ? "even " : "odd ") + "\($0) v\(version % 3)") }
    for index in entries.indices.reversed() { entries.swapAt(index, generator.int(0...index)) }
    var result = DiffableDataSourceSnapshot<String, Entry>()
    result.appendSections(["main"])
    result.appendItems(Array(entries.prefix(count - generator.int(0...5))), toSection: "main")
    return result
}

private func rowsOf(_ snapshot: DiffableDataSourceSnapshot<String, Entry>, filter: String = "") -> [[String]] {
    [snapshot.itemIdentifiers(inSection: "main").filter { filter.isEmpty || $0.text.contains(filter) }.map(\.text)]
}

/// Polls `condition` for up to 10 seconds.
private func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
}

private func makeList() -> LiveList<String, Entry> {
    let list = LiveList<String, Entry>(matchingItemsByID: .reconfigure, render: { .text($0.text) })
    list.filter = { entry, text in entry.text.contains(text) }
    return list
}

@Suite struct LiveListSharingTests {
    @Test func browsersWithTheSameRowsShareOneViewAndASlowOneCatchesUpWithTheNewest() async throws {
        let list = makeList()
        list.apply(snapshot(0), completion: nil)
        let fast = (0..<3).map { _ in FakeBrowser(list) }
        let slow = FakeBrowser(list, acknowledging: false)
        #expect(await eventually { fast.allSatisfy { $0.rows == rowsOf(snapshot(0)) } && slow.rows == rowsOf(snapshot(0)) })
        for version in 1...30 { list.apply(snapshot(version), completion: nil) }
        #expect(await eventually { fast.allSatisfy { $0.rows == rowsOf(snapshot(30)) } })
        #expect(list.viewCount == 1)
        // The silent browser: its reload and one batch; the view went on without it.
        #expect(slow.messageKinds.count == 2)
        slow.acknowledgeAll()
        #expect(await eventually { slow.rows == rowsOf(snapshot(30)) })
        // The versions it missed (the view coalesced applies that came faster than it diffed),
        // or the whole list when more than maxCatchUpMessages behind.
        #expect(slow.messageKinds.count - 2 <= list.maxCatchUpMessages)
        for browser in fast + [slow] { #expect(browser.problems.isEmpty) }
    }

    @Test func eachFilterTextIsOneViewAndALoneBrowserTypingDiffs() async throws {
        let list = makeList()
        list.apply(snapshot(1), completion: nil)
        let plain = FakeBrowser(list)
        let evens = (0..<2).map { _ in FakeBrowser(list) }
        let odd = FakeBrowser(list)
        for browser in evens { browser.send(#"{"t":"filter","text":"even"}"#) }
        odd.send(#"{"t":"filter","text":"odd"}"#)
        #expect(await eventually { evens.allSatisfy { $0.rows == rowsOf(snapshot(1), filter: "even") } })
        #expect(await eventually { odd.rows == rowsOf(snapshot(1), filter: "odd") && plain.rows == rowsOf(snapshot(1)) })
        #expect(list.viewCount == 3)
        list.apply(snapshot(2), completion: nil)
        #expect(await eventually { evens.allSatisfy { $0.rows == rowsOf(snapshot(2), filter: "even") } })
        #expect(await eventually { odd.rows == rowsOf(snapshot(2), filter: "odd") && plain.rows == rowsOf(snapshot(2)) })
        // Alone in its view, the "odd" browser keeps it and gets the new rows as a diff.
        let before = odd.messageKinds.count
        odd.send(#"{"t":"filter","text":"odd 1"}"#)
        #expect(await eventually { odd.rows == rowsOf(snapshot(2), filter: "odd 1") })
        #expect(odd.messageKinds.dropFirst(before).allSatisfy { $0 == "batch" })
        #expect(list.viewCount == 3)
        for browser in evens + [plain, odd] { #expect(browser.problems.isEmpty) }
    }

    @Test func aClickGivesTheBrowserAViewOfItsOwnAndLeavesTheOthersAsTheyWere() async throws {
        let list = makeList()
        var sections = DiffableDataSourceSnapshot<String, Entry>()
        sections.appendSections(["main"])
        list.apply(sections, completion: nil)
        let parent = Entry(id: "p", text: "parent")
        var outline = DiffableDataSourceSectionSnapshot<Entry>()
        outline.append([parent, Entry(id: "q", text: "other")])
        outline.append([Entry(id: "c1", text: "child 1"), Entry(id: "c2", text: "child 2")], to: parent)
        list.apply(outline, to: "main", completion: nil)
        let clicking = FakeBrowser(list)
        let watching = FakeBrowser(list)
        let collapsed = [["parent", "other"]]
        #expect(await eventually { clicking.rows == collapsed && watching.rows == collapsed })
        #expect(list.viewCount == 1)
        clicking.send(#"{"t":"toggle","seq":\#(clicking.sequence),"section":0,"item":0}"#)
        #expect(await eventually { clicking.rows == [["parent", "child 1", "child 2", "other"]] })
        #expect(list.viewCount == 2)
        // The view it left, and the list's later applies, reach both.
        #expect(watching.rows == collapsed)
        var next = outline
        next.append([Entry(id: "r", text: "third")])
        list.apply(next, to: "main", completion: nil)
        #expect(await eventually { watching.rows == [["parent", "other", "third"]] })
        #expect(await eventually { clicking.rows.first?.last == "third" })
        for browser in [clicking, watching] { #expect(browser.problems.isEmpty) }
    }

    @Test func anAwaitedApplyReturnsOnceEveryBrowserShowsIt() async throws {
        let list = makeList()
        list.apply(snapshot(1), completion: nil)
        let browsers = (0..<3).map { _ in FakeBrowser(list) }
        let filtered = FakeBrowser(list)
        filtered.send(#"{"t":"filter","text":"odd"}"#)
        #expect(await eventually { filtered.rows == rowsOf(snapshot(1), filter: "odd") })
        for version in 2...6 {
            await list.apply(snapshot(version))  // no completion: argument, so the async form
            for browser in browsers { #expect(browser.rows == rowsOf(snapshot(version))) }
            #expect(filtered.rows == rowsOf(snapshot(version), filter: "odd"))
        }
    }
}
