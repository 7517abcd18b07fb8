import DiffableTesting
import DiffableTools
import Foundation
import Testing

@testable import Diffable

/// Doubling N must about double the work: every `hash(into:)` and `==` on the identifiers is
/// counted (not timed), phase by phase, through snapshot building and mutations, the flat and
/// the sectioned diff, the outline operations and a data-source apply onto the strict
/// simulated view. Each phase is checked on its own, so a step that is quadratic in these calls
/// fails even where the rest of the workload would hide it.
@Suite(.serialized) struct LinearityTests {
    /// An identifier that counts the calls made on it.
    ///
    /// Its hash value is the same in every run. Swift's Set and Dictionary call `==` on every
    /// occupied slot they probe, and by default they place a value by a hash seeded at random
    /// per process and per Set, so a phase that uses one counted a different number of calls
    /// in each run: a few percent usually, 30-60% more when identifiers arrive in another Set's
    /// order and cluster (89,703 calls against about 56,000 in one CI run). With an unseeded
    /// hash every count is a function of the code and the seeded workload, so a failure here
    /// repeats on every run, and a clustering input is seen every time rather than sometimes.
    struct Counted: Hashable, Sendable {
        let value: Int
        static let calls = Locked(0)

        static func == (left: Counted, right: Counted) -> Bool {
            calls.withLock { $0 += 1 }
            return left.value == right.value
        }

        /// Reached when a Counted is hashed as part of another value.
        func hash(into hasher: inout Hasher) {
            Counted.calls.withLock { $0 += 1 }
            hasher.combine(value)
        }

        /// What Set, Dictionary and `hashValue` hash through: the seed is ignored on purpose.
        func _rawHashValue(seed: Int) -> Int {
            Counted.calls.withLock { $0 += 1 }
            var mixer = SplitMix64(seed: UInt64(bitPattern: Int64(value)))
            return Int(truncatingIfNeeded: mixer.next())
        }
    }

    /// The identifier calls of each phase, by name, in order.
    struct PhaseCounts {
        var phases: [(name: String, calls: Int)] = []

        /// Runs `body` and records the identifier calls it made as phase `name`.
        mutating func count(_ name: String, _ body: () -> Void) {
            Counted.calls.withLock { $0 = 0 }
            body()
            phases.append((name, Counted.calls.withLock { $0 }))
        }
    }

