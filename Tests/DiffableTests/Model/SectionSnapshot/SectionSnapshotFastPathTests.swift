import DiffableTools
import Testing

@testable import Diffable

/// The storage's fast paths against the general ones: appends at the end of the outline
/// (and their one-probe table inserts), single-item expand/collapse, and visible runs that
/// skip whole words of expansion bits.
@Suite struct SectionSnapshotFastPathTests {
    /// A seeded outline of `count` items: each item's parent is a random earlier item or none.
    static func randomEntries(count: Int, seed: UInt64) -> [(item: Int, parent: Int?)] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { item in
            (item, item == 0 || Int.random(in: 0..<10, using: &generator) == 0 ? nil : Int.random(in: 0..<item, using: &generator))
        }
    }

    @Test func appendsInOutlineOrderBuildWhatTheValidatingInitializerBuilds() throws {
        let workload = OutlineWorkload(fanOut: 5, depth: 4)
        var entries: [(item: Int, parent: Int?)] = []
        workload.forEachAppend { items, parent in entries += items.map { ($0, parent) } }
        let appended = workload.build()
        #expect(appended == (try DiffableDataSourceSectionSnapshot(validating: entries)))
        #expect(appended.items == Array(0..<workload.itemCount) && appended.level(of: workload.itemCount - 1) == 3)
    }

    @Test func visibleItemsOfAFullyExpandedOutlineStayAsTheyWereAfterTheOutlineChanges() {
        var outline = OutlineWorkload(fanOut: 3, depth: 3).build()
        outline.expand(outline.items)
        let rows = outline.visibleItems, items = outline.items
        #expect(rows == items && rows.count == 39)
        // The rows share the outline's identifiers: every later change copies, never writes through.
        outline.delete([0])
        outline.append([100, 101], to: 20)
        outline.insert([200], before: 13)
        #expect(rows == Array(0..<39) && items == rows)
        #expect(outline.visibleItems == outline.items && outline.items.count == 29)
        outline.collapse([13])
        // 13 keeps 14 descendants: 12 of its own and 20's two new children.
        #expect(outline.visibleItems.count == 29 - 14 && rows.count == 39)
    }

    @Test(arguments: [1, 3, 4, 5, 16])
    func rejectedAppendsAtTheEndLeaveTheTableUnchanged(_ count: Int) {
        var outline = OutlineWorkload(fanOut: 3, depth: 3).build()
        let before = outline
        let fresh = Array(1_000..<(1_000 + count - 1))
        // The last item repeats one already there: the items claimed before it are released.
        #expect(throws: SectionSnapshotError.self) { try outline.tryAppend(fresh + [5], to: 38) }
        #expect(throws: SectionSnapshotError.self) { try outline.tryAppend(fresh + [fresh.first ?? 5], to: 38) }
        #expect(outline == before && fresh.allSatisfy { !outline.contains($0) })
        outline.append(fresh + [999], to: 38)
        #expect(outline.index(of: 999) == outline.items.count - 1 && outline.parent(of: 999) == 38)
    }

    @Test(arguments: [0.0, 0.3, 0.8, 0.97, 1.0])
    func visibleItemsAreTheItemsWhoseAncestorsAreExpanded(_ density: Double) throws {
        var generator = SplitMix64(seed: UInt64(density * 100))
        let entries = Self.randomEntries(count: 3_000, seed: 7)
        var outline = try DiffableDataSourceSectionSnapshot(validating: entries)
        let expanding = outline.items.filter { _ in Double.random(in: 0..<1, using: &generator) < density }
        outline.expand(expanding)
        #expect(outline.visibleItems == outline.items.filter { outline.isVisible($0) })
        // One item at a time (the single-item path) gives the same outline.
        var oneByOne = try DiffableDataSourceSectionSnapshot(validating: entries)
        for item in expanding.reversed() { oneByOne.expand([item]) }
        #expect(oneByOne == outline)
        for item in expanding { oneByOne.collapse([item]) }
        #expect(oneByOne == (try DiffableDataSourceSectionSnapshot(validating: entries)))
    }

    @Test func singleItemExpansionCopiesSharedStorageOnlyWhenItChanges() throws {
        let original = try DiffableDataSourceSectionSnapshot(validating: Self.randomEntries(count: 100, seed: 3))
        var copy = original
        copy.collapse([1])
        copy.expand([12_345])
        #expect(copy.storage === original.storage)
        copy.expand([1])
        #expect(copy.storage !== original.storage && copy.isExpanded(1) && !original.isExpanded(1))
    }

    /// Single-item lookups first try the position after the last one found. After every
    /// kind of mutation, that guess points at the wrong item (or past the end): each
    /// query, asked right after a query that leaves such a guess, must still agree with
    /// the outline's own arrays.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func lookupsAfterAStaleGuessAgreeWithTheItemsArray(seed: UInt64) throws {
        var outline = try DiffableDataSourceSectionSnapshot(validating: Self.randomEntries(count: 300, seed: seed))
        var generator = SplitMix64(seed: seed &+ 100)
        var nextItem = 1_000
        for step in 0..<200 {
            let items = outline.items
            guard let victim = items.randomElement(using: &generator) else { break }
            switch step % 5 {
            case 0: outline.delete([victim])
            case 1: outline.insert([nextItem], before: victim)
            case 2: outline.insert([nextItem], after: victim)
            case 3: outline.replace(childrenOf: victim, using: DiffableDataSourceSectionSnapshot())
            default: outline.append([nextItem], to: victim)
            }
            nextItem += 1
            let now = outline.items
            // Ask about each item right after its predecessor (guess right), then in a
            // scrambled order (guess wrong), then about items that are gone.
            for order in [now, now.shuffled(using: &generator), [victim, nextItem, -1] + now.reversed()] {
                for item in order {
                    let position = now.firstIndex(of: item)
                    #expect(outline.index(of: item) == position, "step \(step): \(item)")
                    #expect(outline.contains(item) == (position != nil))
                }
            }
        }
    }

    /// Identifiers whose keys all collide: a guessed position holds the right key for every
    /// item, so only the identifier comparison tells a right guess from a wrong one.
    @Test func aGuessIsConfirmedByTheIdentifierWhenKeysCollide() {
        var outline = DiffableDataSourceSectionSnapshot<Bucketed>()
        let items = (0..<64).map { Bucketed(value: $0, buckets: 1) }
        outline.append(items)
        for item in items + items.reversed() {
            #expect(outline.index(of: item) == item.value)
        }
        #expect(outline.index(of: Bucketed(value: 64, buckets: 1)) == nil)
    }

    /// A copy shares the identifier table until one side changes its structure: expanding
    /// and collapsing never copy it, and each kind of structural change gives the changed
    /// side a table of its own while the other keeps answering from the shared one.
    @Test func copiesShareTheTableUntilOneOfThemChangesItsStructure() {
        let original = OutlineWorkload(fanOut: 4, depth: 3).build()
        let items = original.items
        func table(_ outline: DiffableDataSourceSectionSnapshot<Int>) -> ObjectIdentifier { ObjectIdentifier(outline.storage.table) }
        var copy = original
        copy.expand(items)
        copy.collapse([items[0]])
        #expect(table(copy) == table(original))
        let changes: [(String, (inout DiffableDataSourceSectionSnapshot<Int>) -> Void)] = [
            ("append", { $0.append([9_000], to: items[1]) }),
            ("delete", { $0.delete([items[0]]) }),
            ("insert before", { $0.insert([9_001], before: items[2]) }),
            ("replace children", { $0.replace(childrenOf: items[0], using: DiffableDataSourceSectionSnapshot()) }),
            ("delete all", { $0.deleteAll() }),
        ]
        for (name, change) in changes {
            var changed = copy
            change(&changed)
            #expect(table(changed) != table(original), "\(name)")
            #expect(table(copy) == table(original), "\(name)")
            for (position, item) in items.enumerated() {
                #expect(original.index(of: item) == position, "\(name): \(item)")
                #expect(copy.index(of: item) == position, "\(name): \(item)")
                #expect(changed.index(of: item) == changed.items.firstIndex(of: item), "\(name): \(item)")
            }
            #expect(original.index(of: 9_000) == nil && original.index(of: 9_001) == nil, "\(name)")
        }
    }
}
