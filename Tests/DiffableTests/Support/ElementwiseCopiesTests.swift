import Testing

@testable import Diffable

/// `ElementwiseCopies`: an array appending it gets exactly the base's elements, in order,
/// whether the base has contiguous storage (copied in place) or not (copied step by step), and
/// whatever part of the array's reserved room the copy fills; every copy retained once.
@Suite struct ElementwiseCopiesTests {
    /// Counts its live instances, so a lost or doubled copy shows.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.alive += 1
        }
        deinit { Tracked.alive -= 1 }
    }

    @Test func appendsTheElementsOfAContiguousBase() {
        let strings = (0..<100).map { "identifier number \($0), long enough to be stored on the heap" }
        var column: ContiguousArray<String> = ["first"]
        column.append(contentsOf: ElementwiseCopies(strings))
        #expect(Array(column) == ["first"] + strings)
    }

    @Test func appendsTheElementsOfABaseWithoutContiguousStorage() {
        // A lazy filter: no contiguous storage, an underestimated count of 0.
        let strings = (0..<50).map { "value \($0)" }
        var column: ContiguousArray<String> = []
        column.append(contentsOf: ElementwiseCopies(strings.lazy.filter { $0.hasSuffix("7") }))
        #expect(Array(column) == strings.filter { $0.hasSuffix("7") })
    }

    @Test func copiesIntoPartOfABufferAndIteratesTheRest() {
        let base = ["a", "b", "c", "d", "e"]
        let buffer = UnsafeMutableBufferPointer<String>.allocate(capacity: 3)
        defer { buffer.deallocate() }
        var (rest, copied) = ElementwiseCopies(base)._copyContents(initializing: buffer)
        #expect(copied == 3)
        #expect(Array(buffer) == ["a", "b", "c"])
        var remaining: [String] = []
        while let next = rest.next() { remaining.append(next) }
        #expect(remaining == ["d", "e"])
        _ = buffer.baseAddress!.deinitialize(count: copied)
    }

    @Test func everyCopyIsReleasedWithTheArray() {
        let before = Tracked.alive
        do {
            let objects = (0..<20).map(Tracked.init)
            var column: ContiguousArray<Tracked> = []
            column.append(contentsOf: ElementwiseCopies(objects))
            #expect(column.map(\.value) == Array(0..<20))
            #expect(Tracked.alive == before + 20)
        }
        #expect(Tracked.alive == before)
    }
}
