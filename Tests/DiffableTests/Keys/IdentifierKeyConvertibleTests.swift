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

/// An `Identifiable` type adopting the protocol without a key of its own, as before `KeyedByID`:
/// it still compiles (with a deprecation warning, silenced here by deprecating the test type) and
/// is keyed by its `id`'s key.
@available(*, deprecated, message: "exercises the deprecated default key")
struct LegacyKeyedModel: Hashable, Identifiable, IdentifierKeyConvertible, Sendable {
    var id: UUID
    var title: String
}

/// A type that is its own `id` relying on the deprecated default key: its `hashValue`, not a
/// loop through its own key.
@available(*, deprecated, message: "exercises the deprecated default key")
enum LegacyTab: Hashable, Identifiable, IdentifierKeyConvertible, Sendable {
    case home, search
    var id: Self { self }
}

@Suite(.serialized) struct IdentifierKeyConvertibleTests {
    @available(*, deprecated, message: "exercises the deprecated default key")
    @Test func theDeprecatedDefaultKeyIsTheKeyOfTheID() {
        let id = UUID(uuid: (9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
        let values = [LegacyKeyedModel(id: id, title: "a"), LegacyKeyedModel(id: UUID(), title: "b")]
        #expect(KeyStrategy.of(LegacyKeyedModel.self) == .provided)
        #expect(values[0].identifierKey == IdentifierKey.uuid(id))
        #expect(KeyStrategy.provided.keys(values) == values.map { IdentifierKey.uuid($0.id) })
        #expect(LegacyTab.search.identifierKey == UInt64(bitPattern: Int64(LegacyTab.search.hashValue)))
        var tabs = DiffableDataSourceSnapshot<Int, LegacyTab>()
        tabs.appendSections([0])
        tabs.appendItems([.home, .search])
        #expect(tabs.indexOfItem(.search) == 1)
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
