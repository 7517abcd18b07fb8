import Foundation
import Testing

@testable import Diffable

/// 64-bit integer items are their own keys: their snapshots keep no key array beside the
/// identifiers and read the keys from the identifiers' memory. One random program of
/// operations runs on such snapshots (negative and high-bit values included) and on snapshots
/// whose keys are stored (strings, and a wrapper keyed by its `hashValue`); every step must
/// show the same items, positions, pending reloads and difference from the step before.
@Suite struct OwnKeySnapshotTests {
    /// An item keyed by its `hashValue`, so its keys are stored beside it.
    struct Wrapped: Hashable {
        var label: Int
    }

    typealias Code = OwnKeyProgram.Code

    /// What one step leaves, in labels (the numbers the items were made from).
    struct Observation: Equatable {
        var sections: [Int]
        var items: [[Int]]
        var positions: [Int?]
        var reloaded: [Int]
        var batches: [BatchUpdate]
    }

    /// Runs `codes` on an empty snapshot of items `id(label)`; checks the stored keys after
    /// every step and that the copy taken before it did not change.
    static func trace<I: Hashable>(_ codes: [Code], ownKeys: Bool, _ id: (Int) -> I, _ label: (I) -> Int) -> [Observation] {
        var snapshot = DiffableDataSourceSnapshot<Int, I>()
        var nextItem = 0, nextSection = 0
        var observations: [Observation] = []
        for code in codes {
            let before = snapshot, itemsBefore = snapshot.itemIdentifiers
            let sections = snapshot.sectionIdentifiers, items = itemsBefore
            let (a, b, c) = (code.a, code.b, code.c)
            func fresh(_ count: Int) -> [I] {
                defer { nextItem += count }
                return (nextItem..<(nextItem + count)).map(id)
            }
            func freshSections(_ count: Int) -> [Int] {
                defer { nextSection += count }
                return Array(nextSection..<(nextSection + count))
            }
            switch code.operation {
            case 0: snapshot.appendSections(freshSections(1 + a % 2))
            case 1 where !sections.isEmpty:
                let anchor = sections[a % sections.count]
                if c % 2 == 0 {
                    snapshot.insertSections(freshSections(1), beforeSection: anchor)
                } else {
                    snapshot.insertSections(freshSections(1), afterSection: anchor)
                }
            case 2 where !sections.isEmpty && b % 3 == 0: snapshot.deleteSections([sections[a % sections.count]])
            case 3 where sections.count >= 2 && a % sections.count != b % sections.count:
                snapshot.moveSection(sections[a % sections.count], afterSection: sections[b % sections.count])
            case 4...5 where !sections.isEmpty:
                let existing = b % 3 == 2 && !items.isEmpty ? [items[b % items.count]] : []
                snapshot.appendItems(fresh(a % 30) + existing, toSection: c % 2 == 0 ? nil : sections[c % sections.count])
            case 6 where !items.isEmpty:
                let anchor = items[a % items.count]
                if c % 2 == 0 {
                    snapshot.insertItems(fresh(1 + b % 3), beforeItem: anchor)
                } else {
                    snapshot.insertItems(fresh(1 + b % 3), afterItem: anchor)
                }
            case 7 where !items.isEmpty: snapshot.deleteItems([items[a % items.count], items[b % items.count], id(-5)])
            case 8 where !items.isEmpty:  // many deletions at once: holes refilled from the top
                snapshot.deleteItems(items.filter { (label($0) + a) % 3 == 0 })
            case 9 where items.count >= 2 && a % items.count != b % items.count:
                if c % 2 == 0 {
                    snapshot.moveItem(items[a % items.count], beforeItem: items[b % items.count])
                } else {
                    snapshot.moveItem(items[a % items.count], afterItem: items[b % items.count])
                }
            case 10 where !items.isEmpty:
                if c % 2 == 0 {
                    snapshot.reloadItems([items[a % items.count]])
                } else {
                    snapshot.reconfigureItems([items[a % items.count]])
                }
            case 11 where !sections.isEmpty:  // a new identifier given twice: rejected, the added slots discarded
                let new = fresh(1 + a % 3)
                #expect(throws: SnapshotError.self) { try snapshot.tryAppendItems(new + [new[0]], toSection: sections[b % sections.count]) }
            case 12 where a % 4 == 0: snapshot.deleteAllItems()
            default: continue
            }
            #expect(before.itemIdentifiers == itemsBefore, "a copy changed")
            checkKeys(snapshot.storage, ownKeys: ownKeys)
            observations.append(
                Observation(
                    sections: snapshot.sectionIdentifiers,
                    items: snapshot.sectionIdentifiers.map { snapshot.itemIdentifiers(inSection: $0).map(label) },
                    positions: (0..<nextItem).filter { $0 % 7 == 0 }.map { snapshot.indexOfItem(id($0)) },
                    reloaded: (snapshot.reloadedItemIdentifiers + snapshot.reconfiguredItemIdentifiers).map(label),
                    batches: snapshot.difference(from: before).batches))
        }
        return observations
    }

