import DiffableTesting
import Foundation
import Testing

@testable import Diffable

// Identifier types that bend or break `Hashable` (docs/RELIABILITY_METHOD.md). docs/HASHABLE.md states
// what the engine requires of identifiers, what it detects and what it cannot.

/// Hashes into `buckets` distinct values (1: constant) and counts every `==` and `hash(into:)`.
struct Bucketed: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    let buckets: Int
    static let calls = Locked(0)

    static func == (left: Bucketed, right: Bucketed) -> Bool {
        calls.withLock { $0 += 1 }
        return left.value == right.value
    }

    func hash(into hasher: inout Hasher) {
        Bucketed.calls.withLock { $0 += 1 }
        hasher.combine(value % buckets)
    }

    var description: String { "b\(value)" }
}

/// A reference identifier hashed by a mutable field: mutating it after insertion changes its hash.
final class Box: Hashable, @unchecked Sendable, CustomStringConvertible {
    var value: Int
    init(_ value: Int) { self.value = value }
    static func == (left: Box, right: Box) -> Bool { left.value == right.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
    var description: String { "Box(\(value))" }
}

/// Equal values with different (but stable) hashes: `==` ignores `salt`, the hash does not.
struct Salted: Hashable, Sendable {
    let value: Int
    let salt: Int
    static func == (left: Salted, right: Salted) -> Bool { left.value == right.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value * 1_000 + salt) }
}

/// A hash that is not a function of the value: every call hashes something new.
struct Unstable: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    static let draws = Locked(0)
    func hash(into hasher: inout Hasher) {
        let draw = Unstable.draws.withLock { count in
            count += 1
            return count
        }
        hasher.combine(draw)
    }
    var description: String { "u\(value)" }
}

/// A `Double` wrapper with synthesized conformances: `.nan` is unequal to itself.
struct Measurement: Hashable, Sendable {
    let value: Double
}

@Suite(.serialized) struct HostileIdentifierTests {
    typealias Snapshot<Item: Hashable> = DiffableDataSourceSnapshot<Int, Item>

    static func calls(_ body: () -> Void) -> Int {
        Bucketed.calls.withLock { $0 = 0 }
        body()
        return Bucketed.calls.withLock { $0 }
    }

    /// Builds, edits, queries and diffs `n` items hashed into `buckets` values; checks the result
    /// against a plain array (nothing merged, lost or duplicated) and returns the identifier calls.
    static func workload(_ n: Int, buckets: Int) -> Int {
        let items = (0..<n).map { Bucketed(value: $0, buckets: buckets) }
        var snapshot = Snapshot<Bucketed>()
        var expected: [Bucketed] = []
        let last = (n - 1) % 7 == 0 ? n - 2 : n - 1  // the last item the deletes below keep
        let count = calls {
            snapshot.appendSections([0, 1])
            snapshot.appendItems(Array(items[..<(n / 2)]), toSection: 0)
            for item in items[(n / 2)...] { snapshot.appendItems([item], toSection: 1) }
            let old = snapshot
            snapshot.deleteItems(stride(from: 0, to: n, by: 7).map { items[$0] })
            snapshot.moveItem(items[1], afterItem: items[last])
            snapshot.insertItems([Bucketed(value: n, buckets: buckets)], beforeItem: items[2])
            snapshot.reloadItems([items[3]])
            for item in items.prefix(10) { _ = snapshot.indexOfItem(item) }
            _ = snapshot.difference(from: old)
        }
        expected = items.enumerated().filter { $0.offset % 7 != 0 }.map(\.element)
        expected.removeAll { $0.value == 1 }
        expected.insert(items[1], at: expected.firstIndex(of: items[last])! + 1)
        expected.insert(Bucketed(value: n, buckets: buckets), at: expected.firstIndex(of: items[2])!)
        #expect(snapshot.itemIdentifiers.map(\.value) == expected.map(\.value), "buckets \(buckets): items merged, lost or moved")
        #expect(Set(snapshot.itemIdentifiers.map(\.value)).count == snapshot.numberOfItems)
        #expect(snapshot.indexOfItem(items[last]) == expected.firstIndex(of: items[last]))
        return count
    }

