import Testing

@testable import Diffable

/// The layout of a diff's copied result arrays: every array in one block while small, each in
/// a block of its own once large, each array's elements as copied, and every array readable
/// after the others and the layout itself are gone.
@Suite struct ResultCopiesTests {
    /// Lays out `pathCount` paths and two maps of `mapCount` entries, copies known values into
    /// them and returns the three arrays.
    static func copies(pathCount: Int, mapCount: Int) -> (
        paths: ResultArray<PackedIndexPath>, old: ResultArray<Int32>, new: ResultArray<Int32>
    ) {
        let pathValues = (0..<pathCount).map { PackedIndexPath(section: UInt32($0 % 7), item: UInt32($0)) }
        let oldValues = (0..<mapCount).map { Int32($0) * 3 }, newValues = (0..<mapCount).map { -Int32($0) - 1 }
        var copies = ResultCopies()
        let paths = copies.add(PackedIndexPath.self, count: pathCount)
        let old = copies.add(Int32.self, count: mapCount)
        let new = copies.add(Int32.self, count: mapCount)
        copies.allocate()
        // The paths in two pieces, as a diff copies its lists one after another.
        let half = pathCount / 2
        pathValues.withUnsafeBufferPointer { values in
            copies.copy(values.baseAddress, count: half, into: paths)
            copies.copy(values.baseAddress.map { $0 + half }, count: pathCount - half, into: paths, at: half)
        }
        oldValues.withUnsafeBufferPointer { copies.copy($0.baseAddress, count: mapCount, into: old) }
        newValues.withUnsafeBufferPointer { copies.copy($0.baseAddress, count: mapCount, into: new) }
        return (copies.array(paths), copies.array(old), copies.array(new))
    }

    static func checkValues(_ arrays: (paths: ResultArray<PackedIndexPath>, old: ResultArray<Int32>, new: ResultArray<Int32>)) {
        #expect(Array(arrays.paths) == (0..<arrays.paths.count).map { PackedIndexPath(section: UInt32($0 % 7), item: UInt32($0)) })
        #expect(Array(arrays.old) == (0..<arrays.old.count).map { Int32($0) * 3 })
        #expect(Array(arrays.new) == (0..<arrays.new.count).map { -Int32($0) - 1 })
    }

    static func address<T>(_ array: ResultArray<T>) -> UInt {
        array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func smallResultsShareOneBlock() {
        // 3 paths (24 bytes), then 5 entries a map (20 bytes, padded to 24).
        let arrays = Self.copies(pathCount: 3, mapCount: 5)
        Self.checkValues(arrays)
        #expect(Self.address(arrays.old) == Self.address(arrays.paths) + 24)
        #expect(Self.address(arrays.new) == Self.address(arrays.old) + 24)
    }

    @Test func largeResultsGiveEachArrayItsOwnBlock() {
        let pathCount = ResultCopies.sharedBlockLimit / MemoryLayout<PackedIndexPath>.stride + 1
        let arrays = Self.copies(pathCount: pathCount, mapCount: 1_000)
        Self.checkValues(arrays)
        let pathStart = Self.address(arrays.paths), pathEnd = pathStart + UInt(pathCount * MemoryLayout<PackedIndexPath>.stride)
        #expect(!(pathStart..<pathEnd + 8).contains(Self.address(arrays.old)), "a map in the paths' block")
        #expect(Self.address(arrays.new) != Self.address(arrays.old) + 4_000, "the maps in one block")
    }

    @Test func emptyPartsAreEmptyArrays() {
        let arrays = Self.copies(pathCount: 0, mapCount: 0)
        #expect(arrays.paths.isEmpty && arrays.old.isEmpty && arrays.new.isEmpty)
        let mapsOnly = Self.copies(pathCount: 0, mapCount: 4)
        Self.checkValues(mapsOnly)
        #expect(mapsOnly.paths.isEmpty)
    }

    @Test func arraysOutliveEachOtherAndTheLayout() {
        // Each array keeps its block alive on its own: the others dropped, one read alone.
        for pathCount in [5, ResultCopies.sharedBlockLimit / 8 + 9] {
            var arrays: (paths: ResultArray<PackedIndexPath>, old: ResultArray<Int32>, new: ResultArray<Int32>)? =
                Self.copies(pathCount: pathCount, mapCount: 300)
            let new = arrays!.new
            arrays = nil
            #expect(Array(new) == (0..<300).map { -Int32($0) - 1 })
        }
    }

    /// A diff through the library reads the same maps from the shared block as the item
    /// positions say: every old item's new position holds it.
    @Test func aSnapshotDiffReadsItsMapsFromTheBlock() {
        var old = DiffableDataSourceSnapshot<Int, Int>(), new = DiffableDataSourceSnapshot<Int, Int>()
        old.appendSections([0, 1])
        old.appendItems(Array(0..<50), toSection: 0)
        old.appendItems(Array(50..<100), toSection: 1)
        new.appendSections([1, 2, 0])
        new.appendItems(Array(stride(from: 99, through: 50, by: -1)), toSection: 1)
        new.appendItems([1_000], toSection: 2)
        new.appendItems(Array(0..<40), toSection: 0)
        let difference = new.difference(from: old)
        let oldFlat = Array(0..<100), newFlat = Array(stride(from: 99, through: 50, by: -1)) + [1_000] + Array(0..<40)
        for (oldPosition, item) in oldFlat.enumerated() {
            let newPosition = difference.oldItemToNew[oldPosition]
            #expect(newPosition == (newFlat.firstIndex(of: item).map { Int32($0) } ?? -1), "item \(item)")
        }
        #expect(Array(difference.oldSectionToNew) == [2, 0])
        #expect(Array(difference.newSectionToOld) == [1, -1, 0])
    }
}
