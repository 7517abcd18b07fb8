import Foundation
import Testing

@testable import Diffable

/// The per-type cache behind ``KeyStrategy/userStrategy(_:)`` and ``KeyStability``: each type's
/// answer (0...3) decided once, and no type ever handed another type's answer, whether it is
/// read from the two lock-free words or from the dictionary, from one thread or many.
@Suite struct TypeAnswerCacheTests {
    /// Types with known answers: the answer is the index modulo 4.
    static let types: [Any.Type] = [
        Int.self, String.self, UUID.self, Double.self, Int8.self, Int16.self, Int32.self, UInt.self, UInt8.self, Bool.self,
        [Int].self, [String].self, Set<Int>.self, Character.self, Substring.self, Float.self,
    ]

    static func expected(_ type: Any.Type) -> UInt8 {
        UInt8(types.firstIndex { ObjectIdentifier($0) == ObjectIdentifier(type) }! % 4)
    }

    @Test func eachTypeIsDecidedOnceAndKeepsItsAnswer() {
        let decisions = Locked([ObjectIdentifier: Int]())
        let cache = TypeAnswerCache(choosing: { type in
            decisions.withLock { $0[ObjectIdentifier(type), default: 0] += 1 }
            return Self.expected(type)
        })
        // Alternating two types (the lock-free words), then cycling through all (the dictionary).
        for _ in 0..<10 {
            #expect(cache.choice(for: Int.self) == 0 && cache.choice(for: UUID.self) == 2)
        }
        for round in 0..<5 {
            for type in Self.types { #expect(cache.choice(for: type) == Self.expected(type), "round \(round), \(type)") }
        }
        #expect(decisions.withLock { $0.values.allSatisfy { $0 == 1 } && $0.count == Self.types.count })
        let yesOrNo = TypeAnswerCache { $0 == String.self }
        #expect(yesOrNo.answer(for: String.self) && !yesOrNo.answer(for: Int.self) && yesOrNo.answer(for: String.self))
    }

    @Test func threadsNeverSeeAnotherTypesAnswer() {
        let cache = TypeAnswerCache(choosing: { Self.expected($0) })
        let wrong = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var local = 0
            for step in 0..<20_000 {
                let type = Self.types[(step * (worker + 1)) % Self.types.count]
                if cache.choice(for: type) != Self.expected(type) { local += 1 }
            }
            wrong.withLock { $0 += local }
        }
        #expect(wrong.withLock { $0 } == 0)
    }
}
