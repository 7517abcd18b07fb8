import Foundation
import Testing

@testable import Diffable

/// `appendItems(_:toSection:)` appends new items of any identifier type not hashed on the
/// snapshot's own copies (an app's own, and the library's `Int`, `String`, `UUID`, …) in code
/// inlined into the caller (`appendNewItems`); an append it cannot finish there (an item
/// present or repeated, a shared key, no such section) takes the general path. Both must leave
/// the same snapshot.
@Suite struct AppendNewItemsTests {
    /// An identifier type of the app's, so the inlined path is the one taken.
    struct Row: Hashable, CustomStringConvertible {
        var feed: Int32
        var serial: Int
        var description: String { "Row(\(feed), \(serial))" }
    }

    /// An app's type whose keys all collide: its appends always fall back.
    struct Clash: Hashable {
        var value: Int
        func hash(into hasher: inout Hasher) { hasher.combine(0) }
    }

    static func rows(_ serials: some Sequence<Int>) -> [Row] { serials.map { Row(feed: Int32($0 % 3), serial: $0) } }

    @Test func newItemsGoToTheNamedOrTheLastSection() {
        var snapshot = DiffableDataSourceSnapshot<Int, Row>()
        snapshot.appendSections([1, 2])
        snapshot.appendItems(Self.rows(0..<40), toSection: 1)
        snapshot.appendItems(Self.rows(40..<45))
        snapshot.appendItems(Self.rows(45..<300), toSection: 1)
        #expect(snapshot.itemIdentifiers(inSection: 1) == Self.rows(Array(0..<40) + Array(45..<300)))
        #expect(snapshot.itemIdentifiers(inSection: 2) == Self.rows(40..<45))
        #expect(snapshot.numberOfItems == 300)
        #expect(snapshot.indexOfItem(Row(feed: 2, serial: 44)) == 299)
        #expect(snapshot.indexOfItem(Row(feed: 0, serial: 45)) == 40)
        #expect(snapshot.sectionIdentifier(containingItem: Row(feed: 1, serial: 40)) == 2)
        #expect(snapshot.indexOfItem(Row(feed: 1, serial: 45)) == nil)  // not an identifier appended
    }

    @Test func anExistingItemMovesAndIsReportedAsBefore() {
        let (snapshot, events) = DiagnosticsListeners.collect {
            var snapshot = DiffableDataSourceSnapshot<String, Row>()
            snapshot.appendSections(["A", "B"])
            snapshot.appendItems(Self.rows([7001, 7002, 7003]), toSection: "A")
            snapshot.appendItems(Self.rows([7004, 7002]), toSection: "B")
            return snapshot
        }
        #expect(snapshot.itemIdentifiers(inSection: "A") == Self.rows([7001, 7003]))
        #expect(snapshot.itemIdentifiers(inSection: "B") == Self.rows([7004, 7002]))
        #expect(events.filter { $0.identifiers == [String(reflecting: Self.rows([7002])[0])] }.count == 1)
    }

    @Test func aCopyKeepsItsItems() {
        var snapshot = DiffableDataSourceSnapshot<Int, Row>()
        snapshot.appendSections([0])
        snapshot.appendItems(Self.rows(0..<10))
        let copy = snapshot
        snapshot.appendItems(Self.rows(10..<20))
        #expect(copy.itemIdentifiers == Self.rows(0..<10))
        #expect(snapshot.itemIdentifiers == Self.rows(0..<20))
        #expect(copy.indexOfItem(Row(feed: 1, serial: 10)) == nil)
    }

