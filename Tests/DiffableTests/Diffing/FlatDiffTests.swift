import Testing

@testable import Diffable

/// The C core's flat diff through `ListDiffer`, the thin Swift layer over it.
@Suite struct FlatDiffTests {
    /// Applies a flat diff the way a list view does: deletes and move sources leave,
    /// inserts and move targets take their final slots, the rest fill in old order.
    static func replay<T>(_ old: [T], _ new: [T], _ diff: ListDifference) -> [T?] {
        var result = [T?](repeating: nil, count: new.count)
        var leaves = Set(diff.deletes)
        for index in diff.inserts { result[index] = new[index] }
        for move in diff.moves {
            leaves.insert(move.from)
            result[move.to] = old[move.from]
        }
        var slot = 0
        for (index, element) in old.enumerated() where !leaves.contains(index) {
            while slot < result.count && result[slot] != nil { slot += 1 }
            guard slot < result.count else { return [] }
            result[slot] = element
        }
        return result
    }

    static func randomPair(_ generator: inout SeededGenerator, maxCount: Int) -> ([Int], [Int]) {
        let count = Int.random(in: 0...maxCount, using: &generator)
        let old = Array(0..<count).shuffled(using: &generator)
        var new = old.filter { _ in Int.random(in: 0..<10, using: &generator) < 8 }
        new += (0..<Int.random(in: 0...(maxCount / 4), using: &generator)).map { count + $0 }
        if Bool.random(using: &generator) {
            new.shuffle(using: &generator)
        } else if !new.isEmpty {
            for _ in 0..<Int.random(in: 0...max(1, new.count / 5), using: &generator) {
                new.swapAt(Int.random(in: 0..<new.count, using: &generator), Int.random(in: 0..<new.count, using: &generator))
            }
        }
        return (old, new)
    }

    @Test func randomPairsReplayWithMinimalMoves() throws {
        let differ = ListDiffer()
        var generator = SeededGenerator(seed: 2026)
        for round in 0..<4000 {
            let (old, new) = Self.randomPair(&generator, maxCount: 60)
            let diff = try differ.difference(from: old, to: new)
            let replayed = Self.replay(old, new, diff)
            #expect(replayed == new.map { Optional($0) }, "round \(round): old \(old) new \(new)")
            let oldIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1, $0) })
            let matchedOldIndices = new.compactMap { oldIndex[$0] }
            #expect(diff.matched == matchedOldIndices.count)
            #expect(
                diff.moves.count == matchedOldIndices.count - referenceLISLength(matchedOldIndices),
                "round \(round): moves are not minimal")
            #expect(diff.deletes == old.indices.filter { !Set(new).contains(old[$0]) })
        }
    }

    @Test func stringIdentifiersMatchByBytes() throws {
        let old = ["alpha", "beta", "gamma", "δέλτα", ""]
        let new = ["", "gamma", "alpha", "epsilon", "δέλτα"]
        let diff = try ListDiffer().difference(from: old, to: new)
        #expect(diff.deletes == [1])
        #expect(diff.inserts == [3])
        #expect(Self.replay(old, new, diff) == new.map { Optional($0) })
        #expect(diff.moves.count == 2)  // matched 4, LIS 2
    }

    @Test func duplicatesAreReportedWithPositions() throws {
        let error = #expect(throws: ListDifferenceError.self) {
            try ListDiffer().difference(from: [1, 2, 1], to: [3, 3])
        }
        #expect(
            error?.duplicates == [
                .init(side: .old, identifier: "1", firstIndex: 0, duplicateIndex: 2),
                .init(side: .new, identifier: "3", firstIndex: 0, duplicateIndex: 1),
            ])
        #expect(CoreError.duplicate.description.hasPrefix("DFC_ERR_DUPLICATE"))
    }

    @Test func warmContextAllocatesNothing() throws {
        let differ = ListDiffer()
        var generator = SeededGenerator(seed: 7)
        let old = (0..<10_000).map { UInt64($0) }
        let new = old.shuffled(using: &generator)
        _ = try differ.difference(fromKeys: old, toKeys: new)
        let before = differ.workspaceAllocationCount
        for _ in 0..<3 { _ = try differ.difference(fromKeys: old, toKeys: new) }
        #expect(differ.workspaceAllocationCount == before)
    }
}
