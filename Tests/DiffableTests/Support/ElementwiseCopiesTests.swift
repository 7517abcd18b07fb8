import Testing

@testable import Diffable

/// `ElementwiseCopies`: an array appending it gets exactly the base's elements, in order,
/// whether the base has contiguous storage (copied in place) or not (copied step by step), and
/// whatever part of the array's reserved room the copy fills; each copy one reference.
@Suite struct ElementwiseCopiesTests {
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

    /// The column holds its own reference to each object (the originals gone, all alive) and
    /// no more than one (the column gone, none alive).
    @Test func eachCopyIsOneReferenceTheColumnHolds() {
        final class Box {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        var column: ContiguousArray<Box> = []
        var alive: [() -> Box?] = []
        do {
            let boxes = (0..<20).map(Box.init)
            alive = boxes.map { box in { [weak box] in box } }
            column.append(contentsOf: ElementwiseCopies(boxes))
        }
        #expect(alive.allSatisfy { $0() != nil })
        #expect(column.map(\.value) == Array(0..<20))
        column = []
        #expect(alive.allSatisfy { $0() == nil })
    }
}
