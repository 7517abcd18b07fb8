import Foundation
import Testing

@testable import Diffable

/// Outline sections through the data source (docs/DATA_SOURCE.md): `apply(_:to:)`,
/// `snapshot(for:)`, the section snapshot handlers driven by the simulated view's disclosure
/// taps, and drags inside outlines, each through the strict simulated view.
// A time limit: a queue that never drains would otherwise hang the whole run without naming a test.
@Suite(.timeLimit(.minutes(5))) struct DataSourceOutlineTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>
    typealias Outline = DiffableDataSourceSectionSnapshot<String>
    static func p(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

    /// A file tree: Documents (with Taxes/2024.pdf and CV.pdf), Pictures (children loaded when
    /// it first expands), README.md.
    static func files() -> Outline {
        var outline = Outline()
        outline.append(["Documents", "Pictures", "README.md"])
        outline.append(["Taxes", "CV.pdf"], to: "Documents")
        outline.append(["2024.pdf"], to: "Taxes")
        return outline
    }

    /// What the section snapshot handlers saw, in order (touched on the executor only).
    final class HandlerLog: @unchecked Sendable {
        var events: [String] = []
    }

    /// What the reordering handlers saw (touched on the executor only).
    final class TransactionLog: @unchecked Sendable {
        var willCount = 0
        var transactions: [DiffableDataSourceTransaction<String, String>] = []
    }

    /// The demo's file browser: folders expand and collapse through the view's disclosure
    /// taps, with the handlers around each, and Pictures loads its children lazily.
    @Test func fileBrowserExpandsAndCollapsesThroughTheView() async throws {
        let harness = DataSourceHarness<String, String>()
        let dataSource = harness.dataSource
        let log = HandlerLog()
        dataSource.sectionSnapshotHandlers = .init(
            shouldExpandItem: { !$0.hasSuffix(".md") },
            willExpandItem: { log.events.append("will expand \($0)") },
            willCollapseItem: { log.events.append("will collapse \($0)") },
            snapshotForExpandingParent: { parent, children in
                log.events.append("children of \(parent): \(children.items)")
                guard parent == "Pictures", children.items.isEmpty else { return children }
                var loaded = Outline()
                loaded.append(["cat.jpg", "dog.jpg"])
                return loaded
            })
        await dataSource.apply(.build(["Recent"], [["notes.txt"]]))
        await dataSource.apply(Self.files(), to: "Files")
        #expect(dataSource.snapshot() == .build(["Recent", "Files"], [["notes.txt"], ["Documents", "Pictures", "README.md"]]))
        #expect(harness.onView(\.performedBatches) == [BatchUpdate(insertSections: [1])])

        /// Taps the row showing `item` and checks the view against the data source.
        func tap(_ item: String) throws {
            let path = try #require(dataSource.indexPath(for: item))
            try harness.onView { _ = try $0.simulateTapDisclosure(at: path) }
            #expect(harness.problem() == nil, "after tapping \(item)")
            #expect(harness.shownItems()[0] == ["notes.txt"], "after tapping \(item)")
            #expect(dataSource.snapshot(for: "Files").visibleItems == harness.shownItems()[1], "after tapping \(item)")
        }
        let before = harness.onView(\.performedBatches).count
        try tap("Documents")
        try tap("Taxes")
        #expect(harness.shownItems()[1] == ["Documents", "Taxes", "2024.pdf", "CV.pdf", "Pictures", "README.md"])
        #expect(
            harness.onView(\.performedBatches).dropFirst(before) == [
                BatchUpdate(insertItems: [Self.p(1, 1), Self.p(1, 2)]), BatchUpdate(insertItems: [Self.p(1, 2)]),
            ])
        // Collapsing hides the whole subtree; Taxes stays expanded inside it.
        try tap("Documents")
        #expect(harness.shownItems()[1] == ["Documents", "Pictures", "README.md"])
        #expect(harness.onView(\.performedBatches).last == BatchUpdate(deleteItems: [Self.p(1, 1), Self.p(1, 2), Self.p(1, 3)]))
        #expect(dataSource.snapshot(for: "Files").expandedItems == ["Taxes"])
        try tap("Documents")
        #expect(harness.shownItems()[1] == ["Documents", "Taxes", "2024.pdf", "CV.pdf", "Pictures", "README.md"])
        // Lazy children: asked with the (empty) current children, inserted under Pictures.
        try tap("Pictures")
        #expect(harness.shownItems()[1].suffix(4) == ["Pictures", "cat.jpg", "dog.jpg", "README.md"])
        #expect(dataSource.snapshot(for: "Files").parent(of: "dog.jpg") == "Pictures")
        // A file does not expand: no handler call beyond shouldExpandItem, no batch.
        let batches = harness.onView(\.performedBatches).count
        try tap("README.md")
        #expect(harness.onView(\.performedBatches).count == batches)
        #expect(
            log.events == [
                "will expand Documents", "children of Documents: [\"Taxes\", \"2024.pdf\", \"CV.pdf\"]", "will expand Taxes",
                "children of Taxes: [\"2024.pdf\"]", "will collapse Documents", "will expand Documents",
                "children of Documents: [\"Taxes\", \"2024.pdf\", \"CV.pdf\"]", "will expand Pictures", "children of Pictures: []",
            ])
        // A row of a flat section is a root of its outline: expanding it loads children too.
        try tap("notes.txt")
        #expect(log.events.suffix(2) == ["will expand notes.txt", "children of notes.txt: []"])
        #expect(dataSource.snapshot(for: "Recent").isExpanded("notes.txt"))
    }

    /// `shouldCollapseItem` refusing leaves everything as it is: no handler, no batch.
    @Test func aRefusedCollapseChangesNothing() async throws {
        let harness = DataSourceHarness<String, String>()
        var outline = Outline()
        outline.append(["Locked", "Open"])
        outline.append(["secret"], to: "Locked")
        outline.expand(["Locked"])
        await harness.dataSource.apply(outline, to: "Files")
        let log = HandlerLog()
        harness.dataSource.sectionSnapshotHandlers.shouldCollapseItem = { $0 != "Locked" }
        harness.dataSource.sectionSnapshotHandlers.willCollapseItem = { log.events.append($0) }
        #expect(try harness.onView { try $0.simulateTapDisclosure(at: Self.p(0, 0)) })
        #expect(harness.onView(\.calls) == [.reloadData])
        #expect(log.events.isEmpty && harness.dataSource.snapshot(for: "Files") == outline)
        #expect(harness.shownItems() == [["Locked", "secret", "Open"]])
    }

    /// A section snapshot changes its own section only; a missing section is appended;
    /// `snapshot(for:)` answers outlines, flat sections (as roots) and absent ones (empty).
    @Test func aSectionSnapshotChangesItsSectionOnly() async {
        let harness = DataSourceHarness<String, String>()
        let dataSource = harness.dataSource
        await dataSource.apply(.build(["A", "B", "C"], [["a1", "a2"], ["b1", "b2", "b3"], ["c1"]]))
        var outline = Outline()
        outline.append(["b3", "b1", "x"])
        outline.append(["x1", "x2"], to: "x")
        outline.expand(["x"])
        await dataSource.apply(outline, to: "B", animatingDifferences: false)
        #expect(dataSource.snapshot() == .build(["A", "B", "C"], [["a1", "a2"], ["b3", "b1", "x", "x1", "x2"], ["c1"]]))
        let batches = harness.onView(\.performedBatches)
        #expect(batches.count == 1 && batches[0].deleteSections.isEmpty && batches[0].insertSections.isEmpty)
        let paths = batches[0].deleteItems + batches[0].insertItems + batches[0].moveItems.flatMap { [$0.from, $0.to] }
        #expect(!paths.isEmpty && paths.allSatisfy { $0.section == 1 })
        #expect(harness.onView(\.animations) == [.none])
        #expect(dataSource.snapshot(for: "B") == outline)
        var roots = Outline()
        roots.append(["a1", "a2"])
        #expect(dataSource.snapshot(for: "A") == roots)
        #expect(dataSource.snapshot(for: "Z") == Outline())
        // A section that is not shown is appended.
        var extra = Outline()
        extra.append(["d1"])
        await dataSource.apply(extra, to: "D")
        #expect(dataSource.snapshot().sectionIdentifiers == ["A", "B", "C", "D"])
        #expect(harness.onView(\.performedBatches).last == BatchUpdate(insertSections: [3]))
        #expect(harness.problem() == nil)
    }

    /// A flat apply keeps the outline of a section whose rows it leaves alone (the usual
    /// `var s = dataSource.snapshot(); …; apply(s)`), and flattens one whose rows change or
    /// whose hidden items it shows elsewhere.
    @Test func flatAppliesKeepUntouchedOutlines() async {
        let harness = DataSourceHarness<String, String>()
        let dataSource = harness.dataSource
        await dataSource.apply(.build(["A"], [["a1"]]))
        var outline = Outline()
        outline.append(["p", "q"])
        outline.append(["p1", "p2"], to: "p")  // hidden: p is collapsed
        await dataSource.apply(outline, to: "B")
        var next = dataSource.snapshot()
        next.appendItems(["a2"], toSection: "A")
        await dataSource.apply(next)
        #expect(dataSource.snapshot(for: "B") == outline)
        // The rows of B change: B becomes flat.
        next.deleteItems(["q"])
        await dataSource.apply(next)
        var roots = Outline()
        roots.append(["p"])
        #expect(dataSource.snapshot(for: "B") == roots)
        // A hidden item shown elsewhere: the outline cannot stay.
        await dataSource.apply(outline, to: "B")
        next = dataSource.snapshot()
        next.appendItems(["p1"], toSection: "A")
        await dataSource.apply(next)
        roots = Outline()
        roots.append(["p", "q"])
        #expect(dataSource.snapshot(for: "B") == roots)
        #expect(harness.problem() == nil)
    }

    /// Drags in an outline: a collapsed folder moves with its hidden children, a leaf lands at
    /// the level of the row after it, an expanded folder cannot be dragged (its children would
    /// stay behind), and a drag into a flat section makes that section an outline.
    @Test func dragsInsideAnOutline() async throws {
        let harness = DataSourceHarness<String, String>(flavor: .table)
        let dataSource = harness.dataSource
        let log = TransactionLog()
        dataSource.reorderingHandlers = .init(
            canReorderItem: { _ in true }, willReorder: { _ in log.willCount += 1 }, didReorder: { log.transactions.append($0) })
        var outline = Outline()
        outline.append(["r1", "r2", "r3"])
        outline.append(["c1", "c2"], to: "r1")
        outline.append(["c3"], to: "r2")
        outline.expand(["r1"])
        await dataSource.apply(.build(["Other"], [["o1"]]))
        await dataSource.apply(outline, to: "Files")
        #expect(harness.shownItems() == [["o1"], ["r1", "c1", "c2", "r2", "r3"]])
        // r1 shows its children: it cannot be dragged.
        #expect(try !harness.onView { try $0.simulateReorder(from: Self.p(1, 0), to: Self.p(1, 4)) })
        #expect(log.willCount == 0)
        // The collapsed r2 (with its hidden c3) goes to the top.
        #expect(try harness.onView { try $0.simulateReorder(from: Self.p(1, 3), to: Self.p(1, 0)) })
        var moved = dataSource.snapshot(for: "Files")
        #expect(moved.rootItems == ["r2", "r1", "r3"] && moved.parent(of: "c3") == "r2" && !moved.isExpanded("r2"))
        #expect(log.transactions.last?.sectionTransactions.map(\.initialSnapshot) == [outline])
        #expect(log.transactions.last?.sectionTransactions.map(\.finalSnapshot) == [moved])
        // The leaf c2 dropped last lands at the root level, after r3.
        #expect(try harness.onView { try $0.simulateReorder(from: Self.p(1, 3), to: Self.p(1, 4)) })
        moved = dataSource.snapshot(for: "Files")
        #expect(moved.rootItems == ["r2", "r1", "r3", "c2"] && moved.snapshot(of: "r1").items == ["c1"])
        // c1 dropped between r2 and r1 takes r1's level (root).
        #expect(try harness.onView { try $0.simulateReorder(from: Self.p(1, 2), to: Self.p(1, 1)) })
        #expect(dataSource.snapshot(for: "Files").rootItems == ["r2", "c1", "r1", "r3", "c2"])
        // Into the flat section: it becomes an outline of roots; r2 keeps its child there.
        #expect(try harness.onView { try $0.simulateReorder(from: Self.p(1, 0), to: Self.p(0, 1)) })
        let other = dataSource.snapshot(for: "Other")
        #expect(other.rootItems == ["o1", "r2"] && other.parent(of: "c3") == "r2")
        #expect(!dataSource.snapshot(for: "Files").contains("c3"))
        #expect(log.transactions.last?.sectionTransactions.map(\.sectionIdentifier) == ["Other", "Files"])
        #expect(log.willCount == 4 && log.transactions.count == 4)
        // Expanding r2 in its new section shows c3 there.
        try harness.onView { _ = try $0.simulateTapDisclosure(at: Self.p(0, 1)) }
        #expect(harness.shownItems()[0] == ["o1", "r2", "c3"])
        #expect(harness.problem() == nil)
    }

    /// Seeded random applies from 4 threads, mixing section snapshots of two outline sections
    /// (random expansions, collapses, deletes, inserts and subtree moves), flat snapshots and
    /// read-modify-write applies of `snapshot()`: after each (in its completion, on the
    /// executor) the view shows the data source's snapshot, every section's outline shows its
    /// rows, and, applied one by one, the outline is the one just applied; every completion
    /// runs once.
    @Test(arguments: [QueuedApplyPolicy.performEach, .coalesce])
    func randomOutlineAndFlatAppliesFromSeveralThreads(policy: QueuedApplyPolicy) async {
        let harness = DataSourceHarness<String, Int>()
        let dataSource = harness.dataSource
        dataSource.queuedApplyPolicy = policy
        let threads = 4, perThread = 60
        let log = CompletionLog()
        let group = DispatchGroup()
        /// On the executor: the view, the rows and the outlines agree.
        @Sendable func check(_ thread: Int, _ index: Int, expecting expected: (String, DiffableDataSourceSectionSnapshot<Int>)?) {
            var problem = harness.problemOnView()
            let snapshot = dataSource.snapshot()
            for section in snapshot.sectionIdentifiers
            where dataSource.snapshot(for: section).visibleItems != snapshot.itemIdentifiers(inSection: section) {
                problem = problem ?? "section \(section): the outline does not show its rows"
            }
            if policy == .performEach, let (section, outline) = expected, dataSource.snapshot(for: section) != outline {
                problem = problem ?? "section \(section) is not the outline just applied"
            }
            log.record(thread: thread, index: index, problem: problem)
            group.leave()
        }
        for thread in 0..<threads {
            group.enter()
            DispatchQueue.global().async {
                var generator = SeededGenerator(seed: UInt64(31 + thread) &* 104_729 &+ (policy == .coalesce ? 1 : 0))
                // Disjoint item ranges: outline T1, outline T2, flat sections.
                var outlines = [
                    SectionSnapshotDifferenceTests.randomOutline(&generator, first: 0, size: 25),
                    SectionSnapshotDifferenceTests.randomOutline(&generator, first: 100_000, size: 25),
                ]
                var fresh = [1_000 + thread * 10_000, 101_000 + thread * 10_000]
                var flat = 200_000 + thread * 10_000
                for index in 0..<perThread {
                    group.enter()
                    let animating = Bool.random(using: &generator)
                    let kind = Int.random(in: 0..<10, using: &generator)
                    if kind < 7 {
                        let which = kind % 2
                        outlines[which] = SectionSnapshotDifferenceTests.randomChange(of: outlines[which], &generator, fresh: &fresh[which])
                        let expected = (["T1", "T2"][which], outlines[which])
                        dataSource.apply(outlines[which], to: ["T1", "T2"][which], animatingDifferences: animating) {
                            check(thread, index, expecting: expected)
                        }
                    } else if kind < 9 {
                        var snapshot = dataSource.snapshot()
                        if snapshot.indexOfSection("F") == nil { snapshot.appendSections(["F"]) }
                        snapshot.appendItems([flat], toSection: "F")
                        flat += 1
                        dataSource.apply(snapshot, animatingDifferences: animating) { check(thread, index, expecting: nil) }
                    } else {
                        let items = (0..<Int.random(in: 0...6, using: &generator)).map { flat + $0 }
                        flat += items.count
                        dataSource.apply(.build(["F", "G"], [items, [flat]]), animatingDifferences: animating) {
                            check(thread, index, expecting: nil)
                        }
                        flat += 1
                    }
                }
                group.leave()
            }
        }
        await group.finished()
        log.expectEachRanOnce(count: threads * perThread)
        #expect(harness.problem() == nil)
        #expect(harness.onView(\.batchCount) > (policy == .coalesce ? 0 : threads * perThread / 2))
    }

    /// Applies queued behind a busy view: a flat snapshot, then outlines for two sections
    /// (one twice). Performed one by one, or coalesced into one batch that shows the flat
    /// snapshot with both newest outlines laid in; every completion runs once, in order.
    @Test(arguments: [QueuedApplyPolicy.performEach, .coalesce])
    func queuedSectionAppliesKeepTheirOrder(policy: QueuedApplyPolicy) async {
        let harness = DataSourceHarness<String, String>()
        let dataSource = harness.dataSource
        dataSource.queuedApplyPolicy = policy
        await dataSource.apply(.build(["A", "B"], [["a1"], ["b1"]]))
        var first = Outline(), second = Outline(), other = Outline()
        first.append(["x", "y"])
        second.append(["x", "z"])
        second.append(["x1"], to: "x")
        second.expand(["x"])
        other.append(["w"])
        let gate = DispatchSemaphore(value: 0)
        harness.queue.async { gate.wait() }
        let log = CompletionLog()
        let group = DispatchGroup()
        func done(_ index: Int) -> @Sendable () -> Void {
            group.enter()
            return {
                log.record(thread: 0, index: index, problem: harness.problemOnView())
                group.leave()
            }
        }
        dataSource.apply(.build(["A", "B", "C"], [["a1", "a2"], ["b1"], ["c1"]]), completion: done(1))
        dataSource.apply(first, to: "B", completion: done(2))
        dataSource.apply(other, to: "C", completion: done(3))
        dataSource.apply(second, to: "B", completion: done(4))
        gate.signal()
        await group.finished()
        #expect(log.order == [1, 2, 3, 4] && log.problems.isEmpty, "\(log.problems)")
        #expect(dataSource.snapshot() == .build(["A", "B", "C"], [["a1", "a2"], ["x", "x1", "z"], ["w"]]))
        #expect(dataSource.snapshot(for: "B") == second && dataSource.snapshot(for: "C") == other)
        let batches = harness.onView(\.performedBatches).count
        // The first apply was being diffed when the others queued; they become one.
        #expect(policy == .coalesce ? batches == 2 : batches == 4)
    }
}
