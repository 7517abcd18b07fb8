import DiffableTools
import Foundation
import Testing

@testable import Diffable

/// `IdentifierArray`: identifiers holding references kept as bits, owned by the arrays they
/// came from. Each test checks what a wrong owner bookkeeping would break: a value read after
/// its owners are gone (a crash or a wrong value), an object kept alive by nobody's identifier
/// (owners never let go), or an object never freed (a leak).
@Suite struct IdentifierArrayTests {
    /// An object whose lifetime the tests watch; identifiers hold it.
    final class Token {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// An identifier holding a reference, 9 bytes in a 16-byte stride (padding after the flag).
    struct Tagged: Hashable {
        var token: Token
        var flag: Bool
        static func == (left: Tagged, right: Tagged) -> Bool { left.token === right.token && left.flag == right.flag }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(token)) }
    }

    /// A value of 17 bytes in a 24-byte stride.
    struct AppendedPadding: Hashable {
        var name: String
        var flag: Bool
    }

    /// Weak references to every token made, to count the live ones.
    final class Watch {
        private var refs: [() -> Token?] = []
        func make(_ value: Int) -> Tagged {
            let token = Token(value)
            refs.append { [weak token] in token }
            return Tagged(token: token, flag: value % 2 == 0)
        }
        var alive: Int { refs.reduce(0) { $0 + ($1() == nil ? 0 : 1) } }
    }

    @Test func layoutsFollowTheType() {
        #expect(!IdentifierArray<Int>.storesBits)
        #expect(!IdentifierArray<UUID>.storesBits)
        #expect(IdentifierArray<String>.storesBits)
        #expect(IdentifierArray<Tagged>.storesBits)
        #expect(IdentifierArray<Tagged>.wordsPerID == 2)
        #expect(IdentifierArray<AppendedPadding>.wordsPerID == 3)
    }

    @Test func appendsReadBackInOrder() {
        let strings = (0..<300).map { "identifier number \($0), long enough for the heap" }
        var ids = IdentifierArray<String>()
        ids.append("first")
        ids.append(Array(strings[..<100]), sharing: true)
        ids.append(contentsOf: strings[100...].lazy.map { $0 })
        #expect(ids.count == 301)
        #expect(Array(ids) == ["first"] + strings)
        #expect(ids[300] == strings[299])
        #expect(ids.withUnsafeBufferPointer { Array($0) } == ["first"] + strings)
    }

    @Test func singleAppendsOfPaddedValuesReadBack() {
        let values = (0..<40).map { AppendedPadding(name: "padded value \($0), long enough for the heap", flag: $0 % 3 == 0) }
        var ids = IdentifierArray<AppendedPadding>()
        for value in values { ids.append(value) }
        ids.append(Array(values.reversed()), sharing: false)
        #expect(Array(ids) == values + values.reversed())
        #expect(ids[39] == values[39])
    }

    /// The caller's arrays gone, every identifier is still readable and its object alive; the
    /// array gone, every object is freed.
    @Test func ownersKeepIdentifiersAliveAndNoLonger() {
        let watch = Watch()
        var ids = IdentifierArray<Tagged>()
        do {
            let batch = (0..<50).map(watch.make)
            ids.append(batch, sharing: true)
            ids.append(watch.make(50))
            ids.append(contentsOf: (51..<60).map(watch.make))
        }
        #expect(watch.alive == 60)
        #expect(ids.map(\.token.value) == Array(0..<60))
        #expect(ids.map(\.flag) == (0..<60).map { $0 % 2 == 0 })
        ids = IdentifierArray()
        #expect(watch.alive == 0)
    }

    /// Dropped identifiers stay owned until the owners hold more than twice the live ones plus
    /// the allowance; then only the live ones stay alive. (An array taken whole by an empty
    /// array is its own until the next write, and a truncation of it frees what it drops.)
    @Test func ownersAreLetGoOnceMostAreDropped() {
        let watch = Watch()
        let total = 4 * IdentifierArray<Tagged>.ownedAllowance
        var ids = IdentifierArray<Tagged>()
        ids.append(watch.make(-1))
        ids.append((0..<total).map(watch.make), sharing: true)
        ids.truncate(to: total / 2)
        #expect(watch.alive == total + 1)  // under the limit: 2 * total/2 + allowance > total + 1
        ids.truncate(to: 10)
        #expect(watch.alive == 10)
        #expect(ids.map(\.token.value) == [-1] + Array(0..<9))

        var taken = IdentifierArray<Tagged>()
        taken.append((0..<100).map(watch.make), sharing: true)
        taken.truncate(to: 30)
        #expect(watch.alive == 10 + 30)

        // An array taken whole, then written: its identifiers count as owned, so dropping
        // most of them lets it go as it would an owner appended later.
        var converted = IdentifierArray<Tagged>()
        converted.append((0..<total).map(watch.make), sharing: true)
        converted.append(watch.make(total))
        converted.truncate(to: 5)
        #expect(watch.alive == 10 + 30 + 5)
        #expect(converted.map(\.token.value) == Array(0..<5))
        ids.removeAll()
        taken.removeAll()
        converted.removeAll()
        #expect(watch.alive == 0)
    }

    /// A copy shares the owners: each side stays valid when the other changes or goes away.
    @Test func copiesStayValidOnTheirOwn() {
        let watch = Watch()
        var first = IdentifierArray<Tagged>()
        first.append((0..<20).map(watch.make), sharing: true)
        var second = first
        second.append(watch.make(20))
        second.swapAt(0, 20)
        first.truncate(to: 5)
        #expect(first.map(\.token.value) == Array(0..<5))
        #expect(second.map(\.token.value) == [20] + Array(1..<20) + [0])
        first = IdentifierArray()
        #expect(second.map(\.token.value) == [20] + Array(1..<20) + [0])
        var owned = second.ownedCopy()
        second = IdentifierArray()
        owned.append(watch.make(21))
        #expect(owned.map(\.token.value) == [20] + Array(1..<20) + [0, 21])
        owned = IdentifierArray()
        #expect(watch.alive == 0)
    }

    /// Identifiers replacing a range are copied once into an owner of their own: the caller's
    /// values gone, they read back, and the ones replaced stay alive only while owned.
    @Test func replacementsOwnTheirCopies() {
        let watch = Watch()
        var target = IdentifierArray<Tagged>()
        target.append(watch.make(-1))
        target.append((100..<105).map(watch.make), sharing: true)
        target.replaceSubrange(2..<4, with: (10..<20).map(watch.make))
        #expect(target.map(\.token.value) == [-1, 100] + Array(10..<20) + [103, 104])
        target.replaceSubrange(0..<1, with: [watch.make(200)])
        target.replaceSubrange(1..<11, with: EmptyCollection())
        #expect(target.map(\.token.value) == [200, 19, 103, 104])
        target = IdentifierArray()
        #expect(watch.alive == 0)
    }

    /// Moves over the borrowed storage copy bits for identifiers kept as bits and assign for
    /// the others; either way, what is read back is the source, and nothing is freed early.
    @Test func copiesWithinTheStorage() {
        let watch = Watch()
        var ids = IdentifierArray<Tagged>()
        ids.append((0..<8).map(watch.make), sharing: true)
        ids.withUnsafeMutableStorage { storage in
            storage.copy(from: 7, to: 2)
            storage.copy(from: 6, to: 3)
        }
        ids.truncate(to: 6)
        #expect(ids.map(\.token.value) == [0, 1, 7, 6, 4, 5])
        var numbers = IdentifierArray<Int>()
        numbers.append([10, 11, 12], sharing: false)
        numbers.withUnsafeMutableStorage { $0.copy(from: 2, to: 0) }
        #expect(Array(numbers) == [12, 11, 12])
        var kept = IdentifierArray<Tagged>()
        kept.append((0..<4).map(watch.make), sharing: true, asBits: false)
        kept.append(watch.make(4), asBits: false)
        kept.withUnsafeMutableStorage(asBits: false) { $0.copy(from: 3, to: 1) }
        kept.truncate(to: 3, asBits: false)
        #expect(kept.map(\.token.value) == [0, 3, 2])
        #expect(kept.bits == nil)
        kept = IdentifierArray()
        ids = IdentifierArray()
        #expect(watch.alive == 0)
    }

    /// Random changes against a plain array: the same identifiers after every step, objects
    /// alive at most twice the live identifiers plus the allowance once the plain array is
    /// gone, and none after.
    /// The same with identifiers kept as values (an outline's column): no bits ever.
    @Test(arguments: [1, 2, 3] as [UInt64], [false, true])
    func randomChangesMatchAPlainArray(seed: UInt64, keepingValues: Bool) {
        let watch = Watch()
        var generator = SplitMix64(seed: seed)
        var ids = IdentifierArray<Tagged>()
        let asBits = !keepingValues
        var model: [Tagged] = []
        var next = 0
        for _ in 0..<400 {
            switch generator.next() % 6 {
            case 0:
                let first = next + 1
                next += Int(generator.next() % 200)
                let batch = (first..<next + 1).map(watch.make)
                ids.append(batch, sharing: true, asBits: asBits)
                model += batch
            case 1:
                let one = watch.make(next + 1)
                next += 1
                ids.append(one, asBits: asBits)
                model.append(one)
            case 2 where !model.isEmpty:
                let keep = Int(generator.next() % UInt64(model.count))
                ids.truncate(to: keep, asBits: asBits)
                model.removeLast(model.count - keep)
            case 3 where model.count > 1:
                let (i, j) = (Int(generator.next() % UInt64(model.count)), Int(generator.next() % UInt64(model.count)))
                ids.swapAt(i, j, asBits: asBits)
                model.swapAt(i, j)
            case 4 where !model.isEmpty:
                let lower = Int(generator.next() % UInt64(model.count))
                let upper = lower + Int(generator.next() % UInt64(model.count - lower + 1))
                let part = Array(model[lower..<upper])
                let at = Int(generator.next() % UInt64(model.count + 1))
                ids.replaceSubrange(at..<at, with: part, asBits: asBits)
                model.insert(contentsOf: part, at: at)
            default:
                ids = ids.ownedCopy()
            }
            #expect(ids.elementsEqual(model))
        }
        #expect(!keepingValues || ids.bits == nil)
        let live = model.count
        model = []
        #expect(watch.alive <= 2 * live + IdentifierArray<Tagged>.ownedAllowance + 200)
        #expect(ids.count == live)
        ids = IdentifierArray()
        #expect(watch.alive == 0)
    }
}

/// The writes of a column whose identifiers become bits when their type allows (a flat
/// snapshot's), for the tests above.
extension IdentifierArray {
    fileprivate mutating func append(_ id: ID) { append(id, asBits: true) }
    fileprivate mutating func append(_ newIDs: [ID], sharing: Bool) { append(newIDs, sharing: sharing, asBits: true) }
    fileprivate mutating func append(contentsOf newIDs: some Collection<ID>) { append(contentsOf: newIDs, asBits: true) }
    fileprivate mutating func truncate(to count: Int) { truncate(to: count, asBits: true) }
    fileprivate mutating func swapAt(_ i: Int, _ j: Int) { swapAt(i, j, asBits: true) }
    fileprivate mutating func replaceSubrange(_ range: Range<Int>, with newIDs: some Collection<ID>) {
        replaceSubrange(range, with: newIDs, asBits: true)
    }
    fileprivate mutating func withUnsafeMutableStorage<R>(_ body: (MutableStorage) -> R) -> R {
        withUnsafeMutableStorage(asBits: true, body)
    }
}
