import DiffableTesting
import DiffableTools
import Foundation
import Testing

@testable import Diffable

@Suite struct SnapshotDifferenceTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>

    static func snapshot(_ sections: [(String, [String])]) -> Snapshot { RandomSnapshots.build(sections) }

    @Test func flatMoveFrontToBackIsOneMove() {
        let old = Self.snapshot([("S", ["a", "b", "c", "d"])])
        let new = Self.snapshot([("S", ["b", "c", "d", "a"])])
        let difference = new.difference(from: old)
        #expect(
            difference.batches == [
                BatchUpdate(moveItems: [.init(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 3, section: 0))])
            ])
        #expect(difference.description == "SnapshotDifference(BatchUpdate(moveItems: [(0, 0)→(0, 3)]))")
    }

    @Test func reversalMovesAllButOneIncludingTheSameIndex() {
        let difference = Self.snapshot([("S", ["a", "b", "c"])]).difference(from: Self.snapshot([("S", ["c", "b", "a"])]))
        let moves = difference.batches.first?.moveItems.map { "\($0)" }
        #expect(moves == ["(0, 2)→(0, 0)", "(0, 1)→(0, 1)"])
    }

    @Test func identicalSnapshotsHaveNoBatches() {
        let snapshot = Self.snapshot([("A", ["1", "2"]), ("B", [])])
        #expect(snapshot.difference(from: snapshot).batches.isEmpty)
    }

    @Test func collectionDifferenceRoundTrips() throws {
        let old = Self.snapshot([("S", ["a", "b", "c", "d", "e"])])
        let new = Self.snapshot([("S", ["e", "b", "x", "a", "d"])])
        let difference = try #require(new.difference(from: old).collectionDifference())
        #expect(old.itemIdentifiers.applying(difference) == new.itemIdentifiers)
    }

    @Test func indexPathMapping() {
        let old = Self.snapshot([("A", ["1", "2"]), ("B", ["3"])])
        let new = Self.snapshot([("B", ["3", "1"]), ("C", ["4"])])
        let difference = new.difference(from: old)
        #expect(difference.newIndexPath(forOldIndexPath: IndexPath(item: 0, section: 0)) == IndexPath(item: 1, section: 0))
        #expect(difference.newIndexPath(forOldIndexPath: IndexPath(item: 1, section: 0)) == nil)
        #expect(difference.oldIndexPath(forNewIndexPath: IndexPath(item: 0, section: 1)) == nil)
        #expect(difference.oldIndexPath(forNewIndexPath: IndexPath(item: 0, section: 0)) == IndexPath(item: 0, section: 1))
        #expect(difference.newSectionIndex(forOldSectionIndex: 1) == 0)
        #expect(difference.oldSectionIndex(forNewSectionIndex: 1) == nil)
    }

    @Test func batchUpdateCodesToTheFixtureFormat() throws {
        let batch = BatchUpdate(
            moveSections: [.init(from: 1, to: 0)], deleteItems: [IndexPath(item: 2, section: 0)],
            moveItems: [.init(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 3, section: 1))])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(batch), as: UTF8.self)
        #expect(
            json
                == #"{"deleteItems":[[0,2]],"deleteSections":[],"insertItems":[],"insertSections":[],"moveItems":[[[0,0],[1,3]]],"moveSections":[[1,0]],"reconfigureItems":[],"reloadItems":[],"reloadSections":[]}"#
        )
        #expect(try JSONDecoder().decode(BatchUpdate.self, from: Data(json.utf8)) == batch)
    }
}

/// The README's API tour, verbatim in effect: its documented batches stay true.
@Suite struct ReadmeTourTests {
    /// The tour's groceries, before and after.
    static func tourSnapshots() -> (old: DiffableDataSourceSnapshot<String, String>, new: DiffableDataSourceSnapshot<String, String>) {
        var old = DiffableDataSourceSnapshot<String, String>()
        old.appendSections(["Fruit", "Vegetables"])
        old.appendItems(["apple", "banana", "cherry"], toSection: "Fruit")
        old.appendItems(["kale", "leek"], toSection: "Vegetables")
        var new = old
        new.moveItem("cherry", beforeItem: "apple")
        new.moveItem("banana", afterItem: "kale")
        new.appendItems(["okra"])
        new.reloadItems(["apple"])
        return (old, new)
    }

    @Test func tourProducesTheDocumentedBatches() throws {
        let (old, new) = Self.tourSnapshots()
        let difference = new.difference(from: old)
        #expect(
            difference.batches.map(\.description) == [
                "BatchUpdate(insertItems: [(1, 3)], moveItems: [(0, 2)→(0, 0), (0, 1)→(1, 1)])",
                "BatchUpdate(reloadItems: [(0, 1)])",
            ])
        var view = ListViewSimulator<String, String>(flavor: .table)
        view.reloadData(old)
        try view.apply(difference)
    }

    @Test func outlineAndDataSourceTourDoWhatTheReadmeSays() async throws {
        var files = DiffableDataSourceSectionSnapshot<String>()
        files.append(["Sources", "README.md"])
        files.append(["main.swift", "util.swift"], to: "Sources")
        files.expand(["Sources"])
        #expect(files.visibleItems == ["Sources", "main.swift", "util.swift", "README.md"])
        let rows = files.difference(from: DiffableDataSourceSectionSnapshot())
        #expect(rows.batches.count == 1 && rows.batches[0].insertItems.count == 4)

        let (old, new) = Self.tourSnapshots()
        let view = SimulatedListView<String>()
        let dataSource = DiffableDataSource<String, String, String>(
            view: view, executor: .queue(DispatchQueue(label: "ui"))
        ) { indexPath, item in item }
        await dataSource.apply(old)
        await dataSource.apply(new)
        #expect(dataSource.indexPath(for: "okra") == IndexPath(item: 3, section: 1))
        #expect(view.reloadCount == 1 && view.batchCount == 2)
        #expect(view.rows == [["cherry", "apple"], ["kale", "banana", "leek", "okra"]])
    }
}
