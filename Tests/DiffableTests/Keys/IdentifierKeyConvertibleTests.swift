import DiffableTesting
import Foundation
import Testing

@testable import Diffable

// IdentifierKeyConvertible: identifier types keyed by their own `identifierKey` instead of their
// `hashValue` (docs/HASHABLE.md, "Keys an identifier type gives itself").

/// A row identifier whose key is its serial only: rows of one serial in different feeds share a
/// key (a collision the diff resolves with `==`). Counts its key calls.
struct KeyedRow: IdentifierKeyConvertible, Sendable, CustomStringConvertible {
    var feed: Int32
    var serial: Int
    static let keyCalls = Locked(0)
    var identifierKey: UInt64 {
        KeyedRow.keyCalls.withLock { $0 += 1 }
        return UInt64(bitPattern: Int64(serial))
    }
    var description: String { "r\(feed).\(serial)" }
}

/// The same values and `==` keyed by their `hashValue`: the reference for every result.
struct HashedRow: Hashable, Sendable {
    var feed: Int32
    var serial: Int
}

/// Breaks the contract: equal values (`==` ignores `tag`) with different keys.
struct TaggedKey: IdentifierKeyConvertible, Sendable {
    var value: Int
    var tag: Int
    static func == (left: TaggedKey, right: TaggedKey) -> Bool { left.value == right.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
    var identifierKey: UInt64 { UInt64(value * 10 + tag) }
}

/// A reference identifier keyed by a mutable field: mutating it after insertion changes its key.
final class KeyedBox: IdentifierKeyConvertible, @unchecked Sendable, CustomStringConvertible {
    var value: Int
    init(_ value: Int) { self.value = value }
    static func == (left: KeyedBox, right: KeyedBox) -> Bool { left.value == right.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
    var identifierKey: UInt64 { UInt64(value) }
    var description: String { "KeyedBox(\(value))" }
}

/// A model value keyed by its `id` (the protocol's key for `Identifiable` values).
struct KeyedModel: Hashable, Identifiable, IdentifierKeyConvertible, Sendable {
    var id: UUID
    var title: String
}

@Suite(.serialized) struct IdentifierKeyConvertibleTests {
    /// `Identifiable` values get the key of their `id`, as Diffable keys that `id` alone, so
    /// an edited value shares its key with the value it replaces and is still a different
    /// identifier (deleted and inserted, as when keyed by `hashValue`).
    @Test func identifiableValuesAreKeyedByTheirID() throws {
        let ids = (0..<6).map { UUID(uuid: (UInt8($0), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)) }
        let values = ids.map { KeyedModel(id: $0, title: "t\($0.uuid.0)") }
        #expect(KeyStrategy.of(KeyedModel.self) == .provided)
        for value in values { #expect(value.identifierKey == KeyStrategy.uuid.key(value.id)) }
        var edited = values
        edited[2].title = "edited"
        #expect(edited[2].identifierKey == values[2].identifierKey && edited[2] != values[2])
        var old = DiffableDataSourceSnapshot<Int, KeyedModel>(), new = old
        old.appendSections([0])
        old.appendItems(values)
        new.appendSections([0])
        new.appendItems([edited[5], edited[0], edited[1], edited[2], edited[3], edited[4]])
        #expect(new.indexOfItem(edited[2]) == 3 && new.indexOfItem(values[2]) == nil && old.indexOfItem(values[2]) == 2)
        let difference = new.difference(from: old)
        let deleted = difference.batches.flatMap(\.deleteItems), inserted = difference.batches.flatMap(\.insertItems)
        #expect(deleted == [IndexPath(item: 2, section: 0)] && inserted == [IndexPath(item: 3, section: 0)])
        #expect(difference.batches.flatMap(\.moveItems).count == 1)
        var replayed = ListViewSimulator<Int, KeyedModel>(flavor: .table)
        replayed.reloadData(old)
        try replayed.apply(difference)
        #expect(replayed.visibleSnapshot?.itemIdentifiers == new.itemIdentifiers)
    }

    @Test func aConformingTypeIsKeyedByItsOwnKey() {
        #expect(KeyStrategy.of(KeyedRow.self) == .provided)
        #expect(KeyStrategy.of(HashedRow.self) == .hashValue)
        #expect(KeyStrategy.of(KeyedBox.self) == .provided)
        #expect(KeyStrategy.provided.isUserKeyed && !KeyStrategy.provided.isInjective)
        let rows = [KeyedRow(feed: 1, serial: 7), KeyedRow(feed: 2, serial: -3)]
        #expect(KeyStrategy.provided.key(rows[1]) == UInt64(bitPattern: -3))
        #expect(KeyStrategy.provided.keys(rows) == [7, UInt64(bitPattern: -3)])
        // Each appended identifier is keyed once (debug builds' contract check hashes, never keys, again).
        KeyedRow.keyCalls.withLock { $0 = 0 }
        var snapshot = DiffableDataSourceSnapshot<Int, KeyedRow>()
        snapshot.appendSections([0])
        snapshot.appendItems(rows)
        #expect(KeyedRow.keyCalls.withLock { $0 } == 2)
        #expect(snapshot.storage.items.storedKeys.sorted() == [7, UInt64(bitPattern: -3)])
    }

    /// Random edits of rows whose keys collide (every serial in three feeds): every snapshot,
    /// lookup and difference equals that of the same rows keyed by `hashValue`.
    @Test(arguments: [1, 2, 3]) func resultsEqualTheHashValueKeyedTwin(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        func model() -> [[(feed: Int32, serial: Int)]] {
            let pool = (0..<60).map { (feed: Int32($0 % 3), serial: $0 / 3) }.shuffled(using: &generator)
            let kept = pool.prefix(Int.random(in: 20...60, using: &generator))
            return stride(from: 0, to: kept.count, by: 10).map { Array(kept[$0..<min($0 + 10, kept.count)]) }
        }
        func snapshots(_ model: [[(feed: Int32, serial: Int)]]) -> (
            DiffableDataSourceSnapshot<Int, KeyedRow>, DiffableDataSourceSnapshot<Int, HashedRow>
        ) {
            var keyed = DiffableDataSourceSnapshot<Int, KeyedRow>(), hashed = DiffableDataSourceSnapshot<Int, HashedRow>()
            keyed.appendSections(Array(model.indices))
            hashed.appendSections(Array(model.indices))
            for (section, rows) in model.enumerated() {
                keyed.appendItems(rows.map { KeyedRow(feed: $0.feed, serial: $0.serial) }, toSection: section)
                hashed.appendItems(rows.map { HashedRow(feed: $0.feed, serial: $0.serial) }, toSection: section)
            }
            return (keyed, hashed)
        }
        var (keyedOld, hashedOld) = snapshots(model())
        for _ in 0..<20 {
            let (keyedNew, hashedNew) = snapshots(model())
            let keyed = keyedNew.difference(from: keyedOld), hashed = hashedNew.difference(from: hashedOld)
            #expect(keyed.batches == hashed.batches)
            #expect(keyedNew.itemIdentifiers.map(\.description) == hashedNew.itemIdentifiers.map { "r\($0.feed).\($0.serial)" })
            for row in keyedOld.itemIdentifiers {
                #expect(keyedNew.indexOfItem(row) == hashedNew.indexOfItem(HashedRow(feed: row.feed, serial: row.serial)))
            }
            (keyedOld, hashedOld) = (keyedNew, hashedNew)
        }
    }

    @Test func equalValuesWithDifferentKeysTrapInDebugBuilds() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var snapshot = DiffableDataSourceSnapshot<Int, TaggedKey>()
            snapshot.appendSections([0])
            snapshot.appendItems([TaggedKey(value: 1, tag: 0), TaggedKey(value: 2, tag: 0), TaggedKey(value: 1, tag: 5)])
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("TaggedKey breaks IdentifierKeyConvertible's contract"))
        #expect(text.contains("has the key 15, and an equal value among the same identifiers has the key 10"))
    }

    @Test func aReferenceWhoseKeyChangedIsReportedOnApply() async {
        let harness = DataSourceHarness<Int, KeyedBox>()
        let (a, b) = (KeyedBox(1), KeyedBox(2))
        var snapshot = DiffableDataSourceSnapshot<Int, KeyedBox>()
        snapshot.appendSections([0])
        snapshot.appendItems([a, b])
        await harness.dataSource.apply(snapshot)
        b.value = 5_020
        let ((), events) = await DiagnosticsListeners.collectAwaiting { await harness.dataSource.apply(snapshot) }
        let mine = events.filter { $0.identifiers == ["KeyedBox(5020)"] }
        #expect(mine.map(\.kind) == [.inconsistentHashing])
        #expect(mine.first?.message.contains("item KeyedBox(5020) at [0, 1]") == true)
        #expect(snapshot.indexOfItem(b) == nil, "looked up by its new key, the stored one is not found")
    }
}
