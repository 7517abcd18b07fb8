import Foundation
import Testing

@testable import Diffable

/// A snapshot keeps an appended array's storage instead of copying its identifiers: identifiers
/// of plain bytes on a first append of one whole array of new ones (the column takes the
/// array's buffer, `IdentifierColumn.appendIdentifiers(_:sharing:)`), identifiers holding
/// references on every append of a whole array (their bits copied, the array kept as their
/// owner, `IdentifierArray`). What must hold: the sharing happens where it is meant to (so a
/// change that loses it fails here), and the array and the snapshot still change apart, as two
/// values do.
@Suite struct SharedIdentifierArrayTests {
    /// An app's identifier type with a key of its own: appended in code inlined into the caller.
    struct KeyedRow: IdentifierKeyConvertible, CustomStringConvertible {
        var name: String
        var serial: Int
        var identifierKey: UInt64 { UInt64(bitPattern: Int64(serial)) }
        var description: String { "KeyedRow(\(name), \(serial))" }
    }

    /// An app's type keyed by its `hashValue`, holding a reference: hashed on the snapshot's
    /// own bits, the caller's array kept as their owner.
    struct HashedRow: Hashable {
        var name: String
        var serial: Int
    }

    static func names(_ range: Range<Int>) -> [String] { range.map { "identifier-longer-than-fifteen-\($0)" } }
    static func keyedRows(_ range: Range<Int>) -> [KeyedRow] { range.map { KeyedRow(name: "row \($0) of the list", serial: $0) } }

    /// Whether the snapshot's identifier column uses `array`'s storage: as its own (plain
    /// bytes) or as an owner of its bits (identifiers holding references).
    static func shares<S: Hashable, I: Hashable>(_ snapshot: DiffableDataSourceSnapshot<S, I>, _ array: [I]) -> Bool {
        let base = array.withUnsafeBufferPointer { $0.baseAddress }
        let ids = snapshot.storage.items.ids
        if IdentifierArray<I>.storesBits { return ids.isOwned(by: array) }
        let column = ids.withUnsafeBufferPointer { $0.baseAddress }
        return column != nil && column == base
    }

    @Test func aFirstAppendOfNewIdentifiersSharesTheArray() {
        let names = Self.names(0..<100)
        var strings = DiffableDataSourceSnapshot<Int, String>()
        strings.appendSections([0])
        strings.appendItems(names)
        let stringsShared = Self.shares(strings, names)
        #expect(stringsShared)

        let rows = Self.keyedRows(0..<100)
        var keyed = DiffableDataSourceSnapshot<Int, KeyedRow>()
        keyed.appendSections([0, 1])
        keyed.appendItems(rows, toSection: 1)
        let keyedShared = Self.shares(keyed, rows)
        #expect(keyedShared)
        #expect(keyed.itemIdentifiers(inSection: 1) == rows)
        #expect(keyed.indexOfItem(rows[57]) == 57)
    }

    /// Appends `array` to a fresh one-section snapshot and checks that the snapshot copied it
    /// and holds its identifiers.
    static func expectCopied<I: Hashable>(_ array: [I]) {
        var snapshot = DiffableDataSourceSnapshot<Int, I>()
        snapshot.appendSections([0])
        snapshot.appendItems(array)
        let shared = shares(snapshot, array)
        #expect(!shared)
        #expect(snapshot.itemIdentifiers == array)
    }

    @Test func identifiersHoldingReferencesHashedByTheSnapshotKeepTheArray() {
        let rows = (0..<100).map { HashedRow(name: "row \($0) of the list", serial: $0) }
        var snapshot = DiffableDataSourceSnapshot<Int, HashedRow>()
        snapshot.appendSections([0])
        snapshot.appendItems(rows)
        let shared = Self.shares(snapshot, rows)
        #expect(shared)
        #expect(snapshot.itemIdentifiers == rows)
        #expect(snapshot.indexOfItem(rows[31]) == 31)
    }

    @Test func anArrayWithMuchSpareRoomIsCopied() {
        var roomy: [String] = []
        roomy.reserveCapacity(1_000)
        roomy.append(contentsOf: Self.names(0..<100))
        Self.expectCopied(roomy)
    }

