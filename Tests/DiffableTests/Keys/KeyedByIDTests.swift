import DiffableTesting
import Foundation
import Testing

@testable import Diffable

// KeyedByID: model values keyed by their `id` alone (docs/HASHABLE.md, "Values keyed by their id").

/// A model value keyed by its `UUID` `id`.
struct KeyedModel: Hashable, KeyedByID, Sendable {
    var id: UUID
    var title: String
}

/// A model value keyed by its `Int` `id`, whose `id` is its own key.
struct KeyedCounter: Hashable, KeyedByID, Sendable {
    var id: Int
    var count: Int
}

/// A model value whose `id` is an app's struct, keyed by that struct's `hashValue`.
struct KeyedByRow: Hashable, KeyedByID, Sendable {
    struct Row: Hashable, Sendable {
        var feed: Int32
        var serial: Int
    }
    var id: Row
    var title: String
}

/// Adopts both protocols, with a key of its own that is not its `id`'s: it is keyed by its `id`,
/// and its `identifierKey` is never called.
struct KeyedTwice: Hashable, KeyedByID, IdentifierKeyConvertible, Sendable {
    var id: Int
    var title: String
    static let keyCalls = Locked(0)
    var identifierKey: UInt64 {
        KeyedTwice.keyCalls.withLock { $0 += 1 }
        return 42
    }
}

/// A tab that is its own `id`, as SwiftUI's enums often are: keyed by its `hashValue`.
enum TabID: String, Hashable, KeyedByID, Sendable {
    case home, search, settings
    var id: Self { self }
}

/// Two types whose `id`s lead to each other: neither is keyed by its `id`.
struct Ping: Hashable, KeyedByID, Sendable {
    var serial: Int
    var id: Pong { Pong(serial: serial) }
}

/// See ``Ping``.
struct Pong: Hashable, KeyedByID, Sendable {
    var serial: Int
    var id: Ping { Ping(serial: serial) }
}

/// A value whose `id` is itself keyed by its `id` (an `Int`): keyed by that `Int`.
struct KeyedByCounter: Hashable, KeyedByID, Sendable {
    var id: KeyedCounter
    var note: String
}

@Suite(.serialized) struct KeyedByIDTests {
    /// An `id` chain that comes back to a type it passed (a type that is its own `id`) would
    /// key forever: those types are keyed as if they did not conform, and snapshots, diffs and
    /// matching by `id` work as for any `Hashable` type. A chain that ends is followed.
    @Test func anIDThatLeadsBackIsNotFollowed() async throws {
        #expect(KeyStrategy.of(TabID.self) == .hashValue)
        #expect(KeyStrategy.of(Ping.self) == .hashValue && KeyStrategy.of(Pong.self) == .hashValue)
        #expect(KeyStrategy.of(KeyedByCounter.self) == .id)
        let chained = [
            KeyedByCounter(id: KeyedCounter(id: 9, count: 0), note: "a"), KeyedByCounter(id: KeyedCounter(id: -2, count: 1), note: "b"),
        ]
        #expect(KeyStrategy.id.keys(chained) == [9, UInt64(bitPattern: -2)] && KeyStrategy.id.key(chained[0]) == 9)

        var old = DiffableDataSourceSnapshot<Int, TabID>(), new = old
        old.appendSections([0])
        old.appendItems([.home, .search, .settings])
        new.appendSections([0])
        new.appendItems([.settings, .home])
        #expect(new.indexOfItem(.home) == 1 && new.indexOfItem(.search) == nil)
        var replayed = ListViewSimulator<Int, TabID>(flavor: .table)
        replayed.reloadData(old)
        try replayed.apply(new.difference(from: old))
        #expect(replayed.visibleSnapshot?.itemIdentifiers == new.itemIdentifiers)
        var pings = DiffableDataSourceSnapshot<Int, Ping>()
        pings.appendSections([0])
        pings.appendItems([Ping(serial: 1), Ping(serial: 2)])
        #expect(pings.indexOfItem(Ping(serial: 2)) == 1)

        let harness = DataSourceHarness<Int, TabID>(matchingByID: .reconfigure)
        await harness.dataSource.apply(old)
        await harness.dataSource.apply(new)
        #expect(harness.dataSource.snapshot().itemIdentifiers == [.settings, .home] && harness.problem() == nil)
    }

