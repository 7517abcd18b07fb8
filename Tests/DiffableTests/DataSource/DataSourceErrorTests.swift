import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// Programming errors: each is reported through `DiffableDiagnostics`,
/// then traps with a message naming the problem (Apple raises in each case). Exit tests:
/// every case runs in a child process whose standard error is checked.
@Suite struct DataSourceErrorTests {
    @Test func cellProviderReturningNil() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.nilCell()
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        let message = "cell(at:): the cell provider returned nil for item \"b\" at index path [0, 1]"
        #expect(text.contains("event: cellProviderReturnedNil in \(message)"))
        #expect(text.contains("Fatal error: Diffable: \(message)"))
    }

    @Test func indexPathOutOfRangeAskedByTheView() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.rogueView(.cellOutOfRange)
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("event: indexPathOutOfRange in cell(at:): the view asked for index path [0, 5], but section 0 has 2 items"))
        #expect(text.contains("Fatal error: Diffable: cell(at:)"))
        let sections = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.rogueView(.sectionOutOfRange)
        }
        let sectionText = sections.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(sectionText.contains("numberOfItems(inSection:): the view asked for section 3, but the data source has 1 sections"))
    }

    @Test func applyFromInsideAViewUpdate() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.reentrantApply()
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(
            text.contains("event: reentrantApply in apply(_:animatingDifferences:completion:): called while the view is inside an update"))
        #expect(text.contains("APPLYING_SNAPSHOTS_REENTRANTLY"))
    }

    @Test func duplicateIDsInASnapshotMatchedByID() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.duplicateIDs()
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(
            text.contains(
                "event: duplicateIdentifiers in apply(_:animatingDifferences:completion:): values matched by id: "
                    + "item identifiers are not unique: 1 at [0, 1], [0, 2]"))
    }

    /// Repeated `id`s in a snapshot diffed against a shown one (not loaded): the diff's
    /// keys are the `id`s', and repeats are found whether both values are new, one of
    /// them was shown, or the shown one moved.
    @Test func duplicateIDsInADiffMatchedByID() async {
        let expected =
            "event: duplicateIdentifiers in apply(_:animatingDifferences:completion:): values matched by id: "
            + "item identifiers are not unique: 1 at [0, 1], [0, 2]"
        let bothNew = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.duplicateIDsInADiff(shown: [0], applied: [(0, "a"), (1, "b"), (1, "b, edited")])
        }
        let oneShown = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.duplicateIDsInADiff(shown: [0, 1], applied: [(0, "a"), (1, "r1"), (1, "b, edited")])
        }
        let shownMoved = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.duplicateIDsInADiff(shown: [1, 0], applied: [(0, "a"), (1, "r1"), (1, "b, edited")])
        }
        for output in [bothNew, oneShown, shownMoved] {
            #expect(output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?.contains(expected) == true)
        }
    }

    /// A repeated `id` among values whose `==` ignores `id`, and whose `id`s all share one
    /// key: a new value equal to the old value its key found still has its `id` compared.
    @Test func duplicateIDsWhoseValuesIgnoreTheirID() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.duplicateIDsOfValuesIgnoringTheirID()
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("event: duplicateIdentifiers in apply(_:animatingDifferences:completion:): values matched by id: "))
        #expect(text.contains("at [0, 0], [0, 1]"))
    }

    /// A snapshot with a repeated `id`, queued behind a busy view and replaced by a later
    /// apply before it is diffed (coalescing): still reported, as alone it would be.
    @Test func duplicateIDsInASnapshotCoalescedAway() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.duplicateIDsCoalescedAway()
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(
            text.contains(
                "event: duplicateIdentifiers in apply(_:animatingDifferences:completion:): values matched by id: "
                    + "item identifiers are not unique: 1 at [0, 1], [0, 2]"))
    }

    @Test func viewCallingUpdatesTwice() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.reportToStandardError()
            Failing.rogueView(.updatesTwice)
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(
            text.contains(
                "event: viewContractViolation in performBatchUpdates(_:animation:updates:completion:): RogueListView called `updates` 2 times"
            ))
    }

    @Test func dragOfAnItemThatCannotMove() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Failing.forbiddenMove()
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("moveItem(at:to:): the view moved item \"a\", which reorderingHandlers.canReorderItem does not allow"))
    }
}

/// The failing programs the exit tests run (an exit test's body can capture nothing).
enum Failing {
    typealias StringSource = DiffableDataSource<String, String, TestCell<String, String>>

    static func reportToStandardError() {
        DiffableDiagnostics.handler = { FileHandle.standardError.write(Data("event: \($0)\n".utf8)) }
    }

    static func nilCell() {
        let queue = DispatchQueue(label: "view")
        let view = SimulatedListView<TestCell<String, String>>(policy: .record)
        let dataSource = StringSource(view: view, executor: .queue(queue)) { _, item in item == "b" ? nil : .row(item) }
        dataSource.supplementaryViewProvider = { _, _ in .header("A") }
        queue.sync { dataSource.apply(.build(["A"], [["a", "b"]]), completion: nil) }
    }

    static func reentrantApply() {
        let queue = DispatchQueue(label: "view")
        let view = SimulatedListView<TestCell<String, String>>(policy: .record)
        var dataSource: StringSource?
        dataSource = StringSource(view: view, executor: .queue(queue)) { _, item in
            dataSource?.apply(.build(["A"], [["z"]]), completion: nil)
            return .row(item)
        }
        dataSource?.supplementaryViewProvider = { _, _ in .header("A") }
        queue.sync { dataSource?.apply(.build(["A"], [["a"]]), completion: nil) }
    }

