import DiffableTools
import Testing

@testable import Diffable

/// `mapped(_:)`, the library's `map` for code not specialized for the element types: the
/// same results as `map`, and on a throw, every element made so far destroyed exactly once.
@Suite struct MappedTests {
    /// Counts its live instances, so a leak or a double destroy shows.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.alive += 1
        }
        deinit { Tracked.alive -= 1 }
    }

    struct Stop: Error {}

    /// Generic, so that the calls below run the unspecialized path an app's types take.
    @inline(never)
    static func both<T>(_ values: [T], _ transform: (T) -> String) -> (mapped: [String], map: [String]) {
        (values.mapped(transform), values.map(transform))
    }

    @Test func equalsMapOnArraysContiguousArraysAndBuffers() {
        var generator = SplitMix64(seed: 7)
        for count in [0, 1, 2, 17, 1_000] {
            let values = (0..<count).map { _ in Int.random(in: -1_000...1_000, using: &generator) }
            let results = Self.both(values) { "<\($0)>" }
            #expect(results.mapped == results.map)
            #expect(ContiguousArray(values).mapped { $0 * 3 } == values.map { $0 * 3 })
            #expect(values.withUnsafeBufferPointer { $0.mapped { $0 - 1 } } == values.map { $0 - 1 })
        }
    }

    @Test(.serialized, arguments: [0, 1, 5, 63])
    func aThrowDestroysWhatWasMade(throwingAt stop: Int) {
        let before = Tracked.alive
        let values = Array(0..<64)
        #expect(throws: Stop.self) {
            _ = try values.mapped { value -> Tracked in
                if value == stop { throw Stop() }
                return Tracked(value)
            }
        }
        #expect(Tracked.alive == before)
        let made = values.mapped { Tracked($0) }
        #expect(made.map(\.value) == values)
        #expect(Tracked.alive == before + values.count)
    }
}