    @Test func onlyAColumnOfPlainBytesThatNeverHeldStorageShares() {
        let first = Array(1_000..<1_010), second = Array(1_010..<1_020)
        var snapshot = DiffableDataSourceSnapshot<Int, Int>()
        snapshot.appendSections([0, 1])
        snapshot.appendItems(first, toSection: 0)
        snapshot.appendItems(second, toSection: 1)
        let shared = Self.shares(snapshot, first) || Self.shares(snapshot, second)
        #expect(!shared)
        #expect(snapshot.itemIdentifiers == first + second)
        #expect(snapshot.indexOfItem(second[3]) == 13)
        #expect(snapshot.sectionIdentifier(containingItem: first[9]) == 0)
    }

    @Test func everyWholeArrayOfIdentifiersHoldingReferencesIsKept() {
        let first = Self.names(0..<10), second = Self.names(10..<20)
        var snapshot = DiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0, 1])
        snapshot.appendItems(first, toSection: 0)
        snapshot.appendItems(second, toSection: 1)
        let shared = Self.shares(snapshot, first) && Self.shares(snapshot, second)
        #expect(shared)
        #expect(snapshot.itemIdentifiers == first + second)
        #expect(snapshot.indexOfItem(second[3]) == 13)
        #expect(snapshot.sectionIdentifier(containingItem: first[9]) == 0)
    }

    @Test func theArrayAndTheSnapshotChangeApart() {
        let original = Self.names(0..<50)
        var names = original
        var snapshot = DiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0, 1])
        snapshot.appendItems(names, toSection: 0)
        let shared = Self.shares(snapshot, names)
        #expect(shared)

        // The app changes its array: the snapshot keeps what it was given.
        names[0] = "changed after the append"
        names.append("appended after the append")
        names.swapAt(1, 2)
        #expect(snapshot.itemIdentifiers == original)
        #expect(snapshot.indexOfItem(original[0]) == 0)
        #expect(snapshot.indexOfItem("changed after the append") == nil)

        // The snapshot changes: an array the app still holds keeps its elements.
        let held = Self.names(100..<140)
        var second = DiffableDataSourceSnapshot<Int, String>()
        second.appendSections([0, 1])
        second.appendItems(held, toSection: 0)
        second.deleteItems([held[5], held[0]])
        second.moveItem(held[1], afterItem: held[39])
        second.appendItems(["new in section 1"], toSection: 1)
        second.reconfigureItems([held[2]])
        #expect(held == Self.names(100..<140))
        let expected = Array(held[2..<5]) + Array(held[6..<40]) + [held[1]]
        #expect(second.itemIdentifiers(inSection: 0) == expected)
        #expect(second.itemIdentifiers(inSection: 1) == ["new in section 1"])
        #expect(second.indexOfItem(held[1]) == 37)
    }

    @Test func aRefusedAppendLeavesBothAsTheyWere() {
        let repeated = Self.names(0..<5) + [Self.names(0..<5)[2]]
        var snapshot = DiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0])
        #expect(throws: SnapshotError.self) { try snapshot.tryAppendItems(repeated) }
        #expect(snapshot.numberOfItems == 0)
        #expect(repeated.count == 6 && repeated[5] == repeated[2])
        let names = Self.names(0..<5)
        snapshot.appendItems(names)
        #expect(snapshot.itemIdentifiers == names)
        #expect(snapshot.indexOfItem(names[4]) == 4)
    }

    @Test func aDiffOfSharedSnapshotsIsTheDiffOfCopies() {
        let old = Self.keyedRows(0..<100)
        let new = Array(old[10..<60]) + Self.keyedRows(200..<220) + Array(old[60..<100].reversed())
        func build(_ rows: [KeyedRow], copied: Bool) -> DiffableDataSourceSnapshot<Int, KeyedRow> {
            var snapshot = DiffableDataSourceSnapshot<Int, KeyedRow>()
            snapshot.appendSections([0])
            if copied {
                for row in rows { snapshot.appendItems([row]) }
            } else {
                snapshot.appendItems(rows)
            }
            return snapshot
        }
        let shared = build(new, copied: false).difference(from: build(old, copied: false))
        let copied = build(new, copied: true).difference(from: build(old, copied: true))
        #expect(shared.batches == copied.batches)
        #expect(shared.movedItemCount == copied.movedItemCount)
    }
}
