import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// A hand-written data source: answers the three questions from its rows, switches to the new
/// rows inside each batch (B3), and records the moves and disclosure taps the view reports.
final class RowsDataSource: ListViewDataSource, ListViewInteractionDelegate {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>
    var sections: [String] = []
    var rows: [[String]] = []
    var headers: [String] = []
    /// Rows the user may not drag.
    var pinned: Set<String> = []
    /// Whether a reported move updates the rows (a broken data source forgets).
    var recordsMoves = true
    var moves: [(IndexPath, IndexPath)] = []
    var taps: [IndexPath] = []
    var onTap: ((IndexPath) -> Void)?

    init(_ snapshot: Snapshot = Snapshot()) { show(snapshot) }

    var snapshot: Snapshot { RandomSnapshots.build(Array(zip(sections, rows))) }

    func show(_ snapshot: Snapshot) {
        sections = snapshot.sectionIdentifiers
        rows = sections.map { snapshot.itemIdentifiers(inSection: $0) }
    }

    func numberOfSections() -> Int { rows.count }
    func numberOfItems(inSection section: Int) -> Int { rows[section].count }
    func cell(at indexPath: IndexPath) -> String { rows[indexPath.section][indexPath.item] }
    func supplementaryView(ofKind kind: String, at indexPath: IndexPath) -> String? {
        headers.indices.contains(indexPath.section) ? "\(kind) \(headers[indexPath.section])" : nil
    }

    func canMoveItem(at indexPath: IndexPath) -> Bool { !pinned.contains(cell(at: indexPath)) }
    func moveItem(at source: IndexPath, to destination: IndexPath) {
        moves.append((source, destination))
        guard recordsMoves else { return }
        rows[destination.section].insert(rows[source.section].remove(at: source.item), at: destination.item)
    }
    func toggleDisclosure(at indexPath: IndexPath) {
        taps.append(indexPath)
        onTap?(indexPath)
    }

    /// Diffs what it shows against `new` and drives `view` with each batch, switching inside it.
    /// - Returns: the completions' `finished` flags.
    @discardableResult
    func apply(_ new: Snapshot, to view: SimulatedListView<String>, animation: RowAnimation = .automatic) -> [Bool] {
        var finished: [Bool] = []
        for batch in new.difference(from: snapshot).batches {
            view.performBatchUpdates(batch, animation: animation, updates: { self.show(new) }, completion: { finished.append($0) })
        }
        return finished
    }
}

