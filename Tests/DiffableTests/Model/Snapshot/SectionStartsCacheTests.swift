import Testing

@testable import Diffable

/// `indexOfItem` reads each section's first flat index from an array that lookups build once
/// they outnumber changes (``SectionStartsCache``): every change of the sections must drop it,
/// so that a lookup after the change never reads a stale start.
@Suite struct SectionStartsCacheTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, Int>

    /// 20 sections of 10 items, then enough lookups to build the cached starts.
    static func warmed() -> Snapshot {
        var snapshot = Snapshot()
        let sections = (0..<20).map { "S\($0)" }
        snapshot.appendSections(sections)
        for (index, section) in sections.enumerated() { snapshot.appendItems(Array(index * 10..<index * 10 + 10), toSection: section) }
        warm(snapshot)
        return snapshot
    }

    /// Asks every item's flat index, which builds the starts when none are cached.
    static func warm(_ snapshot: Snapshot) {
        for item in snapshot.itemIdentifiers { _ = snapshot.indexOfItem(item) }
    }

    /// Every item's `indexOfItem` equals its place in ``DiffableDataSourceSnapshot/itemIdentifiers``,
    /// and an item not present has none.
    static func expectExactPositions(_ snapshot: Snapshot, after change: String) {
        for (position, item) in snapshot.itemIdentifiers.enumerated() {
            #expect(snapshot.indexOfItem(item) == position, "\(change): item \(item)")
        }
        #expect(snapshot.indexOfItem(-1) == nil, "\(change)")
    }

    @Test func lookupsBuildTheStartsAndAChangeDropsThem() {
        var snapshot = Self.warmed()
        #expect(snapshot.storage.sectionStarts.starts != nil)
        snapshot.appendItems([1_000], toSection: "S3")
        #expect(snapshot.storage.sectionStarts.starts == nil)
        Self.expectExactPositions(snapshot, after: "append to S3")
    }

    @Test(arguments: [
        "append to a middle section", "insert before an item", "delete items", "move an item across sections",
        "move a section", "insert a section", "delete a section", "delete every item", "reload items",
    ])
    func everyChangeLeavesExactPositions(change: String) {
        var snapshot = Self.warmed()
        let copy = snapshot  // shares the storage whose starts are cached: the change copies it
        switch change {
        case "append to a middle section": snapshot.appendItems([1_000, 1_001], toSection: "S7")
        case "insert before an item": snapshot.insertItems([1_000], beforeItem: 55)
        case "delete items": snapshot.deleteItems([3, 104, 199])
        case "move an item across sections": snapshot.moveItem(0, afterItem: 150)
        case "move a section": snapshot.moveSection("S0", afterSection: "S12")
        case "insert a section":
            snapshot.insertSections(["new"], beforeSection: "S4")
            snapshot.appendItems([1_000, 1_001, 1_002], toSection: "new")
        case "delete a section": snapshot.deleteSections(["S2"])
        case "delete every item": snapshot.deleteAllItems()
        default: snapshot.reloadItems([5, 6])
        }
        Self.expectExactPositions(snapshot, after: change)
        Self.warm(snapshot)
        Self.expectExactPositions(snapshot, after: change + ", warmed again")
        Self.expectExactPositions(copy, after: change + ", the copy")
    }

    @Test func aUniquelyOwnedSnapshotChangedInPlaceAfterItsStartsWereBuilt() {
        var snapshot = Self.warmed()  // its storage is not shared: changes write it in place
        for round in 0..<30 {
            snapshot.moveItem(round, afterItem: 199 - round)
            Self.warm(snapshot)
            Self.expectExactPositions(snapshot, after: "move \(round)")
        }
    }
}
