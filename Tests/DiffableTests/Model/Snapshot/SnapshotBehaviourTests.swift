import Foundation
import Testing

@testable import Diffable

@Suite struct SnapshotBehaviourTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>

    @Test func emptySnapshot() {
        let snapshot = Snapshot()
        #expect(snapshot.numberOfItems == 0 && snapshot.numberOfSections == 0)
        #expect(snapshot.itemIdentifiers.isEmpty && snapshot.sectionIdentifiers.isEmpty)
        #expect(snapshot.indexOfItem("a") == nil && snapshot.indexOfSection("S") == nil)
        #expect(snapshot.description == "Snapshot(0 sections, 0 items) []")
    }

    @Test func canonicallyEquivalentStringsAreOneIdentifier() {
        var snapshot = Snapshot()
        snapshot.appendSections(["S"])
        snapshot.appendItems(["caf\u{E9}", "\u{212B}"])
        #expect(snapshot.indexOfItem("cafe\u{301}") == 0)
        #expect(snapshot.indexOfItem("\u{C5}") == 1)  // Å: the Angstrom sign's NFC form
        // Appending the other spelling moves the existing item instead of adding one.
        snapshot.appendItems(["cafe\u{301}"])
        #expect(snapshot.numberOfItems == 2)
        #expect(snapshot.indexOfItem("caf\u{E9}") == 1)
        #expect(IdentifierKey.string("caf\u{E9}") == IdentifierKey.string("cafe\u{301}"))
        #expect(IdentifierKey.string("abc") == 0x78af_5f94_892f_3950)
    }

    @Test func appendingExistingItemsMovesThemAndReports() {
        let (snapshot, events) = DiagnosticsListeners.collect {
            var snapshot = Snapshot()
            snapshot.appendSections(["A", "B"])
            snapshot.appendItems(["1", "2", "3"], toSection: "A")
            snapshot.appendItems(["4", "2"], toSection: "B")
            return snapshot
        }
        #expect(snapshot.itemIdentifiers(inSection: "A") == ["1", "3"])
        #expect(snapshot.itemIdentifiers(inSection: "B") == ["4", "2"])
        // Other tests run in parallel and report too: look at this test's identifiers only.
        let mine = events.filter { $0.identifiers == ["\"2\""] }
        #expect(mine.count == 1)
        #expect(mine.first?.operation == "appendItems(_:toSection:)")
    }

    @Test func deleteAllItemsRemovesSectionsToo() {
        var snapshot = Snapshot()
        snapshot.appendSections(["A", "B"])
        snapshot.appendItems(["1"], toSection: "A")
        snapshot.deleteAllItems()
        #expect(snapshot.numberOfSections == 0 && snapshot.numberOfItems == 0)
        snapshot.appendSections(["A"])
        snapshot.appendItems(["1"])
        #expect(snapshot.itemIdentifiers == ["1"])
    }

    @Test func deletingUnknownIdentifiersIsANoOp() {
        var snapshot = Snapshot()
        snapshot.appendSections(["A"])
        snapshot.appendItems(["1"])
        let before = snapshot
        snapshot.deleteItems(["nope"])
        snapshot.deleteSections(["nowhere"])
        #expect(snapshot == before)
    }

    @Test func pendingRefreshesAndEquality() {
        var snapshot = Snapshot()
        snapshot.appendSections(["A"])
        snapshot.appendItems(["1", "2"])
        var reloaded = snapshot
        reloaded.reloadItems(["2", "1", "2"])
        reloaded.reconfigureItems(["1"])
        reloaded.reloadSections(["A"])
        #expect(reloaded.reloadedItemIdentifiers == ["2", "1"])
        #expect(reloaded.reconfiguredItemIdentifiers == ["1"])
        #expect(reloaded.reloadedSectionIdentifiers == ["A"])
        #expect(snapshot.reloadedItemIdentifiers.isEmpty)
        #expect(reloaded != snapshot)
        #expect(reloaded.withoutPendingUpdates() == snapshot)
        reloaded.deleteItems(["2"])
        #expect(reloaded.reloadedItemIdentifiers == ["1"])
        #expect(reloaded.debugDescription.contains("reloadItems: [\"1\"]"))
    }

    @Test func validatingInitReportsEveryDuplicate() throws {
        let good = try Snapshot(validating: [("A", ["1", "2"]), ("B", ["3"])])
        #expect(good.itemIdentifiers == ["1", "2", "3"])
        #expect(throws: SnapshotError.duplicateSections([.init(identifier: "\"A\"", positions: [[0], [2]])])) {
            try Snapshot(validating: [("A", []), ("B", []), ("A", [])])
        }
        let error = #expect(throws: SnapshotError.self) {
            try Snapshot(validating: [("A", ["x", "y", "x"]), ("B", ["y", "z", "x"])])
        }
        #expect(
            error
                == .duplicateItems([
                    .init(identifier: "\"x\"", positions: [[0, 0], [0, 2], [1, 2]]),
                    .init(identifier: "\"y\"", positions: [[0, 1], [1, 0]]),
                ]))
        #expect(error?.description == "item identifiers are not unique: \"x\" at [0, 0], [0, 2], [1, 2]; \"y\" at [0, 1], [1, 0]")
    }

    /// A person fixing a data feed sees every problem at once: sections "A" twice and items
    /// "California" and "Kansas" twice are all in one error.
    @Test func validatingInitReportsDuplicateSectionsAndItemsTogether() {
        let error = #expect(throws: SnapshotError.self) {
            try Snapshot(validating: [
                ("A", ["Alabama", "California"]), ("C", ["California", "Kansas"]), ("A", ["Kansas"]),
            ])
        }
        #expect(
            error
                == .duplicateSectionsAndItems(
                    sections: [.init(identifier: "\"A\"", positions: [[0], [2]])],
                    items: [
                        .init(identifier: "\"California\"", positions: [[0, 1], [1, 0]]),
                        .init(identifier: "\"Kansas\"", positions: [[1, 1], [2, 0]]),
                    ]))
        let text = error?.description ?? ""
        #expect(text.contains("\"A\" at [0], [2]") && text.contains("\"California\" at [0, 1], [1, 0]") && text.contains("\"Kansas\""))
    }

    @Test func rejectedMutationsLeaveTheSnapshotUnchanged() {
        var snapshot = Snapshot()
        #expect(throws: SnapshotError.noSections) { try snapshot.tryAppendItems(["1"]) }
        snapshot.appendSections(["A"])
        snapshot.appendItems(["1", "2"])
        let before = snapshot
        #expect(throws: SnapshotError.duplicateItems([.init(identifier: "\"3\"", positions: [[0], [2]])])) {
            try snapshot.tryAppendItems(["3", "4", "3"])
        }
        #expect(throws: SnapshotError.anchorIsMoved("\"1\"")) { try snapshot.tryInsertItems(["1"], afterItem: "1") }
        #expect(throws: SnapshotError.anchorIsMoved("\"1\"")) { try snapshot.tryMoveItem("1", beforeItem: "1") }
        #expect(throws: SnapshotError.unknownItems(["\"9\""])) { try snapshot.tryReloadItems(["1", "9"]) }
        #expect(throws: SnapshotError.unknownSections(["\"Z\""])) { try snapshot.tryReloadSections(["Z"]) }
        // An unknown identifier named twice in one call is named once.
        #expect(throws: SnapshotError.unknownItems(["\"9\""])) { try snapshot.tryMoveItem("9", beforeItem: "9") }
        #expect(throws: SnapshotError.unknownItems(["\"9\"", "\"8\""])) { try snapshot.tryReconfigureItems(["9", "8", "9"]) }
        #expect(throws: SnapshotError.unknownSections(["\"Z\""])) { try snapshot.tryMoveSection("Z", afterSection: "Z") }
        #expect(throws: SnapshotError.duplicateSections([.init(identifier: "\"B\"", positions: [[0], [1]])])) {
            try snapshot.tryAppendSections(["B", "B"])
        }
        #expect(snapshot == before)
        #expect(snapshot.indexOfItem("3") == nil)
    }

    @Test func copiesAreIndependent() {
        var a = Snapshot()
        a.appendSections(["A"])
        a.appendItems(["1", "2"])
        var b = a
        b.appendItems(["3"])
        b.moveItem("1", afterItem: "3")
        #expect(a.itemIdentifiers == ["1", "2"])
        #expect(b.itemIdentifiers == ["2", "3", "1"])
        #expect(a.indexOfItem("3") == nil)
    }

    @Test func largeSnapshotQueries() {
        var snapshot = DiffableDataSourceSnapshot<Int, Int>()
        snapshot.appendSections(Array(0..<1000))
        for section in 0..<1000 { snapshot.appendItems(Array((section * 100)..<(section * 100 + 100)), toSection: section) }
        #expect(snapshot.numberOfItems == 100_000)
        #expect(snapshot.indexOfItem(54_321) == 54_321)
        #expect(snapshot.sectionIdentifier(containingItem: 54_321) == 543)
        snapshot.moveItem(0, afterItem: 99_999)
        #expect(snapshot.indexOfItem(1) == 0 && snapshot.indexOfItem(0) == 99_999)
        snapshot.deleteItems(Array(stride(from: 1, to: 100_000, by: 2)))
        #expect(snapshot.numberOfItems == 50_000)
        #expect(snapshot.indexOfItem(2) == 0 && snapshot.indexOfItem(0) == 49_999)
        #expect(snapshot.numberOfItems(inSection: 999) == 51)
    }

    @Test func identifiersUnequalToThemselvesNeverCrash() {
        var snapshot = DiffableDataSourceSnapshot<String, Double>()
        snapshot.appendSections(["S"])
        snapshot.appendItems([1, .nan, 2])
        snapshot.appendItems([.nan])  // a NaN is never "already there"
        #expect(snapshot.numberOfItems == 4)
        #expect(snapshot.indexOfItem(.nan) == nil)
        #expect(snapshot.indexOfItem(2) == 2)
        var other = snapshot
        other.deleteItems([1])
        let difference = other.difference(from: snapshot)
        let batch = difference.structuralBatch
        #expect(batch?.deleteItems.count == 3)  // 1 and both NaNs (unmatched)
        #expect(batch?.insertItems.count == 2)  // the NaNs again
    }

    @Test func descriptionIsReadable() {
        var snapshot = Snapshot()
        snapshot.appendSections(["A", "B"])
        snapshot.appendItems(["1", "2"], toSection: "A")
        #expect(snapshot.description == "Snapshot(2 sections, 2 items) [A: [1, 2], B: []]")
        #expect(snapshot.debugDescription == "Snapshot(2 sections, 2 items) [\"A\": [\"1\", \"2\"], \"B\": []]")
    }

    @Test func trapsNameTheIdentifiers() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var snapshot = DiffableDataSourceSnapshot<String, String>()
            snapshot.appendSections(["A"])
            snapshot.appendItems(["x", "y", "x"])
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("item identifiers are not unique: \"x\" at [0], [2]"))
        }
        await #expect(processExitsWith: .failure) {
            var snapshot = DiffableDataSourceSnapshot<String, String>()
            snapshot.appendItems(["x"])
        }
        await #expect(processExitsWith: .failure) {
            var snapshot = DiffableDataSourceSnapshot<String, String>()
            snapshot.appendSections(["A", "A"])
        }
        await #expect(processExitsWith: .failure) {
            var snapshot = DiffableDataSourceSnapshot<String, String>()
            snapshot.appendSections(["A"])
            snapshot.reloadItems(["ghost"])
        }
        await #expect(processExitsWith: .failure) {
            let snapshot = DiffableDataSourceSnapshot<String, String>()
            _ = snapshot.numberOfItems(inSection: "missing")
        }
    }
}