    @Test func collisionsCostWhatTheDocumentedWorstCaseSays() {
        // docs/HASHABLE.md: with b distinct hash values, a lookup among m identifiers makes at most
        // about m/b `==` calls (all of them when b = 1), so this workload is O(n²/b) — quadratic, never worse.
        let n = 400
        let constant = [n, 2 * n].map { Self.workload($0, buckets: 1) }
        let two = Self.workload(n, buckets: 2), sixtyFour = Self.workload(n, buckets: 64)
        print(
            "HostileIdentifierTests: identifier calls at n=\(n): constant \(constant[0]) (2n: \(constant[1])), "
                + "2 values \(two), 64 values \(sixtyFour)")
        #expect(constant[0] <= 2 * n * n, "constant hash: \(constant[0]) calls for \(n) items, documented bound 2n²")
        #expect(Double(constant[1]) / Double(constant[0]) < 4.5, "doubling n must at most quadruple the work")
        #expect(two < constant[0] * 3 / 4, "two hash values must about halve the collisions")
        #expect(sixtyFour < constant[0] / 16, "64 hash values: \(sixtyFour) calls against \(constant[0]) for one")
    }

    @Test func collidingHashesAgreeWithTheModels() {
        SnapshotModelTests.run(seed: 21, rounds: 40, steps: 40) { Bucketed(value: $0, buckets: 2) }
        SnapshotModelTests.run(seed: 22, rounds: 40, steps: 40) { Bucketed(value: $0, buckets: 64) }
        SectionSnapshotModelTests.run(seed: 23, rounds: 60, steps: 30) { Bucketed(value: $0, buckets: 2) }
        SectionSnapshotModelTests.run(seed: 24, rounds: 30, steps: 30) { Bucketed(value: $0, buckets: 1) }
    }

    @Test func constantHashesApplyToTheStrictView() {
        let harness = DataSourceHarness<Int, Bucketed>()
        var generator = SeededGenerator(seed: 25)
        for _ in 0..<30 {
            let sections = Array(0..<Int.random(in: 1...3, using: &generator))
            let pool = (0..<40).map { Bucketed(value: $0, buckets: 1) }.shuffled(using: &generator)
            var items: [[Bucketed]] = []
            var next = 0
            for _ in sections {
                let count = Int.random(in: 0...10, using: &generator)
                items.append(Array(pool[next..<(next + count)]))
                next += count
            }
            harness.dataSource.apply(.build(sections, items), completion: nil)
            #expect(harness.problem() == nil)
        }
    }

    // MARK: == not reflexive

    @Test func nanIdentifiersAreDistinctLikeDictionaryKeys() {
        // Swift's Dictionary never finds a NaN key again, so each insertion adds one: the engine agrees.
        var dictionary: [Double: Int] = [:]
        dictionary[.nan] = 1
        dictionary[.nan] = 2
        #expect(dictionary.count == 2)

        var snapshot = Snapshot<Double>()
        snapshot.appendSections([0])
        snapshot.appendItems([.nan, 1, .nan])
        #expect(snapshot.numberOfItems == 3)
        #expect(snapshot.indexOfItem(.nan) == nil && snapshot.indexOfItem(1) == 1)
        snapshot.deleteItems([.nan])
        #expect(snapshot.numberOfItems == 3, "a NaN is never found, so never deleted by identifier")
        #expect(throws: SnapshotError.unknownItems(["nan"])) { try snapshot.tryMoveItem(.nan, afterItem: 1) }
        #expect(throws: SnapshotError.unknownItems(["nan"])) { try snapshot.tryReloadItems([.nan]) }
        // A diff never matches a NaN: it is deleted and inserted again, in a valid batch.
        var next = snapshot
        next.deleteItems([1])
        next.appendItems([2])
        let difference = next.difference(from: snapshot)
        #expect(difference.structuralBatch?.deleteItems.count == 3 && difference.structuralBatch?.insertItems.count == 3)
        let validated = try? DiffableDataSourceSnapshot<Int, Double>(validating: [(0, [.nan, .nan, 3])])
        #expect(validated?.numberOfItems == 3)
        snapshot.deleteSections([0])
        #expect(snapshot.numberOfItems == 0)

        var wrapped = Snapshot<Measurement>()
        wrapped.appendSections([0])
        wrapped.appendItems([Measurement(value: .nan), Measurement(value: .nan)])
        #expect(wrapped.numberOfItems == 2 && wrapped.indexOfItem(Measurement(value: .nan)) == nil)

        var outline = DiffableDataSourceSectionSnapshot<Double>()
        outline.append([.nan, 1])
        outline.append([.nan], to: 1)
        #expect(outline.items.count == 3 && !outline.contains(.nan) && outline.contains(1))
    }

