import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// `SnapshotDifference.steps` replayed one step at a time (ListStepReplayer) on the same random
/// pairs as the batch tests, each pair also applied as batches through the strict
/// ListViewSimulator: every index valid when used, the new snapshot reached exactly, the
/// refreshes naming exactly the requested items, and every batch move one move step.
@Suite struct ListStepTests {
    typealias Snapshot = RandomSnapshots.Snapshot
    static let seed: UInt64 = 20_260_611
    static func p(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

    /// What kinds of change the random pairs covered, so the test proves it saw each.
    struct Coverage {
        var pairs = 0, steps = 0, crossSectionMoves = 0, sameSectionMoves = 0, sectionInserts = 0, sectionDeletes = 0
        var sectionMoves = 0, itemReloads = 0, sectionReloads = 0, reconfigures = 0
    }

    @Test func randomPairsReplayExactly() {
        var generator = SeededGenerator(seed: Self.seed)
        var coverage = Coverage()
        for round in 0..<3_000 {
            let (old, new) =
                switch round % 6 {
                case 0, 1: RandomSnapshots.pair(&generator, maxSections: 1, maxItems: 14, sectionChanges: false)
                case 2: Self.sectionsShuffled(&generator)
                default: RandomSnapshots.pair(&generator)
                }
            let difference = new.difference(from: old)
            let steps = difference.steps
            if let problem = Self.checkBatches(of: difference) ?? Self.check(steps, of: difference, coverage: &coverage) {
                Issue.record(
                    "round \(round) (seed \(Self.seed)): \(problem)\nold \(old.debugDescription)\nnew \(new.debugDescription)\n\(difference)\nsteps \(steps)"
                )
                return
            }
        }
        #expect(coverage.pairs == 3_000)
        for (kind, count) in [
            ("cross-section moves", coverage.crossSectionMoves), ("same-section moves", coverage.sameSectionMoves),
            ("section inserts", coverage.sectionInserts), ("section deletes", coverage.sectionDeletes),
            ("section moves", coverage.sectionMoves), ("item reloads", coverage.itemReloads),
            ("section reloads", coverage.sectionReloads), ("reconfigures", coverage.reconfigures),
        ] {
            #expect(count > 50, "only \(count) \(kind)")
        }
        print("ListStepTests: \(coverage.pairs) pairs, \(coverage.steps) steps replayed; \(coverage)")
    }

    /// The outline pairs of SectionSnapshotDifferenceTests (expand, collapse, delete, insert,
    /// subtree moves): their visible rows' steps replay exactly, as their batches do.
    @Test func randomOutlinePairsReplayExactly() {
        var generator = SeededGenerator(seed: Self.seed)
        var coverage = Coverage()
        for pair in 0..<1_500 {
            var fresh = 1_000
            let old = SectionSnapshotDifferenceTests.randomOutline(&generator, first: 0, size: 30)
            let new = SectionSnapshotDifferenceTests.randomChange(of: old, &generator, fresh: &fresh)
            let difference = new.difference(from: old)
            if let problem = Self.checkBatches(of: difference) ?? Self.check(difference.steps, of: difference, coverage: &coverage) {
                Issue.record("pair \(pair): \(problem)\nold \(old.visualDescription())\nnew \(new.visualDescription())\n\(difference)")
                return
            }
        }
        #expect(coverage.pairs == 1_500)
        #expect(coverage.sameSectionMoves > 100, "only \(coverage.sameSectionMoves) moves")
    }

    /// The same pair as batches: the strict simulator accepts them and ends on `difference.new`.
    static func checkBatches<S: Hashable, I: Hashable>(of difference: SnapshotDifference<S, I>) -> String? {
        var view = ListViewSimulator<S, I>()
        view.reloadData(difference.old)
        do {
            try view.apply(difference)
        } catch {
            return "batches: \(error)"
        }
        return view.visibleSnapshot == difference.new.withoutPendingUpdates() ? nil : "batches: the simulator shows another snapshot"
    }

    /// Replays `steps` from `difference.old` and returns the first problem, or nil.
    static func check<S: Hashable, I: Hashable>(_ steps: [ListStep], of difference: SnapshotDifference<S, I>, coverage: inout Coverage)
        -> String?
    {
        let new = difference.new
        var view = ListStepReplayer(difference.old)
        do {
            try view.apply(steps, reaching: new)
        } catch {
            return "\(error)"
        }
        let structural = difference.structuralBatch ?? BatchUpdate()
        var itemMoves = 0, sectionMoves = 0
        for step in steps {
            switch step {
            case .moveItem(let from, let to):
                itemMoves += 1
                if from.section != to.section { coverage.crossSectionMoves += 1 } else { coverage.sameSectionMoves += 1 }
            case .moveSection:
                sectionMoves += 1
                coverage.sectionMoves += 1
            case .insertSection: coverage.sectionInserts += 1
            case .deleteSection: coverage.sectionDeletes += 1
            default: break
            }
        }
        if itemMoves != structural.moveItems.count || sectionMoves != structural.moveSections.count {
            return
                "\(itemMoves) item and \(sectionMoves) section move steps for \(structural.moveItems.count) and \(structural.moveSections.count) moves"
        }
        // Refreshes: every requested reload and reconfigure is done (or the row is fresh anyway), and nothing else.
        let fresh = Set(view.insertedRows), reloaded = Set(view.reloadedRows), reconfigured = Set(view.reconfiguredRows)
        let wantReload = Set(new.reloadedItemIdentifiers), wantReconfigure = Set(new.reconfiguredItemIdentifiers)
        if let item = wantReload.first(where: { !reloaded.contains($0) && !fresh.contains($0) }) { return "\(item) was not reloaded" }
        if let item = wantReconfigure.first(where: { !reconfigured.contains($0) && !reloaded.contains($0) && !fresh.contains($0) }) {
            return "\(item) was not reconfigured"
        }
        if let item = reloaded.first(where: { !wantReload.contains($0) }) { return "\(item) was reloaded unasked" }
        if let item = reconfigured.first(where: { !wantReconfigure.contains($0) || wantReload.contains($0) }) {
            return "\(item) was reconfigured unasked (or instead of a reload)"
        }
        if view.reloadedRows.count != reloaded.count || view.reconfiguredRows.count != reconfigured.count {
            return "a row was refreshed twice"
        }
        if Set(view.reloadedSections)
            != Set(new.reloadedSectionIdentifiers).intersection(difference.old.sectionIdentifiers)
            .subtracting(freshSections(difference))
        {
            return "reloaded sections \(view.reloadedSections), asked \(new.reloadedSectionIdentifiers)"
        }
        coverage.pairs += 1
        coverage.steps += steps.count
        coverage.itemReloads += view.reloadedRows.count
        coverage.reconfigures += view.reconfiguredRows.count
        coverage.sectionReloads += view.reloadedSections.count
        return nil
    }

    /// Only sections move (random pairs almost always touch a moved section, which the batch
    /// then deletes and inserts), with some items reloaded.
    static func sectionsShuffled(_ g: inout SeededGenerator) -> (Snapshot, Snapshot) {
        let old = RandomSnapshots.pair(&g, maxSections: 6).old
        var new = RandomSnapshots.build(old.sectionIdentifiers.shuffled(using: &g).map { ($0, old.itemIdentifiers(inSection: $0)) })
        new.reloadItems(old.itemIdentifiers.filter { _ in Int.random(in: 0..<5, using: &g) == 0 })
        return (old, new)
    }

    /// Sections the structural batch deletes and inserts (step 3 of ALGORITHM.md): fresh, not reloaded.
    static func freshSections<S: Hashable, I: Hashable>(_ difference: SnapshotDifference<S, I>) -> Set<S> {
        let inserted = difference.structuralBatch?.insertSections ?? []
        return Set(inserted.map { difference.new.sectionIdentifiers[$0] })
    }

    @Test func flatMoveFrontToBackIsOneMoveStep() {
        let old = RandomSnapshots.build([("S", ["a", "b", "c", "d"])]), new = RandomSnapshots.build([("S", ["b", "c", "d", "a"])])
        #expect(new.difference(from: old).steps == [.moveItem(from: Self.p(0, 0), to: Self.p(0, 3))])
    }

    @Test func orderIsDeletesSectionsMovesInsertsRefreshes() throws {
        let old = RandomSnapshots.build([("A", ["a0", "a1", "a2"]), ("B", ["b0"]), ("C", ["c0", "c1"])])
        var new = RandomSnapshots.build([("C", ["c0", "c1"]), ("N", ["n0"]), ("A", ["x", "a2", "a0"])])
        new.reloadItems(["c1"])
        let difference = new.difference(from: old)
        #expect(
            difference.structuralBatch
                == BatchUpdate(
                    deleteSections: [1], insertSections: [1], moveSections: [.init(from: 2, to: 0)], deleteItems: [Self.p(0, 1)],
                    insertItems: [Self.p(2, 0)], moveItems: [.init(from: Self.p(0, 2), to: Self.p(2, 1))]))
        #expect(
            difference.steps == [
                .deleteItem(Self.p(0, 1)), .deleteSection(1), .moveSection(from: 1, to: 0), .insertSection(1),
                .moveItem(from: Self.p(2, 1), to: Self.p(2, 0)), .insertItem(Self.p(2, 0)), .reloadItem(Self.p(0, 1)),
            ])
        var view = ListStepReplayer(old)
        try view.apply(difference.steps, reaching: new)
        #expect(view.reloadedRows == ["c1"])
        #expect(view.insertedRows == ["n0", "x"])
    }

    @Test func compatBatchesWithMovedSectionsBecomeSteps() throws {
        // I5: an item delete inside a moved section; UIKit mishandles it, a sequential view does not.
        let old = RandomSnapshots.build([("A", ["a0"]), ("B", ["b0", "b1"])]), new = RandomSnapshots.build([("B", ["b1"]), ("A", ["a0"])])
        let batch = BatchUpdate(moveSections: [.init(from: 1, to: 0)], deleteItems: [Self.p(1, 0)])
        #expect(throws: BatchValidator.Violation.self) { try BatchValidator().steps(for: batch, oldCounts: [1, 2], newCounts: [1, 1]) }
        let steps = try BatchValidator(mode: .compat).steps(for: batch, oldCounts: [1, 2], newCounts: [1, 1])
        #expect(steps == [.deleteItem(Self.p(1, 0)), .moveSection(from: 1, to: 0)])
        var view = ListStepReplayer(old)
        try view.apply(steps, reaching: new)
    }

    @Test func aBadStepIsAViolationAndLeavesTheViewUnchanged() {
        let old = RandomSnapshots.build([("A", ["a0", "a1"])])
        let bad: [ListStep] = [
            .deleteItem(Self.p(0, 2)), .deleteItem(Self.p(-1, 0)), .deleteItem(IndexPath(indexes: [0, 0, 0])), .deleteSection(1),
            .insertSection(-1), .moveSection(from: 0, to: 1), .insertItem(Self.p(0, 3)), .moveItem(from: Self.p(0, 0), to: Self.p(0, 2)),
            .moveItem(from: Self.p(0, 0), to: Self.p(1, 0)), .reloadItem(Self.p(0, 5)), .reconfigureItem(IndexPath()),
            .reloadSection(Int.min), .insertItem(Self.p(0, 2)),
        ]
        for step in bad {
            var view = ListStepReplayer(old)
            #expect(throws: BatchValidator.Violation.self, "\(step)") { try view.apply([step], reaching: old) }
            #expect(view.snapshot == old, "\(step) changed the view")
        }
    }

    /// Steps at 10^5 rows: O(s + k log k + r log r), here milliseconds; replayed exactly.
    @Test func stepsAtOneHundredThousandRows() throws {
        var generator = SeededGenerator(seed: Self.seed)
        for sections in [1, 100] {
            let (old, new) = Self.largePair(&generator, items: 100_000, sections: sections)
            let difference = new.difference(from: old)
            let clock = ContinuousClock()
            var steps: [ListStep] = []
            let derivation = clock.measure { steps = difference.steps }
            var view = ListStepReplayer(old)
            let replay = try clock.measure { try view.apply(steps, reaching: new) }
            let moves = steps.count { if case .moveItem = $0 { true } else { false } }
            print(
                "ListStepTests: 10^5 rows in \(sections) sections: \(steps.count) steps (\(moves) moves) derived in \(derivation), replayed in \(replay)"
            )
            #expect(moves == difference.movedItemCount)
        }
        // Every row moves (a reversal): n - 1 moves, still n log n to derive.
        let old = RandomSnapshots.build([("S", (0..<100_000).map { "i\($0)" })])
        let new = RandomSnapshots.build([("S", (0..<100_000).reversed().map { "i\($0)" })])
        let difference = new.difference(from: old)
        var steps: [ListStep] = []
        let derivation = ContinuousClock().measure { steps = difference.steps }
        print("ListStepTests: reversal of 10^5 rows: \(steps.count) move steps derived in \(derivation)")
        #expect(steps.count == 99_999)
        #expect(steps.first == .moveItem(from: Self.p(0, 99_999), to: Self.p(0, 0)))
        #expect(steps.last == .moveItem(from: Self.p(0, 99_999), to: Self.p(0, 99_998)))
    }

    /// `items` rows in `sections` sections; the new one with 1% deleted, 1% inserted, 1% moved
    /// anywhere (across sections too), and a few sections deleted, inserted and moved.
    static func largePair(_ g: inout SeededGenerator, items: Int, sections: Int) -> (Snapshot, Snapshot) {
        let perSection = items / sections
        var old = (0..<sections).map { s in ("S\(s)", (0..<perSection).map { "i\(s * perSection + $0)" }) }
        var new = old
        var next = items
        for _ in 0..<items / 100 {
            let s = Int.random(in: 0..<new.count, using: &g)
            if !new[s].1.isEmpty { new[s].1.remove(at: Int.random(in: 0..<new[s].1.count, using: &g)) }
            let t = Int.random(in: 0..<new.count, using: &g)
            new[t].1.insert("n\(next)", at: Int.random(in: 0...new[t].1.count, using: &g))
            next += 1
            let from = Int.random(in: 0..<new.count, using: &g), to = Int.random(in: 0..<new.count, using: &g)
            if !new[from].1.isEmpty {
                let moving = new[from].1.remove(at: Int.random(in: 0..<new[from].1.count, using: &g))
                new[to].1.insert(moving, at: Int.random(in: 0...new[to].1.count, using: &g))
            }
        }
        if sections > 2 {
            new.remove(at: 1)
            new.insert(("T", ["t0", "t1"]), at: 3)
            new.swapAt(0, new.count - 1)
        }
        if Bool.random(using: &g) { old.append(("Z", [])) }
        return (RandomSnapshots.build(old), RandomSnapshots.build(new))
    }
}