    /// Every phase of the workload at `n` items (sizes above the checked builds' invariant
    /// limit, so the O(n)-per-mutation checks of a test build do not count).
    static func workload(_ n: Int) -> PhaseCounts {
        var counts = PhaseCounts()
        var generator = SplitMix64(seed: 17)
        func random(_ range: Range<Int>) -> Int { Int.random(in: range, using: &generator) }
        let sections = n / 100
        var old = DiffableDataSourceSnapshot<Counted, Counted>()
        counts.count("build (appendSections, appendItems)") {
            old.appendSections((0..<sections).map(Counted.init))
            for section in 0..<sections {
                old.appendItems((section * 100..<section * 100 + 100).map(Counted.init), toSection: Counted(value: section))
            }
        }
        let all = old.itemIdentifiers
        var new = old
        counts.count("deleteItems of 5%") { new.deleteItems((0..<n / 20).map { _ in all[random(0..<n)] }) }
        counts.count("moveItem, appendItems, insertItems") {
            for step in 0..<n / 20 {
                let item = all[random(0..<n)], anchor = all[random(0..<n)]
                if item != anchor, new.indexOfItem(item) != nil, new.indexOfItem(anchor) != nil {
                    new.moveItem(item, afterItem: anchor)
                }
                if step % 10 == 0 { new.appendItems([Counted(value: n + step)], toSection: Counted(value: step % sections)) }
                if step % 10 == 5, new.indexOfItem(anchor) != nil { new.insertItems([Counted(value: 2 * n + step)], beforeItem: anchor) }
            }
        }
        counts.count("section moves and deletes") {
            for step in 0..<sections / 10 {
                let section = Counted(value: random(0..<sections)), anchor = Counted(value: random(0..<sections))
                if section != anchor && new.indexOfSection(section) != nil && new.indexOfSection(anchor) != nil {
                    new.moveSection(section, afterSection: anchor)
                }
                if step % 4 == 0, new.indexOfSection(section) != nil, new.numberOfSections > 1 { new.deleteSections([section]) }
            }
        }
        // The identifiers are chosen outside the phase, so that it counts the library's calls
        // and not those of the test's own lookups and Sets. They come in Set order on purpose
        // (`Array(someSet)`, as apps pass them): inserted in that order into a smaller Set they
        // clustered, and this phase counted 30-60% more calls in some runs, until the library
        // reserved room first.
        let present = (0..<n / 50).map { _ in all[random(0..<n)] }.filter { new.indexOfItem($0) != nil }
        let reloaded = Set(present.prefix(present.count / 2))
        let toReload = Array(reloaded)
        let toReconfigure = Array(Set(present.dropFirst(present.count / 2)).subtracting(reloaded))
        counts.count("reloadItems, reconfigureItems") {
            new.reloadItems(toReload)
            new.reconfigureItems(toReconfigure)
        }
        counts.count("indexOfItem") { for item in all.prefix(n / 10) { _ = new.indexOfItem(item) } }
        counts.count("sectioned difference(from:)") { _ = new.difference(from: old) }

        var flatOld = DiffableDataSourceSnapshot<Int, Counted>(), flatNew = flatOld
        let order = WorkloadScenario.churn.newOrder(count: n / 4, using: &generator)
        counts.count("flat build") {
            flatOld.appendSections([0])
            flatOld.appendItems((0..<n / 4).map(Counted.init))
            flatNew.appendSections([0])
            flatNew.appendItems(order.map(Counted.init))
        }
        counts.count("flat difference(from:)") { _ = flatNew.difference(from: flatOld) }

        var outline = DiffableDataSourceSectionSnapshot<Counted>()
        let roots = (0..<n / 100).map { Counted(value: 4 * n + $0) }
        counts.count("outline append") {
            outline.append(roots)
            for (index, root) in roots.enumerated() {
                outline.append((0..<99).map { Counted(value: 5 * n + index * 99 + $0) }, to: root)
            }
        }
        var expanded = outline
        // visibleItems makes no identifier calls (one walk over the outline's arrays), so it
        // cannot be a phase of its own here; it runs with the expand that it reads.
        counts.count("outline expand, visibleItems") {
            expanded.expand(roots)
            _ = expanded.visibleItems
        }
        counts.count("outline difference(from:)") { _ = expanded.difference(from: outline) }
        var collapsed = expanded
        counts.count("outline collapse") { collapsed.collapse(roots) }
        counts.count("outline insert") {
            for run in 0..<n / 1_000 {
                let anchor = Counted(value: 5 * n + random(0..<roots.count * 99))
                if expanded.contains(anchor) { expanded.insert((0..<5).map { Counted(value: 6 * n + run * 5 + $0) }, before: anchor) }
            }
        }
        counts.count("outline delete") {
            expanded.delete(Array(Set((0..<n / 20).map { _ in Counted(value: 5 * n + random(0..<roots.count * 99)) })))
        }

        counts.count("data source apply onto SimulatedListView") { Self.apply(new, over: old) }
        return counts
    }

    /// Shows `old` through a data source into the strict simulated view, then applies `new`.
    static func apply(_ new: DiffableDataSourceSnapshot<Counted, Counted>, over old: DiffableDataSourceSnapshot<Counted, Counted>) {
        let queue = DispatchQueue(label: "linearity view")
        let view = SimulatedListView<Int>(policy: .record)
        let dataSource = DiffableDataSource<Counted, Counted, Int>(view: view, executor: .queue(queue)) { _, item in item.value }
        let done = DispatchSemaphore(value: 0)
        dataSource.applySnapshotUsingReloadData(old) { done.signal() }
        done.wait()
        dataSource.apply(new) { done.signal() }
        done.wait()
        let (violations, batches) = queue.sync { (view.violations, view.batchCount) }
        #expect(
            violations.isEmpty && batches == 2,
            "the apply was not one structural and one refresh batch, accepted: \(batches), \(violations)")
    }

    @Test func doublingTheItemsAboutDoublesTheIdentifierCallsOfEveryPhase() {
        let sizes = [60_000, 120_000, 240_000]
        let runs = sizes.map(Self.workload)
        for (index, phase) in runs[0].phases.enumerated() {
            let calls = runs.map { $0.phases[index].calls }
            print("LinearityTests: \(phase.name): \(zip(sizes, calls).map { "\($0): \($1)" }.joined(separator: ", "))")
            #expect(calls.allSatisfy { $0 > 0 }, "\(phase.name) made no identifier calls: the phase measures nothing")
            for (smaller, larger) in zip(calls, calls.dropFirst()) {
                #expect(
                    Double(larger) / Double(max(smaller, 1)) < 2.6,
                    "\(phase.name): calls \(smaller) → \(larger) when N doubles: a step grows faster than N")
            }
        }
    }
}
