import Foundation
import Testing

@testable import Diffable

/// `QueuedApplyPolicy.coalesce` (docs/DATA_SOURCE.md): applies queued behind a busy view
/// collapse into one batch, and must end in exactly the state performing each of them would.
// A time limit: a queue that never drains would otherwise hang the whole run without naming a test.
@Suite(.timeLimit(.minutes(5))) struct DataSourceCoalescingTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>
    typealias Outline = DiffableDataSourceSectionSnapshot<String>
    typealias Harness = DataSourceHarness<String, String>

    /// An outline edit queued between two flat applies, the second leaving the outline's rows
    /// as they are: the outline (A's hidden child a1) survives under both policies. Coalescing
    /// used to keep only what followed the newest flat snapshot, so the merged apply started
    /// from a state that never had the outline and "tree" ended as the roots A, B.
    @Test(arguments: [QueuedApplyPolicy.performEach, .coalesce], [false, true])
    func anOutlineEditBeforeTheNewestFlatApplyIsKept(policy: QueuedApplyPolicy, expandA: Bool) async throws {
        let harness = Harness()
        let dataSource = harness.dataSource
        dataSource.queuedApplyPolicy = policy
        await dataSource.apply(.build(["tree", "flat"], [["A", "B"], ["x"]]))
        var outline = Outline()
        outline.append(["A", "B"])
        outline.append(["a1"], to: "A")
        if expandA { outline.expand(["A"]) }
        let treeRows = outline.visibleItems
        let gate = DispatchSemaphore(value: 0)
        harness.queue.async { gate.wait() }
        let group = DispatchGroup()
        let log = CompletionLog()
        func done(_ index: Int) -> @Sendable () -> Void {
            group.enter()
            return {
                log.record(thread: 0, index: index, problem: harness.problemOnView())
                group.leave()
            }
        }
        dataSource.apply(.build(["tree", "flat"], [["A", "B"], ["x", "y"]]), completion: done(1))
        dataSource.apply(outline, to: "tree", completion: done(2))
        dataSource.apply(.build(["tree", "flat"], [treeRows, ["x", "y", "z"]]), completion: done(3))
        gate.signal()
        await group.finished()
        #expect(log.order == [1, 2, 3] && log.problems.isEmpty, "\(log.problems)")
        #expect(dataSource.snapshot() == .build(["tree", "flat"], [treeRows, ["x", "y", "z"]]))
        #expect(dataSource.snapshot(for: "tree").items == ["A", "a1", "B"])
        #expect(dataSource.snapshot(for: "tree") == outline)
        // The child is still there for the user: a tap on A toggles it.
        harness.queue.sync { dataSource.toggleDisclosure(at: IndexPath(item: 0, section: 0)) }
        await dataSource.apply(dataSource.snapshot())  // waits for the tap's apply
        #expect(harness.shownItems()[0] == (expandA ? ["A", "B"] : ["A", "a1", "B"]))
        #expect(harness.problem() == nil)
    }

    /// One queued call of a random sequence.
    enum Step: Sendable {
        case flat(Snapshot)
        case reload(Snapshot)
        case outline(String, Outline)
        case update(Edit)
    }

    /// What an update's closure does to the newest snapshot (it must see that snapshot: each
    /// edit depends on it).
    enum Edit: Sendable, CaseIterable {
        case appendToFlat, deleteFirstFlat, moveTreeLast, deleteTree, reconfigureFirst

        func apply(to snapshot: inout Snapshot) {
            switch self {
            case .appendToFlat:
                if !snapshot.contains(section: "flat") { snapshot.appendSections(["flat"]) }
                guard let item = (0..<10).map({ "f\($0)" }).first(where: { !snapshot.contains(item: $0) }) else { return }
                snapshot.appendItems([item], toSection: "flat")
            case .deleteFirstFlat:
                guard snapshot.contains(section: "flat"), let first = snapshot.itemIdentifiers(inSection: "flat").first else { return }
                snapshot.deleteItems([first])
            case .moveTreeLast:
                guard snapshot.contains(section: "tree"), let last = snapshot.sectionIdentifiers.last, last != "tree" else { return }
                snapshot.moveSection("tree", afterSection: last)
            case .deleteTree:
                if snapshot.contains(section: "tree") { snapshot.deleteSections(["tree"]) }
            case .reconfigureFirst:
                if let first = snapshot.itemIdentifiers.first { snapshot.reconfigureItems([first]) }
            }
        }
    }

    static let pools = ["flat": (0..<10).map { "f\($0)" }, "tree": (0..<8).map { "t\($0)" }, "tree2": (0..<6).map { "u\($0)" }]

    /// A random outline of some of `section`'s pool: a forest, some items expanded.
    static func randomOutline(_ section: String, _ generator: inout SeededGenerator) -> Outline {
        let items = pools[section]!.shuffled(using: &generator).prefix(Int.random(in: 0...pools[section]!.count, using: &generator))
        return OutlineApplyPathTests.randomOutline(Array(items), &generator)
    }

    /// A random flat snapshot: each section's items from its own pool (so no apply can repeat
    /// an identifier across sections); an outline section's rows often those of the last
    /// outline made for it, so that flat applies keep outlines as well as drop them.
    static func randomSnapshot(_ generator: inout SeededGenerator, lastRows: [String: [String]]) -> Snapshot {
        var snapshot = Snapshot()
        for section in ["flat", "tree", "tree2"].shuffled(using: &generator) where Int.random(in: 0..<5, using: &generator) > 0 {
            snapshot.appendSections([section])
            let items: [String]
            if let rows = lastRows[section], Bool.random(using: &generator) {
                items = rows
            } else {
                let pool = pools[section]!
                items = Array(pool.shuffled(using: &generator).prefix(Int.random(in: 0...pool.count, using: &generator)))
            }
            snapshot.appendItems(items, toSection: section)
        }
        if let item = snapshot.itemIdentifiers.randomElement(using: &generator), Bool.random(using: &generator) {
            snapshot.reconfigureItems([item])
        }
        return snapshot
    }

    static func randomSteps(_ generator: inout SeededGenerator) -> (start: Snapshot, steps: [Step]) {
        var lastRows: [String: [String]] = [:]
        let start = randomSnapshot(&generator, lastRows: [:])
        var steps: [Step] = []
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<3: steps.append(.flat(randomSnapshot(&generator, lastRows: lastRows)))
            case 3: steps.append(.reload(randomSnapshot(&generator, lastRows: lastRows)))
            case 4..<7:
                let section = Bool.random(using: &generator) ? "tree" : "tree2"
                let outline = randomOutline(section, &generator)
                lastRows[section] = outline.visibleItems
                steps.append(.outline(section, outline))
            default: steps.append(.update(Edit.allCases.randomElement(using: &generator)!))
            }
        }
        return (start, steps)
    }

    /// Where a data source ends after `steps` queued behind a busy view: its snapshot, every
    /// section's outline, the view's rows, and any problem the view saw.
    struct End: Equatable {
        var snapshot: Snapshot
        var outlines: [Outline]
        var rows: [[String]]
        var problem: String?
    }

    static func run(_ start: Snapshot, _ steps: [Step], policy: QueuedApplyPolicy) async -> End {
        let harness = Harness()
        let dataSource = harness.dataSource
        dataSource.queuedApplyPolicy = policy
        await dataSource.apply(start)
        let gate = DispatchSemaphore(value: 0)
        harness.queue.async { gate.wait() }
        let group = DispatchGroup()
        for step in steps {
            group.enter()
            let done: @Sendable () -> Void = { group.leave() }
            switch step {
            case .flat(let snapshot): dataSource.apply(snapshot, completion: done)
            case .reload(let snapshot): dataSource.applySnapshotUsingReloadData(snapshot, completion: done)
            case .outline(let section, let outline): dataSource.apply(outline, to: section, completion: done)
            case .update(let edit):
                // What `update(animatingDifferences:_:)` queues, without awaiting it here.
                let update = SnapshotUpdate<String, String> { snapshot in
                    edit.apply(to: &snapshot)
                    return true
                }
                dataSource.submit(.update(update), kind: .diff(animating: true), completion: done, operation: "update")
            }
        }
        gate.signal()
        await group.finished()
        return End(
            snapshot: dataSource.snapshot(), outlines: ["flat", "tree", "tree2"].map { dataSource.snapshot(for: $0) },
            rows: harness.shownItems(), problem: harness.problem())
    }

    /// For random queued mixes of flat applies, reloads, outline applies and updates,
    /// coalescing ends exactly where performing each ends: the data source's snapshot, every
    /// section's outline and the view's rows (and the view saw no broken rule).
    @Test func coalescingEndsWherePerformingEachEnds() async {
        for seed in 0..<300 as Range<UInt64> {
            var generator = SeededGenerator(seed: seed)
            let (start, steps) = Self.randomSteps(&generator)
            let each = await Self.run(start, steps, policy: .performEach)
            let coalesced = await Self.run(start, steps, policy: .coalesce)
            #expect(each.problem == nil, "seed \(seed): \(each.problem ?? "")")
            #expect(coalesced == each, "seed \(seed): \(steps)")
            if coalesced != each { return }
        }
    }
}