    static func duplicateIDs() {
        let view = SimulatedListView<TestCell<String, Reminder>>(policy: .record)
        let dataSource = DiffableDataSource<String, Reminder, TestCell<String, Reminder>>(
            view: view, executor: .queue(DispatchQueue(label: "view")), matchingItemsByID: .reconfigure
        ) { _, item in .row(item) }
        let twice = [Reminder(id: 0, title: "a"), Reminder(id: 1, title: "b"), Reminder(id: 1, title: "b, edited")]
        dataSource.apply(.build(["A"], [twice]), completion: nil)
    }

    /// Shows reminders `shown` (titled `r` and their id), then applies `applied`, whose `id`s repeat.
    static func duplicateIDsInADiff(shown: [Int], applied: [(Int, String)]) {
        let view = SimulatedListView<TestCell<String, Reminder>>(policy: .record)
        let queue = DispatchQueue(label: "view")
        let dataSource = DiffableDataSource<String, Reminder, TestCell<String, Reminder>>(
            view: view, executor: .queue(queue), matchingItemsByID: .reconfigure
        ) { _, item in .row(item) }
        dataSource.apply(.build(["A"], [shown.map { Reminder(id: $0, title: "r\($0)") }]), completion: nil)
        queue.sync {}  // shown: the next apply is diffed against it
        dataSource.apply(.build(["A"], [applied.map { Reminder(id: $0.0, title: $0.1) }]), completion: nil)
    }

    /// A value whose `==` and hash read its title alone, with an `id` whose hash is constant.
    struct TitledByID: Identifiable, Hashable, Sendable {
        let id: CollidingReminder.ID
        var title: String
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.title == rhs.title }
        func hash(into hasher: inout Hasher) { hasher.combine(title) }
    }

    /// Shows `a` (id 1) and `b` (id 2), then applies `a2` (id 1) and `b` under id 1: the
    /// second value equals the shown `b` but repeats id 1.
    static func duplicateIDsOfValuesIgnoringTheirID() {
        let view = SimulatedListView<TestCell<String, TitledByID>>(policy: .record)
        let queue = DispatchQueue(label: "view")
        let dataSource = DiffableDataSource<String, TitledByID, TestCell<String, TitledByID>>(
            view: view, executor: .queue(queue), matchingItemsByID: .reconfigure
        ) { _, item in .row(item) }
        func value(_ id: Int, _ title: String) -> TitledByID { TitledByID(id: CollidingReminder.ID(value: id), title: title) }
        dataSource.apply(.build(["A"], [[value(1, "a"), value(2, "b")]]), completion: nil)
        queue.sync {}
        dataSource.apply(.build(["A"], [[value(1, "a2"), value(1, "b")]]), completion: nil)
    }

    /// Three applies queued behind a busy view and coalesced; the middle one repeats id 1.
    static func duplicateIDsCoalescedAway() {
        let harness = DataSourceHarness<String, Reminder>(matchingByID: .reconfigure)
        harness.dataSource.queuedApplyPolicy = .coalesce
        func reminders(_ ids: [(Int, String)]) -> DiffableDataSourceSnapshot<String, Reminder> {
            .build(["A"], [ids.map { Reminder(id: $0.0, title: $0.1) }])
        }
        harness.dataSource.apply(reminders([(0, "a"), (1, "b")]), completion: nil)
        harness.queue.sync {}
        let gate = DispatchSemaphore(value: 0)
        harness.queue.async { gate.wait() }  // the view is busy: what follows waits in the queue
        harness.dataSource.apply(reminders([(0, "a"), (1, "b"), (2, "c")]), completion: nil)
        harness.dataSource.apply(reminders([(0, "a"), (1, "b"), (1, "b, edited")]), completion: nil)
        harness.dataSource.apply(reminders([(0, "a"), (3, "d")]), completion: nil)
        gate.signal()
        let done = DispatchSemaphore(value: 0)
        harness.dataSource.apply(reminders([(0, "a"), (3, "d")])) { done.signal() }
        done.wait()
    }

    static func forbiddenMove() {
        let queue = DispatchQueue(label: "view")
        let dataSource = DiffableDataSource<String, String, String>(view: RogueListView(.none), executor: .queue(queue)) { _, item in item }
        dataSource.reorderingHandlers.canReorderItem = { $0 != "a" }
        queue.sync {
            dataSource.apply(.build(["A"], [["a", "b"]]), completion: nil)
            dataSource.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 1, section: 0))
        }
    }

    static func rogueView(_ misbehaviour: RogueListView.Misbehaviour) {
        let queue = DispatchQueue(label: "view")
        let dataSource = DiffableDataSource<String, String, String>(view: RogueListView(misbehaviour), executor: .queue(queue)) {
            _, item in item
        }
        queue.sync {
            dataSource.apply(.build(["A"], [["a", "b"]]), completion: nil)
            dataSource.apply(.build(["A"], [["b", "c"]]), completion: nil)
        }
    }
}

/// A view that breaks the rules on purpose.
final class RogueListView: ListView {
    enum Misbehaviour { case none, cellOutOfRange, sectionOutOfRange, updatesTwice }
    weak var dataSource: (any ListViewDataSource<String>)?
    let misbehaviour: Misbehaviour
    init(_ misbehaviour: Misbehaviour) { self.misbehaviour = misbehaviour }

    func reloadData() {
        switch misbehaviour {
        case .cellOutOfRange: _ = dataSource?.cell(at: IndexPath(item: 5, section: 0))
        case .sectionOutOfRange: _ = dataSource?.numberOfItems(inSection: 3)
        case .none, .updatesTwice: break
        }
    }

    func performBatchUpdates(_ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void) {
        updates()
        if misbehaviour == .updatesTwice { updates() }
        completion(true)
    }
}
