import Testing

@testable import Diffable

/// The pool hands the warm context back, so a repeated diff allocates nothing in C,
/// and it never keeps more than its limits.
@Suite struct DiffContextPoolTests {
    static let pair: (old: RandomSnapshots.Snapshot, new: RandomSnapshots.Snapshot) = {
        var items = (0..<5_000).map { "i\($0)" }
        let old = RandomSnapshots.build([("A", items), ("B", ["b"])])
        var generator = SeededGenerator(seed: 8)
        items.shuffle(using: &generator)
        return (old, RandomSnapshots.build([("B", ["b", "x"]), ("A", items)]))
    }()

    @Test func aRepeatedDiffGetsTheWarmContextBackAndAllocatesNothing() {
        let pool = DiffContextPool()
        let (first, allocationsAfterFirst) = pool.withContext { context in
            _ = context.diffSnapshots(old: Self.pair.old, new: Self.pair.new)
            return (ObjectIdentifier(context), context.allocationCount)
        }
        let (second, allocationsBefore, allocationsAfter) = pool.withContext { context in
            let before = context.allocationCount
            _ = context.diffSnapshots(old: Self.pair.old, new: Self.pair.new)
            return (ObjectIdentifier(context), before, context.allocationCount)
        }
        #expect(first == second)
        #expect(allocationsBefore == allocationsAfterFirst && allocationsAfter == allocationsBefore)
    }

    @Test func aContextLargerThanTheLimitIsNotKept() {
        let pool = DiffContextPool(retainedByteLimit: 64 << 10)
        pool.withContext { context in
            _ = context.diffSnapshots(old: Self.pair.old, new: Self.pair.new)
            #expect(context.byteCount > 64 << 10)
        }
        #expect(pool.idleCount == 0)
        pool.withContext { _ in }  // a context that never diffed holds a few hundred bytes
        #expect(pool.idleCount == 1)
    }

    @Test func theLeastRecentlyUsedContextsGoFirst() {
        let pool = DiffContextPool(retainedByteLimit: 1 << 30, retainedContextLimit: 2)
        // Three diffs at once need three contexts; only the two returned last are kept.
        pool.withContext { a in
            pool.withContext { b in
                pool.withContext { c in
                    for context in [a, b, c] { _ = context.diffSnapshots(old: Self.pair.old, new: Self.pair.new) }
                }
            }
        }
        #expect(pool.idleCount == 2)
    }
}
