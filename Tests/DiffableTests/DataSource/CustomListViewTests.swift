import Foundation
import Testing

@testable import Diffable

/// The custom view of docs/DATA_SOURCE.md ("Writing your own ListView", the file
/// Examples/ArrayListView.swift, which the doc must quote exactly) driven by a real
/// ``DiffableDataSource``: its steps must leave the rows the data source answers, and the
/// user's drags and disclosure taps must reach the data source through the view.
@Suite struct CustomListViewTests {
    typealias DataSource = DiffableDataSource<String, String, String>

    /// A data source on a private queue driving a fresh `ArrayListView`.
    final class Harness: @unchecked Sendable {
        let queue = DispatchQueue(label: "array-view")
        let view = ArrayListView()
        let dataSource: DataSource

        init() {
            dataSource = DataSource(view: view, executor: .queue(queue)) { _, item in item }
        }

        /// The rows the view shows, read on its queue.
        var rows: [[String]] { queue.sync { view.rows } }

        /// The data source's items, section after section.
        var expected: [[String]] {
            let snapshot = dataSource.snapshot()
            return snapshot.sectionIdentifiers.map { snapshot.itemIdentifiers(inSection: $0) }
        }
    }

    @Test func stepsLeaveTheDataSourcesRowsOverRandomApplies() async {
        var generator = SeededGenerator(seed: 25)
        var kinds = Set<String>()
        for _ in 0..<150 {
            let harness = Harness()
            let (old, new) = RandomSnapshots.pair(&generator)
            await harness.dataSource.apply(old)
            await harness.dataSource.apply(new)
            #expect(harness.rows == harness.expected, "old \(old), new \(new)")
            let log = harness.queue.sync { harness.view.log }
            #expect(log.first == "reloadData")
            kinds.formUnion(log.dropFirst().map { String($0.prefix { $0 != "(" }) })
        }
        // The pairs exercised every kind of structural step, and refreshes.
        let structural: Set = ["deleteSection", "insertSection", "moveSection", "deleteItem", "insertItem", "moveItem"]
        #expect(structural.isSubset(of: kinds), "step kinds seen: \(kinds.sorted())")
        #expect(!kinds.isDisjoint(with: ["reloadItem", "reconfigureItem"]), "step kinds seen: \(kinds.sorted())")
    }

    @Test func logsEachStepInOrder() async {
        let harness = Harness()
        await harness.dataSource.apply(RandomSnapshots.build([("Fruit", ["apple", "banana"]), ("Vegetables", ["kale"])]))
        var new = harness.dataSource.snapshot()
        new.moveItem("banana", afterItem: "kale")
        new.appendItems(["okra"], toSection: "Fruit")
        await harness.dataSource.apply(new)
        #expect(harness.rows == [["apple", "okra"], ["kale", "banana"]])
        #expect(harness.queue.sync { harness.view.log } == ["reloadData", "moveItem((0, 1)→(1, 1))", "insertItem(0, 1)"])
    }

    @Test func aDragReachesTheDataSourceAndARefusedOneChangesNothing() async {
        let harness = Harness()
        harness.dataSource.reorderingHandlers = .init(canReorderItem: { $0 != "pinned" })
        await harness.dataSource.apply(RandomSnapshots.build([("Todo", ["pinned", "a", "b"]), ("Done", ["c"])]))
        let moved = harness.queue.sync {
            harness.view.userDragged(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 1, section: 1))
        }
        #expect(moved)
        #expect(harness.expected == [["pinned", "b"], ["c", "a"]])
        #expect(harness.rows == harness.expected)
        let refused = harness.queue.sync {
            harness.view.userDragged(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 1, section: 0))
        }
        #expect(!refused)
        #expect(harness.rows == [["pinned", "b"], ["c", "a"]])
    }

    @Test func aDisclosureTapExpandsThroughTheDataSource() async {
        let harness = Harness()
        var files = DiffableDataSourceSectionSnapshot<String>()
        files.append(["Sources", "README.md"])
        files.append(["main.swift"], to: "Sources")
        await harness.dataSource.apply(files, to: "Files")
        #expect(harness.rows == [["Sources", "README.md"]])
        harness.dataSource.executor.runAndWait { harness.view.userTappedDisclosure(at: IndexPath(item: 0, section: 0)) }
        await harness.dataSource.waitForApplies()
        #expect(harness.rows == [["Sources", "main.swift", "README.md"]])
        #expect(harness.dataSource.snapshot(for: "Files").isExpanded("Sources"))
    }

    /// docs/DATA_SOURCE.md's way to play the user from elsewhere: hop with `runAndWait` (its
    /// result and errors come back), and `waitForApplies()` waits for the apply a tap queued
    /// behind applies still waiting for the view.
    @Test func runAndWaitHopsAndWaitForAppliesWaitsForTheTapsApply() async throws {
        let harness = Harness()
        var files = DiffableDataSourceSectionSnapshot<String>()
        files.append(["Sources", "README.md"])
        files.append(["main.swift"], to: "Sources")
        await harness.dataSource.apply(files, to: "Files")
        struct Refused: Error {}
        #expect(harness.dataSource.executor.runAndWait { harness.dataSource.executor.isCurrent() })
        #expect(throws: Refused.self) { try harness.dataSource.executor.runAndWait { () throws(Refused) in throw Refused() } }
        // The view's queue is busy: the applies below wait behind it, and the tap comes between
        // them, so its apply is queued when the tap returns.
        let gate = DispatchSemaphore(value: 0), tapped = DispatchSemaphore(value: 0)
        harness.queue.async { gate.wait() }
        var other = harness.dataSource.snapshot()
        other.appendSections(["Other"])
        other.appendItems(["x"], toSection: "Other")
        harness.dataSource.apply(other, completion: nil)
        harness.dataSource.executor.run {
            harness.view.userTappedDisclosure(at: IndexPath(item: 0, section: 0))
            tapped.signal()
        }
        other.appendItems(["y"], toSection: "Other")
        harness.dataSource.apply(other, completion: nil)
        gate.signal()
        tapped.wait()
        await harness.dataSource.waitForApplies()
        #expect(harness.rows == [["Sources", "main.swift", "README.md"], ["x", "y"]])
        #expect(harness.dataSource.snapshot(for: "Files").isExpanded("Sources"))
        // Nothing queued: it returns at once, showing nothing.
        let log = harness.queue.sync { harness.view.log }
        await harness.dataSource.waitForApplies()
        #expect(harness.queue.sync { harness.view.log } == log)
    }

    /// The doc quotes the example file whole, so the two cannot drift apart.
    @Test func theDocQuotesTheTestedFileExactly() throws {
        let root = RepositoryPaths.root
        let example = "Tests/DiffableTests/Examples/ArrayListView.swift"
        let code = try String(contentsOf: root.appendingPathComponent(example), encoding: .utf8)
        let doc = try String(contentsOf: root.appendingPathComponent("docs/DATA_SOURCE.md"), encoding: .utf8)
        let marker = "<!-- the code of \(example), checked by CustomListViewTests -->\n```swift\n"
        let start = try #require(doc.range(of: marker), "docs/DATA_SOURCE.md has no block marked for \(example)")
        let end = try #require(doc.range(of: "\n```\n", range: start.upperBound..<doc.endIndex))
        #expect(String(doc[start.upperBound..<end.lowerBound]) + "\n" == code)
    }
}
