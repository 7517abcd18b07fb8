import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// The in-place fast paths of the snapshot diff — the new flat form sharing the old one's
/// arrays, the core's refresh-only planner, identity item maps — against the general path on
/// random snapshots, with near misses (same flat order in other section sizes, a swap, a
/// renamed section…) that must not take them.
@Suite struct InPlaceDifferenceTests {
    typealias Layout = [(section: Int, items: [Int])]

    /// Random sections of random sizes (some empty), items numbered in order.
    static func layout(_ g: inout SeededGenerator) -> Layout {
        var next = 0
        return (0..<Int.random(in: 0...5, using: &g)).map { section in
            let count = Int.random(in: 0...(Int.random(in: 0..<4, using: &g) == 0 ? 40 : 9), using: &g)
            defer { next += count }
            return (section, Array(next..<(next + count)))
        }
    }

    /// `layout` changed by edit `kind` (0: unchanged, the in-place case), or nil when it
    /// cannot be applied.
    static func edited(_ layout: Layout, _ kind: Int, _ g: inout SeededGenerator) -> Layout? {
        var new = layout
        let filled = new.indices.filter { !new[$0].items.isEmpty }
        switch kind {
        case 0: return new
        case 1:  // the last item of a section opens the next one: the same flat order
            guard let s = filled.first(where: { $0 + 1 < new.count }) else { return nil }
            new[s + 1].items.insert(new[s].items.removeLast(), at: 0)
        case 2:  // two neighbours swapped
            guard let s = filled.first(where: { new[$0].items.count >= 2 }) else { return nil }
            let i = Int.random(in: 0..<(new[s].items.count - 1), using: &g)
            new[s].items.swapAt(i, i + 1)
        case 3:  // a section renamed
            guard !new.isEmpty else { return nil }
            new[Int.random(in: 0..<new.count, using: &g)].section = 100
        case 4:  // two sections swapped
            guard new.count >= 2 else { return nil }
            new.swapAt(0, new.count - 1)
        case 5:  // an item replaced by a new one
            guard let s = filled.randomElement(using: &g) else { return nil }
            new[s].items[Int.random(in: 0..<new[s].items.count, using: &g)] = 10_000
        case 6:  // the last item deleted
            guard let s = filled.last else { return nil }
            new[s].items.removeLast()
        default:  // an item appended
            guard !new.isEmpty else { return nil }
            new[new.count - 1].items.append(10_001)
        }
        return new
    }

    static func snapshot<S: Hashable, I: Hashable>(_ layout: Layout, _ section: (Int) -> S, _ item: (Int) -> I)
        -> DiffableDataSourceSnapshot<S, I>
    {
        var snapshot = DiffableDataSourceSnapshot<S, I>()
        snapshot.appendSections(layout.map { section($0.section) })
        for (id, items) in layout { snapshot.appendItems(items.map(item), toSection: section(id)) }
        return snapshot
    }

