import DiffableTools
import Foundation
import Testing

@testable import Diffable

/// Doubling N must about double the work: every `hash(into:)` and `==` on the identifiers is
/// counted (not timed) through snapshot building, the diff, deletes, moves, lookups and the
/// outline operations, so a step that is quadratic in these calls fails wherever it runs.
@Suite(.serialized) struct LinearityTests {
    /// An identifier that counts the calls made on it.
    struct Counted: Hashable, Sendable {
        let value: Int
        static let calls = Locked(0)

        static func == (left: Counted, right: Counted) -> Bool {
            calls.withLock { $0 += 1 }
            return left.value == right.value
        }

        func hash(into hasher: inout Hasher) {
            Counted.calls.withLock { $0 += 1 }
            hasher.combine(value)
        }
    }

    static func calls(_ body: () -> Void) -> Int {
        Counted.calls.withLock { $0 = 0 }
        body()
        return Counted.calls.withLock { $0 }
    }

    /// The calls of one full workload at `n` items (sizes above the checked builds' invariant
    /// limit, so the O(n)-per-mutation checks of a test build do not count).
    static func workload(_ n: Int) -> Int {
        calls {
            let sections = n / 100
            var generator = SplitMix64(seed: 17)
            var old = DiffableDataSourceSnapshot<Int, Counted>()
            old.appendSections(Array(0..<sections))
            for section in 0..<sections {
                old.appendItems((section * 100..<section * 100 + 100).map(Counted.init), toSection: section)
            }
            var new = old
            let all = old.itemIdentifiers
            new.deleteItems((0..<n / 20).map { _ in all[Int.random(in: 0..<n, using: &generator)] })
            for step in 0..<n / 20 {
                let item = all[Int.random(in: 0..<n, using: &generator)], anchor = all[Int.random(in: 0..<n, using: &generator)]
                if item != anchor, new.indexOfItem(item) != nil, new.indexOfItem(anchor) != nil {
                    new.moveItem(item, afterItem: anchor)
                }
                if step % 10 == 0 { new.appendItems([Counted(value: n + step)], toSection: step % sections) }
            }
            _ = new.difference(from: old)
            for item in all.prefix(n / 10) { _ = new.indexOfItem(item) }

            var outline = DiffableDataSourceSectionSnapshot<Counted>()
            let roots = (0..<n / 100).map { Counted(value: 2 * n + $0) }
            outline.append(roots)
            for (index, root) in roots.enumerated() {
                outline.append((0..<99).map { Counted(value: 3 * n + index * 99 + $0) }, to: root)
            }
            var expanded = outline
            expanded.expand(roots)
            _ = expanded.visibleItems
            _ = expanded.difference(from: outline)
        }
    }

    @Test func doublingTheItemsAboutDoublesTheIdentifierCalls() {
        let sizes = [60_000, 120_000, 240_000]
        let counts = sizes.map(Self.workload)
        print("LinearityTests: identifier calls \(zip(sizes, counts).map { "\($0): \($1)" }.joined(separator: ", "))")
        for (smaller, larger) in zip(counts, counts.dropFirst()) {
            #expect(Double(larger) / Double(smaller) < 2.6, "calls \(smaller) → \(larger) when N doubles: a step grows faster than N")
        }
    }
}