    /// The keys read by slot are each identifier's key; only stored keys have a buffer.
    static func checkKeys<S, I>(_ storage: SnapshotStorage<S, I>, ownKeys: Bool) {
        #expect(storage.items.isOwnKey == ownKeys)
        let keys = storage.withItemKeys { Array($0) }
        #expect(keys == storage.items.strategy.keys(Array(storage.items.ids)))
        #expect(storage.itemKeyArray == keys)
        #expect((0..<Int32(storage.itemCount)).allSatisfy { storage.items.key(at: Int($0)) == keys[Int($0)] })
        if ownKeys {
            #expect(storage.items.storedKeys.capacity == 0)
        } else {
            #expect(storage.items.storedKeys.capacity >= storage.itemCount)
        }
    }

    @Test func integerItemsAgreeWithStoredKeys() {
        var g = SeededGenerator(seed: 14_14)
        for round in 0..<60 {
            let codes = OwnKeyProgram.codes(&g, operations: 13, count: 40)
            let reference = Self.trace(codes, ownKeys: false, Wrapped.init, \.label)
            let strings = Self.trace(codes, ownKeys: false, { "i\($0)" }, { Int($0.dropFirst())! })
            // The 64-bit integer bijections of OwnKeyProgram; spread UInts.
            let ints = Self.trace(codes, ownKeys: true, OwnKeyProgram.int, OwnKeyProgram.label(ofInt:))
            let int64s = Self.trace(codes, ownKeys: true, OwnKeyProgram.int64, OwnKeyProgram.label(ofInt64:))
            let uint64s = Self.trace(codes, ownKeys: true, OwnKeyProgram.uint64, OwnKeyProgram.label(ofUInt64:))
            let uints = Self.trace(
                codes, ownKeys: true, { UInt(UInt64(bitPattern: Int64($0)) &* OwnKeyProgram.spread) },
                { Int(bitPattern: UInt(UInt64($0) &* OwnKeyProgram.unspread)) })
            #expect(strings == reference, "round \(round)")
            #expect(ints == reference, "round \(round)")
            #expect(int64s == reference, "round \(round)")
            #expect(uint64s == reference, "round \(round)")
            #expect(uints == reference, "round \(round)")
        }
    }

    /// Narrower integers keep their keys stored (their key is not their whole bit pattern).
    @Test func onlyEightByteIntegersAreTheirOwnKeys() {
        #expect(SnapshotStorage<Int, Int>().items.isOwnKey)
        #expect(SnapshotStorage<Int, Int64>().items.isOwnKey)
        #expect(SnapshotStorage<Int, UInt64>().items.isOwnKey)
        #expect(SnapshotStorage<Int, UInt>().items.isOwnKey)
        #expect(!SnapshotStorage<Int, Int32>().items.isOwnKey)
        #expect(!SnapshotStorage<Int, UInt8>().items.isOwnKey)
        #expect(!SnapshotStorage<Int, String>().items.isOwnKey)
        #expect(!SnapshotStorage<Int, Double>().items.isOwnKey)
    }