    static let uuids = (0..<6).map { UUID(uuid: (UInt8($0), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)) }

    /// Each value's key is its `id`'s, as the `id` is keyed on its own, one at a time and in a batch.
    @Test func aValueHasTheKeyOfItsID() {
        #expect(KeyStrategy.of(KeyedModel.self) == .id && KeyStrategy.of(KeyedCounter.self) == .id)
        #expect(KeyStrategy.id.isUserKeyed && !KeyStrategy.id.isInjective)
        let models = Self.uuids.map { KeyedModel(id: $0, title: "t\($0.uuid.0)") }
        #expect(KeyStrategy.id.keys(models) == Self.uuids.map(IdentifierKey.uuid))
        for model in models { #expect(KeyStrategy.id.key(model) == IdentifierKey.uuid(model.id)) }
        let counters = [KeyedCounter(id: 7, count: 1), KeyedCounter(id: -3, count: 1)]
        #expect(KeyStrategy.id.keys(counters) == [7, UInt64(bitPattern: -3)])
        let rows = [KeyedByRow(id: .init(feed: 1, serial: 2), title: "a"), KeyedByRow(id: .init(feed: 2, serial: 1), title: "b")]
        #expect(KeyStrategy.id.keys(rows) == rows.map { UInt64(bitPattern: Int64($0.id.hashValue)) })
        #expect(KeyStrategy.id.key(rows[1]) == UInt64(bitPattern: Int64(rows[1].id.hashValue)))
        // Through a snapshot: the stored keys are the ids' keys.
        var snapshot = DiffableDataSourceSnapshot<Int, KeyedModel>()
        snapshot.appendSections([0])
        snapshot.appendItems(models)
        #expect(snapshot.storage.items.storedKeys.sorted() == Self.uuids.map(IdentifierKey.uuid).sorted())
    }

    /// The library makes the key from the `id` itself: a type that also gives a key of its own
    /// is still keyed by its `id`.
    @Test func aKeyOfItsOwnIsNotCalled() {
        #expect(KeyStrategy.of(KeyedTwice.self) == .id)
        KeyedTwice.keyCalls.withLock { $0 = 0 }
        var snapshot = DiffableDataSourceSnapshot<Int, KeyedTwice>()
        snapshot.appendSections([0])
        snapshot.appendItems([KeyedTwice(id: 1, title: "a"), KeyedTwice(id: 2, title: "b")])
        snapshot.insertItems([KeyedTwice(id: 3, title: "c")], beforeItem: KeyedTwice(id: 1, title: "a"))
        #expect(snapshot.indexOfItem(KeyedTwice(id: 2, title: "b")) == 2)
        #expect(KeyedTwice.keyCalls.withLock { $0 } == 0)
        #expect(snapshot.storage.items.storedKeys.sorted() == [1, 2, 3])
    }

    /// An edited value keeps its `id`, so it shares its key with the value it replaces, and is
    /// still another identifier: a snapshot diff deletes one and inserts the other.
    @Test func anEditedValueIsAnotherIdentifierWithTheSameKey() throws {
        let values = Self.uuids.map { KeyedModel(id: $0, title: "t\($0.uuid.0)") }
        var edited = values
        edited[2].title = "edited"
        #expect(KeyStrategy.id.key(edited[2]) == KeyStrategy.id.key(values[2]) && edited[2] != values[2])
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

    /// Matching by `id` takes the snapshot's own flat form: its keys are the ones keying the
    /// `id`s would give, in display order, and (slots in display order) the snapshot's own
    /// array, not a copy.
    @Test func matchingByIDBorrowsTheSnapshotsKeys() {
        let matcher = IdentifiableItemMatcher<Int, KeyedModel>(updates: .reconfigure, values: IdentifiableValues())
        #expect(matcher.values.keysAreIDKeys)
        #expect(!IdentifiableValues<Reminder>().keysAreIDKeys && IdentifiableValues<KeyedTwice>().keysAreIDKeys)
        let values = Self.uuids.map { KeyedModel(id: $0, title: "t") }
        var snapshot = DiffableDataSourceSnapshot<Int, KeyedModel>()
        snapshot.appendSections([0, 1])
        snapshot.appendItems(Array(values[..<4]), toSection: 0)
        snapshot.appendItems(Array(values[4...]), toSection: 1)
        let flat = matcher.keyedByID(snapshot)
        #expect(
            flat.itemKeys == Self.uuids.map(IdentifierKey.uuid) && flat.starts == [0, 4, 6] && flat.itemSlotsRunInOrder
                && flat.itemSlots.isEmpty)
        let shared = flat.itemKeys.withUnsafeBufferPointer { keys in
            snapshot.storage.withItemKeys { $0.baseAddress == keys.baseAddress }
        }
        #expect(shared)
        // Out of slot order: the keys are gathered in display order, the slots recorded.
        snapshot.moveItem(values[0], afterItem: values[5])
        let moved = matcher.keyedByID(snapshot)
        #expect(moved.itemKeys == (Array(Self.uuids[1..<4]) + [Self.uuids[4], Self.uuids[5], Self.uuids[0]]).map(IdentifierKey.uuid))
        #expect(moved.itemSlots == [1, 2, 3, 4, 5, 0] && !moved.itemSlotsRunInOrder && moved.starts == [0, 3, 6])
    }

    /// A snapshot of values entered by appends alone has distinct keys, so a diff of it need
    /// not look for repeated `id`s; one that holds two values with one `id` (a shared key)
    /// says so, and so do its copies, until it is emptied.
    @Test func theFlatFormKnowsWhenNoTwoValuesShareAnID() {
        let matcher = IdentifiableItemMatcher<Int, KeyedModel>(updates: .reconfigure, values: IdentifiableValues())
        let values = Self.uuids.map { KeyedModel(id: $0, title: "t") }
        var snapshot = DiffableDataSourceSnapshot<Int, KeyedModel>()
        snapshot.appendSections([0, 1])
        snapshot.appendItems(Array(values[..<4]), toSection: 0)
        snapshot.appendItems(Array(values[4...]), toSection: 1)
        snapshot.moveItem(values[0], afterItem: values[5])
        snapshot.deleteItems([values[2]])
        #expect(matcher.keyedByID(snapshot).itemKeysDistinct)
        var repeated = snapshot
        repeated.appendItems([KeyedModel(id: Self.uuids[1], title: "edited")], toSection: 0)
        #expect(!matcher.keyedByID(repeated).itemKeysDistinct && matcher.keyedByID(snapshot).itemKeysDistinct)
        var copy = repeated
        copy.appendSections([2])
        #expect(!matcher.keyedByID(copy).itemKeysDistinct)
        copy.deleteAllItems()
        copy.appendSections([0])
        copy.appendItems(values, toSection: 0)
        #expect(matcher.keyedByID(copy).itemKeysDistinct)
    }

    /// Two values with one `id` share a key, which a data source matching by `id` reports
    /// (the snapshot of values holds both: they differ in their titles).
    @Test func repeatedIDsAreReportedWhenMatchingByID() async {
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            DiffableDiagnostics.handler = { FileHandle.standardError.write(Data("event: \($0)\n".utf8)) }
            let view = SimulatedListView<TestCell<String, KeyedCounter>>(policy: .record)
            let queue = DispatchQueue(label: "view")
            let dataSource = DiffableDataSource<String, KeyedCounter, TestCell<String, KeyedCounter>>(
                view: view, executor: .queue(queue), matchingItemsByID: .reconfigure
            ) { _, item in .row(item) }
            dataSource.apply(.build(["A"], [[KeyedCounter(id: 0, count: 0)]]), completion: nil)
            queue.sync {}  // shown: the next apply is diffed against it
            let repeated = [KeyedCounter(id: 0, count: 0), KeyedCounter(id: 1, count: 0), KeyedCounter(id: 1, count: 1)]
            dataSource.apply(.build(["A"], [repeated]), completion: nil)
            queue.sync {}
        }
        let text = output.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(
            text.contains(
                "event: duplicateIdentifiers in apply(_:animatingDifferences:completion:): values matched by id: "
                    + "item identifiers are not unique: 1 at [0, 1], [0, 2]"))
    }
}