    @Test func nanIdentifiersApplyToTheStrictView() {
        // Cells are the identifiers' bit patterns: the strict view compares cells with ==, and a
        // NaN cell would never equal itself.
        let queue = DispatchQueue(label: "view")
        let view = SimulatedListView<UInt64>(policy: .record)
        view.executor = .queue(queue)
        let dataSource = DiffableDataSource<Int, Double, UInt64>(view: view, executor: .queue(queue)) { _, item in item.bitPattern }
        for items: [Double] in [[.nan, 1], [1, .nan, .nan], [.nan], [2, .nan]] {
            dataSource.apply(.build([0], [items]), completion: nil)
            queue.sync {
                #expect(view.violations.isEmpty, "\(view.violations)")
                #expect(view.rows == [items.map(\.bitPattern)])
            }
        }
    }

    // MARK: a hash that changes after insertion

    @Test func aMutatedReferenceIsReportedByName() {
        let (a, b, c) = (Box(1), Box(2), Box(3))
        var snapshot = Snapshot<Box>()
        snapshot.appendSections([0, 1])
        snapshot.appendItems([a, b], toSection: 0)
        snapshot.appendItems([c], toSection: 1)
        b.value = 20
        // Never lost: it stays where it is, counted and listed; only its lookups miss.
        #expect(snapshot.numberOfItems == 3 && snapshot.itemIdentifiers.map(\.value) == [1, 20, 3])
        #expect(snapshot.indexOfItem(b) == nil)
        let expected = SnapshotError.inconsistentHashing(sections: [], items: [.init(identifier: "Box(20)", positions: [[0, 1]])])
        #expect(throws: expected) { try snapshot.tryMoveItem(b, afterItem: c) }
        #expect(throws: expected) { try snapshot.tryReloadItems([b]) }
        #expect(throws: expected) { try snapshot.tryInsertItems([Box(9)], afterItem: b) }
        #expect(expected.description.contains("are equal but have different hash values"))
        #expect(expected.description.contains("item Box(20) at [0, 1]"))
        // Appending it again stores the object a second time; the check names the stale copy.
        snapshot.appendItems([b], toSection: 1)
        #expect(snapshot.itemIdentifiers.map(\.value) == [1, 20, 3, 20])
        let (sections, items) = snapshot.storage.hashMismatches()
        #expect(sections.isEmpty && items == [.init(identifier: "Box(20)", positions: [[0, 1], [1, 1]])])
        // Sections: the same report.
        let d = Box(7)
        var bySection = DiffableDataSourceSnapshot<Box, Int>()
        bySection.appendSections([d])
        d.value = 70
        #expect(throws: SnapshotError.inconsistentHashing(sections: [.init(identifier: "Box(70)", positions: [[0]])], items: [])) {
            try bySection.tryAppendItems([1], toSection: d)
        }
        #expect(bySection.storage.hashMismatches().sections == [.init(identifier: "Box(70)", positions: [[0]])])
    }

    // MARK: equal values, different hash values

    @Test func aNonDeterministicHashIsRejectedByTheValidatingInitializers() {
        let items = (0..<5).map(Unstable.init)
        do {
            _ = try DiffableDataSourceSnapshot<Int, Unstable>(validating: [(0, Array(items[..<2])), (1, Array(items[2...]))])
            Issue.record("a hash that changes on every call was accepted")
        } catch {
            guard case .inconsistentHashing(let sections, let found) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(sections.isEmpty)
            #expect(found.map(\.identifier) == ["u0", "u1", "u2", "u3", "u4"])
            #expect(found.map(\.positions) == [[[0, 0]], [[0, 1]], [[1, 0]], [[1, 1]], [[1, 2]]])
        }
        #expect(throws: SectionSnapshotError.self) {
            _ = try DiffableDataSourceSectionSnapshot<Unstable>(validating: [(items[0], nil), (items[1], items[0])])
        }
        do {
            _ = try DiffableDataSourceSectionSnapshot<Unstable>(validating: [(items[0], nil)])
        } catch {
            #expect(error.problems == [.inconsistentHashing("u0", positions: [0])])
            #expect(error.description.contains("u0 at [0] is equal to itself but has different hash values"))
        }
        // The mutating API keeps every one of them: never lost or merged, only never found again.
        var snapshot = Snapshot<Unstable>()
        snapshot.appendSections([0])
        snapshot.appendItems(items)
        for item in items { snapshot.appendItems([item]) }
        #expect(snapshot.numberOfItems == 10)
        #expect(snapshot.storage.hashMismatches().items.count == 10)
    }

    @Test func equalValuesWithStableDifferentHashesStayTwoIdentifiers() {
        // Undetectable in O(n) (docs/HASHABLE.md): the engine only ever compares identifiers whose
        // hash values are equal, so these two are two identifiers everywhere, consistently.
        let (x, y) = (Salted(value: 1, salt: 0), Salted(value: 1, salt: 1))
        var snapshot = Snapshot<Salted>()
        snapshot.appendSections([0])
        snapshot.appendItems([x, y])
        #expect(snapshot.numberOfItems == 2 && snapshot.indexOfItem(x) == 0 && snapshot.indexOfItem(y) == 1)
        let validated = try? DiffableDataSourceSnapshot<Int, Salted>(validating: [(0, [x, y])])
        #expect(validated?.numberOfItems == 2)
        var next = Snapshot<Salted>()
        next.appendSections([0])
        next.appendItems([y])
        let difference = next.difference(from: snapshot)
        #expect(difference.structuralBatch?.deleteItems == [IndexPath(item: 0, section: 0)])
        let harness = DataSourceHarness<Int, Salted>()
        for items in [[x, y], [y], [x], [y, x]] {
            harness.dataSource.apply(.build([0], [items]), completion: nil)
            #expect(harness.onView { $0.violations.isEmpty })
            #expect(harness.shownItems().map { $0.map(\.salt) } == [items.map(\.salt)])
        }
    }
}