    @Test func collidingKeysAndEmptyAppendsTakeTheGeneralPath() {
        var snapshot = DiffableDataSourceSnapshot<Int, Clash>()
        snapshot.appendSections([0, 1])
        snapshot.appendItems((0..<50).map(Clash.init), toSection: 0)
        snapshot.appendItems([])
        snapshot.appendItems((50..<60).map(Clash.init))
        snapshot.appendItems([Clash(value: 3)], toSection: 1)  // present: moved
        #expect(snapshot.itemIdentifiers(inSection: 0) == (0..<50).filter { $0 != 3 }.map(Clash.init))
        #expect(snapshot.itemIdentifiers(inSection: 1) == (50..<60).map(Clash.init) + [Clash(value: 3)])
        #expect(snapshot.indexOfItem(Clash(value: 3)) == 59)
    }

    /// The library's own identifier types take the inlined path too: new items, an item already
    /// present (moved and reported), a repeat within the call (trapping, checked through the
    /// throwing entry point, which leaves the snapshot as it was) and a first append that
    /// shares the caller's array, each as the general path leaves them.
    @Test func builtInTypesAgreeWithTheGeneralPath() throws {
        func check<Item: Hashable & Sendable>(_ make: (Int) -> Item) throws {
            var inlined = DiffableDataSourceSnapshot<Int, Item>(), general = inlined
            inlined.appendSections([0, 1])
            general.appendSections([0, 1])
            let first = (0..<120).map(make), second = (120..<200).map(make)
            inlined.appendItems(first, toSection: 0)
            inlined.appendItems(second)
            for item in first { try general.tryAppendItems([item], toSection: 0) }
            for item in second { try general.tryAppendItems([item]) }
            #expect(inlined.itemIdentifiers == general.itemIdentifiers)
            // Present: moved to section 0's end, as the general path moves it.
            inlined.appendItems([make(150), make(200)], toSection: 0)
            try general.tryAppendItems([make(150), make(200)], toSection: 0)
            #expect(inlined.itemIdentifiers(inSection: 0) == general.itemIdentifiers(inSection: 0))
            #expect(inlined.itemIdentifiers(inSection: 1) == general.itemIdentifiers(inSection: 1))
            #expect(inlined.indexOfItem(make(200)) == 121)  // after the 120 and the moved 150
            // A repeat within one call is refused and changes nothing.
            let before = inlined
            #expect(throws: SnapshotError.self) { try inlined.tryAppendItems([make(300), make(300)], toSection: 1) }
            #expect(inlined.itemIdentifiers == before.itemIdentifiers)
            var changed = inlined
            changed.deleteItems((0..<200).filter { $0 % 9 == 0 }.map(make))
            #expect(changed.difference(from: inlined).batches == changed.difference(from: general).batches)
            // The caller's array is not changed by a later append to the snapshot that shares it.
            var shared = DiffableDataSourceSnapshot<Int, Item>()
            shared.appendSections([0])
            var array = (0..<10).map(make)
            array.reserveCapacity(10)
            shared.appendItems(array)
            shared.appendItems([make(10)])
            #expect(array == (0..<10).map(make))
            #expect(shared.itemIdentifiers == (0...10).map(make))
        }
        try check { $0 }
        try check { "item-\($0)" }
        try check { UUID(uuid: (UInt8($0 & 255), UInt8($0 >> 8), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)) }
    }

    /// The result of the inlined path diffs like the general path's: a snapshot built one
    /// item at a time through `tryAppendItems` (never inlined) against one built in bulk.
    @Test func bulkAndGeneralAppendsAgree() throws {
        var bulk = DiffableDataSourceSnapshot<Int, Row>(), general = bulk
        bulk.appendSections([0, 1, 2])
        general.appendSections([0, 1, 2])
        for section in 0..<3 {
            let rows = Self.rows((section * 100)..<(section * 100 + 100))
            bulk.appendItems(rows, toSection: section)
            for row in rows { try general.tryAppendItems([row], toSection: section) }
        }
        #expect(bulk.itemIdentifiers == general.itemIdentifiers)
        var changed = bulk
        changed.deleteItems(Self.rows(stride(from: 0, to: 300, by: 7)))
        #expect(changed.difference(from: bulk).batches == changed.difference(from: general).batches)
    }
}