    /// The extremes of each 64-bit type, found, moved, deleted (a refill moves them to other
    /// slots) and diffed, with the keys read from the identifiers' own buffer.
    @Test func extremeValuesAreFoundMovedAndDeleted() {
        func check<I: Hashable & FixedWidthInteger>(_ values: [I]) {
            var snapshot = DiffableDataSourceSnapshot<Int, I>()
            snapshot.appendSections([0, 1])
            snapshot.appendItems(values, toSection: 0)
            snapshot.appendItems([5, 6], toSection: 1)
            let before = snapshot
            for (index, value) in values.enumerated() { #expect(snapshot.indexOfItem(value) == index, "\(value)") }
            snapshot.moveItem(values[0], afterItem: 6)
            snapshot.deleteItems([values[1]])
            #expect(snapshot.itemIdentifiers == Array(values.dropFirst(2)) + [5, 6, values[0]])
            #expect(!snapshot.contains(item: values[1]))
            #expect(snapshot.indexOfItem(values[0]) == values.count)
            Self.checkKeys(snapshot.storage, ownKeys: true)
            let identifiers = snapshot.storage.withItemKeys { keys in
                snapshot.storage.items.ids.withUnsafeBufferPointer {
                    UnsafeRawPointer($0.baseAddress) == UnsafeRawPointer(keys.baseAddress)
                }
            }
            #expect(identifiers, "keys not read from the identifiers' buffer")
            let difference = snapshot.difference(from: before)
            #expect(difference.deletedItemCount == 1 && difference.movedItemCount >= 1)
            #expect(difference.newIndexPath(forOldIndexPath: IndexPath(item: 0, section: 0)) == IndexPath(item: 2, section: 1))
        }
        check([Int.min, -1, Int.max, 0, 1, Int.min + 1, -2])
        check([Int64.min, -1, Int64.max, 0, 1, Int64.min + 1, -2])
        check([UInt64.max, 1 << 63, 0, 1, UInt64.max - 1, (1 << 63) - 1, 2])
        check([UInt.max, 1 << 63, 0, 1, UInt.max - 1, (1 << 63) - 1, 2])
    }

    /// A large Int snapshot has one 8-byte array per item for identifiers and keys together;
    /// the same snapshot of strings keeps its keys apart.
    @Test func largeIntegerSnapshotsHoldNoKeyArray() {
        var ints = DiffableDataSourceSnapshot<Int, Int>()
        var strings = DiffableDataSourceSnapshot<Int, String>()
        ints.appendSections(Array(0..<100))
        strings.appendSections(Array(0..<100))
        for section in 0..<100 {
            let labels = (section * 1000)..<(section * 1000 + 1000)
            ints.appendItems(labels.map { $0 &* -7 }, toSection: section)
            strings.appendItems(labels.map { "\($0 &* -7)" }, toSection: section)
        }
        ints.deleteItems(stride(from: 0, to: 100_000, by: 3).map { $0 &* -7 })
        strings.deleteItems(stride(from: 0, to: 100_000, by: 3).map { "\($0 &* -7)" })
        #expect(ints.storage.items.storedKeys.capacity == 0)
        #expect(strings.storage.items.storedKeys.capacity >= strings.numberOfItems)
        #expect(ints.itemIdentifiers.map(String.init) == strings.itemIdentifiers)
        Self.checkKeys(ints.storage, ownKeys: true)
        let reordered = ints.itemIdentifiers.reversed().map { $0 }
        var target = DiffableDataSourceSnapshot<Int, Int>()
        target.appendSections([0])
        target.appendItems(reordered, toSection: 0)
        var stringTarget = DiffableDataSourceSnapshot<Int, String>()
        stringTarget.appendSections([0])
        stringTarget.appendItems(reordered.map(String.init), toSection: 0)
        #expect(target.difference(from: ints).batches == stringTarget.difference(from: strings).batches)
    }
}