/// The `apply` report. The diagnostics handler is global and other suites listen in parallel
/// (through `DiagnosticsListeners`), so events are also checked through what produces them
/// (`hashMismatches()`), and this test's own events are picked out by identifier. The applies are awaited: made off the
/// view's queue, a batch may still be queued when a plain `apply` returns.
@Suite struct HostileApplyReportTests {
    @Test func applyReportsAMutatedReferenceAndKeepsTheViewConsistent() async {
        let harness = DataSourceHarness<Int, Box>()
        let (a, b, c) = (Box(1), Box(2), Box(3))
        var snapshot = DiffableDataSourceSnapshot<Int, Box>()
        snapshot.appendSections([0])
        snapshot.appendItems([a, b, c])
        await harness.dataSource.apply(snapshot)
        b.value = 4_020
        var next = snapshot
        next.appendItems([b])
        #expect(next.storage.hashMismatches().items == [.init(identifier: "Box(4020)", positions: [[0, 1], [0, 3]])])
        let ((), events) = await DiagnosticsListeners.collectAwaiting { await harness.dataSource.apply(next) }
        let rows = harness.onView { view in view.rows.flatMap { $0 } }.compactMap { cell -> String? in
            guard case .row(let box) = cell else { return nil }
            return box.description
        }
        #expect(harness.onView(\.violations).isEmpty)
        #expect(rows == ["Box(1)", "Box(4020)", "Box(3)", "Box(4020)"])
        let mine = events.filter { $0.identifiers == ["Box(4020)"] }
        #expect(mine.map(\.kind) == [.inconsistentHashing])
        #expect(mine.first?.operation == "apply(_:animatingDifferences:completion:)")
        #expect(mine.first?.message.contains("are equal but have different hash values") == true)
        #expect(mine.first?.message.contains("item Box(4020) at [0, 1], [0, 3]") == true)
    }
}