@Suite struct SimulatedListViewTests {
    typealias Snapshot = RandomSnapshots.Snapshot
    static let build = RandomSnapshots.build
    static func p(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

    static func loaded(_ snapshot: Snapshot) -> (SimulatedListView<String>, RowsDataSource) {
        let view = SimulatedListView<String>(policy: .record)
        let dataSource = RowsDataSource(snapshot)
        view.dataSource = dataSource
        view.interactionDelegate = dataSource
        view.reloadData()
        return (view, dataSource)
    }

    @Test func reloadDataAsksTheThreeQuestionsAndSupplementaryViews() {
        let view = SimulatedListView<String>(policy: .record)
        view.supplementaryKinds = ["header"]
        let dataSource = RowsDataSource(Self.build([("A", ["a", "b"]), ("B", []), ("C", ["c"])]))
        dataSource.headers = ["A", "B"]
        view.dataSource = dataSource
        #expect(view.mismatch(against: [["a", "b"], [], ["c"]]) == "the view has not loaded its data")
        view.reloadData()
        #expect(view.rows == [["a", "b"], [], ["c"]])
        #expect(view.isLoaded && view.reloadCount == 1 && view.batchCount == 0)
        #expect(view.supplementaryViews["header"] == ["header A", "header B", nil])
        #expect(view.mismatch(against: Self.build([("A", ["a", "b"]), ("B", []), ("C", ["c"])])) == nil)
        #expect(view.mismatch(against: [["a", "b"], ["c"]]) == "the view shows 3 sections, expected 2")
        #expect(view.mismatch(against: [["a"], [], ["c"]]) == "section 0 shows [\"a\", \"b\"], expected [\"a\"]")
    }

    @Test func randomAppliesAreAcceptedAndShowTheDataSource() {
        var generator = SeededGenerator(seed: 4_242)
        var batches = 0
        for round in 0..<300 {
            let (old, new) = RandomSnapshots.pair(&generator)
            let (view, dataSource) = Self.loaded(old)
            let animation = RowAnimation.allCases[round % RowAnimation.allCases.count]
            let finished = dataSource.apply(new, to: view, animation: animation)
            let expected = new.difference(from: old).batches.count
            #expect(finished == Array(repeating: true, count: expected), "round \(round)")
            #expect(view.violations.isEmpty, "round \(round): \(view.violations)")
            #expect(view.mismatch(against: new) == nil, "round \(round)")
            #expect(view.batchCount == expected && view.animations == Array(repeating: animation, count: expected))
            #expect(view.performedBatches == new.difference(from: old).batches)
            batches += expected
        }
        #expect(batches > 200)
    }

    @Test func updatesRunOnceAfterTheOldCountsAreCaptured() {
        let (view, dataSource) = Self.loaded(Self.build([("A", ["a", "b"])]))
        var calls = 0
        var shownDuringUpdates: [[String]] = []
        view.performBatchUpdates(
            BatchUpdate(deleteItems: [Self.p(0, 0)]), animation: .fade,
            updates: {
                calls += 1
                shownDuringUpdates = view.rows
                dataSource.rows = [["b"]]
            },
            completion: { #expect($0) })
        #expect(calls == 1)
        #expect(shownDuringUpdates == [["a", "b"]])
        #expect(view.rows == [["b"]] && view.batchCount == 1 && view.animations == [.fade])
    }

    @Test func aRejectedBatchIsRecordedWithUIKitsTextAndReloads() {
        let (view, dataSource) = Self.loaded(Self.build([("A", ["a"])]))
        var finished: [Bool] = []
        view.performBatchUpdates(
            BatchUpdate(), animation: .automatic, updates: { dataSource.rows = [["a", "b"]] }, completion: { finished.append($0) })
        #expect(finished == [false])
        #expect(
            view.violations == [
                .init(
                    rule: "E2",
                    message:
                        "Invalid update: invalid number of items in section 0.  The number of items contained in an existing section after the update (2) must be equal to the number of items contained in that section before the update (1), plus or minus the number of items inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out)."
                )
            ])
        #expect(view.rows == [["a", "b"]] && view.reloadCount == 2 && view.batchCount == 0)
    }

    @Test func malformedAndOutOfRangeBatchesAreViolations() {
        let cases: [(BatchUpdate, String)] = [
            (BatchUpdate(deleteItems: [Self.p(-1, 0)]), "E4"),
            (BatchUpdate(deleteItems: [IndexPath(indexes: [0])]), "V0"),
            (BatchUpdate(insertItems: [IndexPath(indexes: [0, 1, 2])]), "V0"),
            (BatchUpdate(moveItems: [.init(from: Self.p(0, -3), to: Self.p(0, 0))]), "E13"),
            (BatchUpdate(reconfigureItems: [Self.p(0, Int.max)]), "R1"),
        ]
        for (batch, rule) in cases {
            let (view, dataSource) = Self.loaded(Self.build([("A", ["a", "b"])]))
            view.performBatchUpdates(batch, animation: .none, updates: { dataSource.rows = [["a", "b"]] }, completion: { #expect(!$0) })
            #expect(view.violations.map(\.rule) == [rule], "\(batch)")
        }
    }

    @Test func staleCellsAndWrongMovesAreCaught() {
        // Cells carry content: a changed value without a reload is a stale cell.
        let (view, dataSource) = Self.loaded(Self.build([("A", ["a:1", "b:1"])]))
        view.performBatchUpdates(BatchUpdate(), animation: .none, updates: { dataSource.rows = [["a:2", "b:1"]] }, completion: { _ in })
        #expect(view.violations.map(\.rule) == ["V9"])
        #expect(view.rows == [["a:2", "b:1"]])
        view.performBatchUpdates(
            BatchUpdate(reloadItems: [Self.p(0, 1)]), animation: .none, updates: { dataSource.rows = [["a:2", "b:2"]] },
            completion: { #expect($0) })
        #expect(view.violations.count == 1 && view.rows == [["a:2", "b:2"]])
    }

    @Test func aReconfigureShowsTheNewCell() {
        let (view, dataSource) = Self.loaded(Self.build([("A", ["a:1", "b:1"])]))
        view.performBatchUpdates(
            BatchUpdate(reconfigureItems: [Self.p(0, 0)]), animation: .none, updates: { dataSource.rows = [["a:2", "b:1"]] },
            completion: { #expect($0) })
        #expect(view.violations.isEmpty && view.rows == [["a:2", "b:1"]])
    }

    /// The checks a data source's tests rely on: section identities across a batch, the data
    /// source's state before `updates` (B3), the executor (T1), the call log and held-back completions.
    @Test func dataSourceChecksAndRecording() {
        let (view, dataSource) = Self.loaded(Self.build([("A", []), ("B", ["b"])]))
        dataSource.headers = ["A", "B"]
        view.sectionIdentityKind = "header"
        view.reloadData()
        #expect(view.supplementaryViews["header"] == ["header A", "header B"])
        // Sections swapped without a section move: the rows alone cannot tell, the headers can.
        view.performBatchUpdates(
            BatchUpdate(moveItems: [.init(from: Self.p(1, 0), to: Self.p(0, 0))]), animation: .none,
            updates: {
                dataSource.rows = [["b"], []]
                dataSource.headers = ["B", "A"]
            }, completion: { #expect(!$0) })
        #expect(view.violations.map(\.rule) == ["V9"])
        #expect(
            view.violations.first?.message
                == "section 0 shows the header \"header A\" of old section 0, but the data source answers \"header B\"")
        // The data source switched before the closure: B3.
        let (early, earlySource) = Self.loaded(Self.build([("A", ["a"])]))
        earlySource.rows = [["a", "b"]]
        early.performBatchUpdates(BatchUpdate(insertItems: [Self.p(0, 1)]), animation: .none, updates: {}, completion: { #expect(!$0) })
        #expect(early.violations.map(\.rule) == ["B3"])
        // Off the executor: T1.
        let queue = DispatchQueue(label: "view")
        let (strict, strictSource) = Self.loaded(Self.build([("A", ["a"])]))
        strict.executor = .queue(queue)
        strict.reloadData()
        #expect(strict.violations.map(\.rule) == ["T1"])
        // Calls in order; deferred completions wait for finishAnimations().
        queue.sync {
            strict.completionTiming = .deferred
            var finished: [Bool] = []
            strict.performBatchUpdates(
                BatchUpdate(insertItems: [Self.p(0, 1)]), animation: .fade, updates: { strictSource.rows = [["a", "b"]] },
                completion: { finished.append($0) })
            #expect(finished.isEmpty)
            strict.finishAnimations()
            #expect(finished == [true])
        }
        #expect(strict.calls == [.reloadData, .reloadData, .batch(BatchUpdate(insertItems: [Self.p(0, 1)]), .fade)])
        #expect(strict.violations.count == 1)
    }

    @Test func batchesBeforeLoadNestedOrWithNegativeCountsAreViolations() {
        let view = SimulatedListView<String>(policy: .record)
        let dataSource = RowsDataSource(Self.build([("A", ["a"])]))
        view.dataSource = dataSource
        view.performBatchUpdates(BatchUpdate(), animation: .none, updates: {}, completion: { #expect(!$0) })
        #expect(view.violations.map(\.rule) == ["B3"])
        #expect(view.rows == [["a"]])  // recovered by a reload
        view.performBatchUpdates(
            BatchUpdate(), animation: .none,
            updates: { view.performBatchUpdates(BatchUpdate(), animation: .none, updates: {}, completion: { #expect(!$0) }) },
            completion: { #expect($0) })
        #expect(view.violations.map(\.rule) == ["B3", "B2"])
        let negative = NegativeDataSource()
        view.dataSource = negative
        view.reloadData()
        #expect(view.violations.last == .init(rule: "V0", message: "the data source answered -1 items in section 0"))
        #expect(view.rows.isEmpty)
    }

    @Test func aRejectedBatchTrapsWithUIKitsMessageByDefault() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let view = SimulatedListView<String>()
            let dataSource = RowsDataSource(RandomSnapshots.build([("A", ["a"])]))
            view.dataSource = dataSource
            view.reloadData()
            view.performBatchUpdates(
                BatchUpdate(insertItems: [IndexPath(item: 1, section: 0)]), animation: .none, updates: {}, completion: { _ in })
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(
                text.contains(
                    "NSInternalInconsistencyException: attempt to insert item 1 into section 0, but there are only 1 items in section 0 after the update [E5]"
                ))
        }
    }

    @Test func theUserReordersThroughTheDelegate() throws {
        let (view, dataSource) = Self.loaded(Self.build([("A", ["a", "b", "c"]), ("B", ["d"])]))
        #expect(try view.simulateReorder(from: Self.p(0, 0), to: Self.p(0, 2)))
        #expect(view.rows == [["b", "c", "a"], ["d"]] && dataSource.rows == view.rows)
        #expect(try view.simulateReorder(from: Self.p(0, 1), to: Self.p(1, 1)))
        #expect(view.rows == [["b", "a"], ["d", "c"]] && dataSource.rows == view.rows)
        dataSource.pinned = ["b"]
        #expect(try !view.simulateReorder(from: Self.p(0, 0), to: Self.p(0, 1)))
        #expect(view.rows == [["b", "a"], ["d", "c"]] && dataSource.moves.count == 2)
        #expect(throws: BatchValidator.Violation.self) { try view.simulateReorder(from: Self.p(0, 2), to: Self.p(0, 0)) }
        #expect(throws: BatchValidator.Violation.self) { try view.simulateReorder(from: Self.p(0, 1), to: Self.p(0, 2)) }
        #expect(throws: BatchValidator.Violation.self) { try view.simulateReorder(from: IndexPath(), to: Self.p(0, 0)) }
        #expect(throws: BatchValidator.Violation.self) { try view.simulateReorder(from: Self.p(1, 0), to: Self.p(-1, 0)) }
        dataSource.recordsMoves = false
        #expect(throws: BatchValidator.Violation.self) { try view.simulateReorder(from: Self.p(1, 0), to: Self.p(1, 1)) }
        #expect(view.rows == dataSource.rows)  // the view went back to what the data source answers
    }

    @Test func aDisclosureTapReachesTheDelegateWhichAppliesTheChildren() throws {
        let (view, dataSource) = Self.loaded(Self.build([("Files", ["docs", "src"])]))
        // Unowned: the data source keeps this closure, so strong captures would leak both (LeakSanitizer).
        dataSource.onTap = { [unowned dataSource, unowned view] path in
            var expanded = Self.build([("Files", ["docs", "src"])])
            expanded.insertItems(["docs/a.md", "docs/b.md"], afterItem: dataSource.rows[path.section][path.item])
            dataSource.apply(expanded, to: view)
        }
        #expect(try view.simulateTapDisclosure(at: Self.p(0, 0)))
        #expect(dataSource.taps == [Self.p(0, 0)])
        #expect(view.rows == [["docs", "docs/a.md", "docs/b.md", "src"]] && view.batchCount == 1 && view.violations.isEmpty)
        #expect(
            throws: BatchValidator.Violation(
                rule: "U1", message: "simulateTapDisclosure: index path {length = 2, path = 0 - 4} is past the end, section 0 shows 4 rows")
        ) {
            try view.simulateTapDisclosure(at: Self.p(0, 4))
        }
        // Without an interaction delegate, the data source hears the tap.
        view.interactionDelegate = nil
        #expect(try view.simulateTapDisclosure(at: Self.p(0, 0)))
        #expect(dataSource.taps == [Self.p(0, 0), Self.p(0, 0)] && view.violations.isEmpty)
        // A data source that implements no interaction call gets the protocol's defaults: a tap
        // does nothing and no row can be dragged.
        let plain = NegativeDataSource()
        view.dataSource = plain
        #expect(try view.simulateTapDisclosure(at: Self.p(0, 0)))
        #expect(try !view.simulateReorder(from: Self.p(0, 0), to: Self.p(0, 1)))
        #expect(view.rows == [["docs", "docs/a.md", "docs/b.md", "src"]])
    }
}

/// A data source that answers a negative count.
final class NegativeDataSource: ListViewDataSource {
    func numberOfSections() -> Int { 1 }
    func numberOfItems(inSection section: Int) -> Int { -1 }
    func cell(at indexPath: IndexPath) -> String { "" }
    func supplementaryView(ofKind kind: String, at indexPath: IndexPath) -> String? { nil }
}
