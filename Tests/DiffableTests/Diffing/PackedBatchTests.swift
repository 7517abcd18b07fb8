import Foundation
import Testing

@testable import Diffable

/// Batches made by a diff keep their item lists packed until read: they must be
/// indistinguishable from the same batch built from `IndexPath`s.
@Suite struct PackedBatchTests {
    /// The batch rebuilt through the public initializer: every list materialized.
    static func rebuilt(_ batch: BatchUpdate) -> BatchUpdate {
        BatchUpdate(
            deleteSections: batch.deleteSections, insertSections: batch.insertSections, moveSections: batch.moveSections,
            reloadSections: batch.reloadSections, deleteItems: batch.deleteItems, insertItems: batch.insertItems,
            moveItems: batch.moveItems, reloadItems: batch.reloadItems, reconfigureItems: batch.reconfigureItems)
    }

    static func json(_ batch: BatchUpdate) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(batch)
    }

    @Test func packedBatchesEqualHashAndEncodeAsTheirIndexPathTwins() throws {
        var generator = SeededGenerator(seed: 21)
        var packedLists = 0
        for _ in 0..<300 {
            let (old, new) = RandomSnapshots.pair(&generator)
            for batch in new.difference(from: old).batches {
                if case .packed = batch.moveItemList { packedLists += 1 }
                if case .packed = batch.deleteItemList { packedLists += 1 }
                // A fresh difference each time, so no list was materialized before the comparison.
                let twin = Self.rebuilt(batch)
                #expect(batch == twin && twin == batch)
                #expect(batch.hashValue == twin.hashValue)
                #expect(try Self.json(batch) == Self.json(twin))
                #expect(batch.operationCount == twin.operationCount && batch.isRefreshOnly == twin.isRefreshOnly)
                #expect(batch.description == twin.description)
            }
        }
        #expect(packedLists > 100, "the random pairs must exercise packed lists")
    }

    @Test func packedListsCompareByContentAcrossDiffs() {
        var generator = SeededGenerator(seed: 4)
        for _ in 0..<200 {
            let (old, new) = RandomSnapshots.pair(&generator)
            let first = new.difference(from: old).batches, second = new.difference(from: old).batches
            #expect(first == second)
            if let batch = first.first, batch.moveItemList.count > 0 {
                var changed = batch
                changed.moveItems.removeLast()
                #expect(changed != batch)
                #expect(changed.moveItemList.count == batch.moveItemList.count - 1)
            }
        }
    }

    @Test func writingOneListLeavesTheOthersAndOtherCopiesAlone() throws {
        let old = RandomSnapshots.build([("A", ["a", "b", "c", "d"]), ("B", ["e", "f"])])
        let new = RandomSnapshots.build([("A", ["d", "x", "b", "a"]), ("B", ["f", "e", "c"])])
        let batch = try #require(new.difference(from: old).structuralBatch)
        let original = Self.rebuilt(batch)
        var edited = batch
        edited.insertItems.append(IndexPath(item: 9, section: 9))
        edited.deleteItems = []
        #expect(edited.insertItems == original.insertItems + [IndexPath(item: 9, section: 9)])
        #expect(edited.deleteItems.isEmpty && edited.moveItems == original.moveItems)
        #expect(batch == original)
        // The section lists too: the batch's lists are one shared object, copied on a write.
        var sections = edited
        sections.insertSections.append(4)
        sections.moveSections = [BatchUpdate.SectionMove(from: 0, to: 1)]
        #expect(sections.insertSections == edited.insertSections + [4] && sections.moveSections.count == 1)
        #expect(edited.moveSections == original.moveSections && edited.insertSections == original.insertSections)
        #expect(sections.insertItems == edited.insertItems && batch == original)
    }

    @Test func concurrentFirstReadsSeeOneList() async {
        var sections: [(String, [String])] = [("S", (0..<2_000).map { "i\($0)" })]
        let old = RandomSnapshots.build(sections)
        sections[0].1.reverse()
        let batch = RandomSnapshots.build(sections).difference(from: old).structuralBatch ?? BatchUpdate()
        let readers = await withTaskGroup(of: [BatchUpdate.ItemMove].self) { group in
            for _ in 0..<8 { group.addTask { batch.moveItems } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(readers.count == 8 && readers.allSatisfy { $0 == readers[0] && $0.count == 1_999 })
    }

    @Test func shortListsAreMadeOnEveryReadAndNotCached() throws {
        var items = (0..<20).map { "i\($0)" }
        let old = RandomSnapshots.build([("S", items)])
        items.reverse()
        let batch = try #require(RandomSnapshots.build([("S", items)]).difference(from: old).structuralBatch)
        guard case .packed(let store, _, _) = batch.moveItemList else {
            Issue.record("a diff's moves should be packed")
            return
        }
        #expect(batch.moveItems.count == 19 && batch.moveItems.count <= PackedIndexPaths.madeOnEveryRead)
        #expect(batch.moveItems == batch.moveItems && batch == Self.rebuilt(batch))
        #expect(!store.hasMaterializedLists)
    }

    @Test func countsDoNotMaterializeTheLists() throws {
        var items = (0..<1_000).map { "i\($0)" }
        let old = RandomSnapshots.build([("S", items)])
        items.reverse()
        let difference = RandomSnapshots.build([("S", items)]).difference(from: old)
        #expect(difference.movedItemCount == 999)
        let batch = try #require(difference.structuralBatch)
        guard case .packed(let store, _, _) = batch.moveItemList else {
            Issue.record("a diff's moves should be packed")
            return
        }
        #expect(batch.operationCount == 999 && !store.hasMaterializedLists)
        _ = batch.moveItems
        #expect(store.hasMaterializedLists)
    }
}