    /// Whether two arrays are one buffer (shared, not copied).
    static func sameBuffer<T>(_ a: [T], _ b: [T]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    func checkFlatForms<S: Hashable, I: Hashable>(
        _ old: DiffableDataSourceSnapshot<S, I>, _ new: DiffableDataSourceSnapshot<S, I>, slots: Bool, inPlace: Bool, round: Int
    ) {
        let oldFlat = FlatSnapshot(old.storage, slots: slots)
        let shared = FlatSnapshot(new.storage, slots: slots, sharingWith: oldFlat)
        let alone = FlatSnapshot(new.storage, slots: slots)
        #expect(shared.itemKeys == alone.itemKeys, "round \(round)")
        #expect(shared.starts == alone.starts, "round \(round)")
        #expect(shared.sectionKeys == alone.sectionKeys, "round \(round)")
        #expect(shared.materializedItemSlots == alone.materializedItemSlots && shared.sectionSlots == alone.sectionSlots, "round \(round)")
        #expect(shared.itemSlotsRunInOrder == alone.itemSlotsRunInOrder, "round \(round)")
        if inPlace {
            #expect(Self.sameBuffer(shared.itemKeys, oldFlat.itemKeys) && Self.sameBuffer(shared.starts, oldFlat.starts), "round \(round)")
        } else {
            #expect(shared.itemKeys != oldFlat.itemKeys || shared.starts != oldFlat.starts || shared.sectionKeys != oldFlat.sectionKeys)
        }
    }

    @Test func newFlatFormSharesExactlyWhatIsEqual() {
        var g = SeededGenerator(seed: 14_01)
        for round in 0..<3_000 {
            let layout = Self.layout(&g)
            let kind = round % 8
            guard let edited = Self.edited(layout, kind, &g) else { continue }
            let old = Self.snapshot(layout, { $0 }, { $0 }), new = Self.snapshot(edited, { $0 }, { $0 })
            checkFlatForms(old, new, slots: false, inPlace: kind == 0, round: round)
            let oldNames = Self.snapshot(layout, { "S\($0)" }, { "i\($0)" })
            let newNames = Self.snapshot(edited, { "S\($0)" }, { "i\($0)" })
            checkFlatForms(oldNames, newNames, slots: true, inPlace: kind == 0, round: round)
        }
    }

    /// A snapshot whose slots run in display order lends its own key array to its flat form;
    /// one whose slots do not (after a move or a delete) gets its keys gathered; both in
    /// display order either way.
    @Test func flatFormBorrowsTheKeyArrayOnlyInDisplayOrder() {
        var g = SeededGenerator(seed: 14_02)
        for round in 0..<500 {
            var snapshot = Self.snapshot(Self.layout(&g), { "S\($0)" }, { "i\($0)" })
            let items = snapshot.itemIdentifiers
            if round % 3 == 1, items.count > 1 { snapshot.moveItem(items[0], afterItem: items[items.count - 1]) }
            if round % 3 == 2, !items.isEmpty { snapshot.deleteItems([items[items.count / 2]]) }
            let storage = snapshot.storage
            let flat = FlatSnapshot(storage, slots: true)
            #expect(flat.itemKeys == storage.items.strategy.keys(snapshot.itemIdentifiers), "round \(round)")
            let borrowed = storage.withItemKeys { own in
                flat.itemKeys.withUnsafeBufferPointer { $0.baseAddress == own.baseAddress }
            }
            let inOrder = flat.materializedItemSlots == Array(0..<Int32(storage.itemCount))
            // Slots in order are not written out; slots out of order are.
            #expect(flat.itemSlotsRunInOrder == inOrder && flat.itemSlots.isEmpty == (inOrder || flat.itemKeys.isEmpty), "round \(round)")
            guard !flat.itemKeys.isEmpty else { continue }  // every empty array is one buffer
            #expect(borrowed == inOrder, "round \(round)")
            if round % 3 == 1, items.count > 1 { #expect(!borrowed, "round \(round)") }
        }
    }

    /// Reloads, reconfigures (some of the same items) and section reloads, at random.
    static func requestRefreshes<S: Hashable, I: Hashable>(_ snapshot: inout DiffableDataSourceSnapshot<S, I>, _ g: inout SeededGenerator) {
        let items = snapshot.itemIdentifiers
        snapshot.reloadItems(items.filter { _ in Int.random(in: 0..<6, using: &g) == 0 })
        snapshot.reconfigureItems(items.filter { _ in Int.random(in: 0..<6, using: &g) == 0 })
        let sections = snapshot.sectionIdentifiers
        if !sections.isEmpty, Bool.random(using: &g) { snapshot.reloadSections([sections.randomElement(using: &g)!]) }
    }

    func checkDifference<S: Hashable, I: Hashable>(
        _ old: DiffableDataSourceSnapshot<S, I>, _ new: DiffableDataSourceSnapshot<S, I>, extraSection: S, inPlace: Bool, round: Int
    ) throws {
        let difference = new.difference(from: old)
        var view = ListViewSimulator<S, I>(flavor: round % 2 == 0 ? .collection : .table)
        view.reloadData(old)
        try view.apply(difference)
        #expect(view.visibleSnapshot == new.withoutPendingUpdates(), "round \(round)")
        #expect((difference.structuralBatch == nil) == inPlace, "round \(round)")
        // The general planner on the same request: one more, empty, section at the end.
        var longer = new
        longer.appendSections([extraSection])
        let general = longer.difference(from: old)
        if inPlace {
            #expect(general.structuralBatch == BatchUpdate(insertSections: [new.numberOfSections]), "round \(round)")
            #expect(general.refreshBatch == difference.refreshBatch, "round \(round)")
        }
        // Position maps agree with the general path's (identity when in place).
        for section in 0..<new.numberOfSections {
            for item in 0..<new.numberOfItems(inSection: new.sectionIdentifiers[section]) {
                let path = IndexPath(item: item, section: section)
                #expect(difference.oldIndexPath(forNewIndexPath: path) == general.oldIndexPath(forNewIndexPath: path))
                if inPlace { #expect(difference.oldIndexPath(forNewIndexPath: path) == path) }
            }
        }
        for section in 0..<old.numberOfSections {
            for item in 0..<old.numberOfItems(inSection: old.sectionIdentifiers[section]) {
                let path = IndexPath(item: item, section: section)
                #expect(difference.newIndexPath(forOldIndexPath: path) == general.newIndexPath(forOldIndexPath: path))
            }
        }
    }

    @Test func refreshOnlyDifferenceMatchesTheGeneralPlanner() throws {
        var g = SeededGenerator(seed: 14_02)
        for round in 0..<2_000 {
            let layout = Self.layout(&g)
            let kind = round % 3 == 0 ? 0 : Int.random(in: 1..<8, using: &g)
            guard let edited = Self.edited(layout, kind, &g) else { continue }
            let old = Self.snapshot(layout, { $0 }, { $0 })
            // The new snapshot: built apart, or a copy of the old one (sharing its storage's arrays).
            var new = kind == 0 && round % 2 == 0 ? old : Self.snapshot(edited, { $0 }, { $0 })
            Self.requestRefreshes(&new, &g)
            try checkDifference(old, new, extraSection: 1_000, inPlace: kind == 0, round: round)
            let oldNames = Self.snapshot(layout, { "S\($0)" }, { "i\($0)" })
            var newNames = Self.snapshot(edited, { "S\($0)" }, { "i\($0)" })
            Self.requestRefreshes(&newNames, &g)
            try checkDifference(oldNames, newNames, extraSection: "extra", inPlace: kind == 0, round: round)
        }
    }
}
