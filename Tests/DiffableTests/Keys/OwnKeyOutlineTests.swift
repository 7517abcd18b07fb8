import Foundation
import Testing

@testable import Diffable

/// 64-bit integer items are their own keys in outlines too: the storage keeps no key array
/// beside the identifiers and reads the keys from the identifiers' memory. One random program
/// of outline operations runs on such outlines (negative and high-bit values included) and on
/// an outline of strings, whose keys are stored; every step must show the same items, levels,
/// parents, expansion, visible items and difference from the step before.
@Suite struct OwnKeyOutlineTests {
    typealias Code = OwnKeyProgram.Code

    /// What one step leaves, in labels (the numbers the items were made from).
    struct Observation: Equatable {
        var items: [Int]
        var levels: [Int]
        var parents: [Int?]
        var expanded: [Int]
        var visible: [Int]
        var positions: [Int?]
        var batches: [BatchUpdate]
    }

    /// Runs `codes` on an empty outline of items `id(label)`; checks the stored keys after
    /// every step and that the copy taken before it did not change.
    static func trace<I: Hashable>(_ codes: [Code], ownKeys: Bool, _ id: (Int) -> I, _ label: (I) -> Int) -> [Observation] {
        typealias Outline = DiffableDataSourceSectionSnapshot<I>
        var outline = Outline()
        var nextItem = 0
        var observations: [Observation] = []
        func fresh(_ count: Int) -> [I] {
            defer { nextItem += count }
            return (nextItem..<(nextItem + count)).map(id)
        }
        /// A small outline of new items: roots, each with a few children, some expanded.
        func freshOutline(_ a: Int) -> Outline {
            var small = Outline()
            let roots = fresh(1 + a % 3)
            small.append(roots)
            for (index, root) in roots.enumerated() where (a + index) % 2 == 0 { small.append(fresh(1 + index), to: root) }
            if a % 3 == 0 { small.expand([roots[0]]) }
            return small
        }
        for code in codes {
            let before = outline, itemsBefore = outline.items
            let items = itemsBefore
            let (a, b, c) = (code.a, code.b, code.c)
            switch code.operation {
            case 0...1:
                // At the end (the in-order path) or under any item (the general path).
                let parent: I? = items.isEmpty || b % 3 == 0 ? nil : (b % 3 == 1 ? items.last! : items[a % items.count])
                outline.append(fresh(1 + c % 20), to: parent)
            case 2 where !items.isEmpty:
                let anchor = items[a % items.count]
                if c % 2 == 0 { outline.insert(fresh(1 + b % 3), before: anchor) } else { outline.insert(fresh(1 + b % 3), after: anchor) }
            case 3 where !items.isEmpty:
                outline.delete([items[a % items.count], items[b % items.count], id(-5)])
            case 4 where !items.isEmpty:  // many roots at once: compaction of the arrays
                outline.delete(items.filter { (label($0) + a) % 5 == 0 })
            case 5 where !items.isEmpty:
                let chosen = items.filter { (label($0) &+ a) % 3 != 0 } + [id(-7)]
                if c % 3 == 0 { outline.collapse(chosen) } else { outline.expand(chosen) }
            case 6:
                let small = freshOutline(a)
                if items.isEmpty || b % 3 == 0 {
                    outline.append(small, to: items.isEmpty ? nil : items[c % items.count])
                } else if b % 3 == 1 {
                    outline.insert(small, before: items[c % items.count])
                } else {
                    outline.insert(small, after: items[c % items.count])
                }
            case 7 where !items.isEmpty:
                outline.replace(childrenOf: items[a % items.count], using: freshOutline(b))
            case 8 where !items.isEmpty:  // an existing item appended again: rejected, nothing kept
                let new = fresh(1 + a % 3)
                #expect(throws: SectionSnapshotError.self) { try outline.tryAppend(new + [items[b % items.count]]) }
            case 9 where !items.isEmpty:  // a copy of a subtree, with its expansion, checked alone
                let sub = outline.snapshot(of: items[a % items.count], includingParent: b % 2 == 0)
                checkKeys(sub.storage, ownKeys: ownKeys)
                outline = c % 4 == 0 ? sub : outline
            case 10:  // the whole outline rebuilt from its entries
                let entries = items.map { (item: $0, parent: outline.parent(of: $0), isExpanded: outline.isExpanded($0)) }
                outline = try! Outline(validating: entries.reversed())
            case 11 where a % 5 == 0: outline.deleteAll()
            default: continue
            }
            #expect(before.items == itemsBefore, "a copy changed")
            checkKeys(outline.storage, ownKeys: ownKeys)
            let now = outline.items
            observations.append(
                Observation(
                    items: now.map(label), levels: now.map { outline.level(of: $0) },
                    parents: now.map { outline.parent(of: $0).map(label) }, expanded: outline.expandedItems.map(label),
                    visible: outline.visibleItems.map(label),
                    positions: (0..<nextItem).filter { $0 % 5 == 0 }.map { outline.index(of: id($0)) },
                    batches: outline.difference(from: before).batches))
        }
        return observations
    }

    /// The keys read by position are each identifier's key; only stored keys have a buffer.
    static func checkKeys<I>(_ storage: SectionSnapshotStorage<I>, ownKeys: Bool) {
        #expect(storage.items.isOwnKey == ownKeys)
        let keys = storage.items.withKeys { Array($0) }
        #expect(keys == storage.items.strategy.keys(Array(storage.items.ids)))
        #expect(Array(storage.items.keyArray) == keys)
        #expect(Array(storage.rows.keys) == keys)
        #expect((0..<storage.count).allSatisfy { storage.items.key(at: $0) == keys[$0] })
        if ownKeys {
            #expect(storage.items.storedKeys.capacity == 0)
        } else {
            #expect(storage.items.storedKeys.capacity >= storage.count)
        }
    }

    @Test func integerOutlinesAgreeWithStringOutlines() {
        var g = SeededGenerator(seed: 14_15)
        for round in 0..<40 {
            let codes = OwnKeyProgram.codes(&g, operations: 12, count: 40)
            let reference = Self.trace(codes, ownKeys: false, { "i\($0)" }, { Int($0.dropFirst())! })
            // The 64-bit integer bijections of OwnKeyProgram.
            let ints = Self.trace(codes, ownKeys: true, OwnKeyProgram.int, OwnKeyProgram.label(ofInt:))
            let int64s = Self.trace(codes, ownKeys: true, OwnKeyProgram.int64, OwnKeyProgram.label(ofInt64:))
            let uint64s = Self.trace(codes, ownKeys: true, OwnKeyProgram.uint64, OwnKeyProgram.label(ofUInt64:))
            #expect(ints == reference, "round \(round)")
            #expect(int64s == reference, "round \(round)")
            #expect(uint64s == reference, "round \(round)")
        }
    }

    /// Narrower integers keep their keys stored (their key is not their whole bit pattern).
    @Test func onlyEightByteIntegersAreTheirOwnKeys() {
        #expect(SectionSnapshotStorage<Int>().items.isOwnKey)
        #expect(SectionSnapshotStorage<Int64>().items.isOwnKey)
        #expect(SectionSnapshotStorage<UInt64>().items.isOwnKey)
        #expect(SectionSnapshotStorage<UInt>().items.isOwnKey)
        #expect(!SectionSnapshotStorage<Int32>().items.isOwnKey)
        #expect(!SectionSnapshotStorage<String>().items.isOwnKey)
        #expect(!SectionSnapshotStorage<Double>().items.isOwnKey)
    }

    /// A large Int outline holds no key buffer and reads its keys from the identifiers'
    /// buffer; the same outline of strings keeps its keys apart, and both diff alike.
    @Test func largeIntegerOutlinesHoldNoKeyArray() {
        var ints = DiffableDataSourceSectionSnapshot<Int>()
        var strings = DiffableDataSourceSectionSnapshot<String>()
        for root in 0..<200 {
            let label = root &* -1001
            ints.append([label])
            strings.append(["\(label)"])
            let children = (1...200).map { label &- $0 }
            ints.append(children, to: label)
            strings.append(children.map(String.init), to: "\(label)")
        }
        ints.delete(stride(from: 0, to: 200, by: 3).map { $0 &* -1001 })
        strings.delete(stride(from: 0, to: 200, by: 3).map { "\($0 &* -1001)" })
        #expect(ints.storage.items.storedKeys.capacity == 0)
        #expect(strings.storage.items.storedKeys.capacity >= strings.items.count)
        #expect(ints.items.map(String.init) == strings.items)
        Self.checkKeys(ints.storage, ownKeys: true)
        let sameBuffer = ints.storage.items.withKeys { keys in
            ints.storage.items.ids.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) == UnsafeRawPointer(keys.baseAddress) }
        }
        #expect(sameBuffer, "keys not read from the identifiers' buffer")
        let expandedInts = ints.rootItems.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        var intsAfter = ints, stringsAfter = strings
        intsAfter.expand(expandedInts)
        stringsAfter.expand(expandedInts.map(String.init))
        #expect(intsAfter.difference(from: ints).batches == stringsAfter.difference(from: strings).batches)
        intsAfter.delete(Array(intsAfter.rootItems.prefix(5)))
        stringsAfter.delete(Array(stringsAfter.rootItems.prefix(5)))
        #expect(intsAfter.difference(from: ints).batches == stringsAfter.difference(from: strings).batches)
        #expect(intsAfter.storage.items.storedKeys.capacity == 0)
    }
}
