import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// The validator is a total function (it never traps): random batches of arbitrary integers —
/// negative, huge, index paths of 0 to 3 indices, duplicates — and near-valid batches (a valid
/// diff batch with one or two entries broken) are each either accepted and replayed exactly, or
/// answered with a Violation; the diff's own batches are always accepted. A trap fails the run.
/// Batches aimed at the rules random ones seldom reach first (`AimedBatches`) must be answered
/// by that rule, and every rule must answer some batch (a rule disabled or shadowed shows).
///
/// Seeded: `DIFFABLE_PROPERTY_SEED=<n>` runs another seed; `DIFFABLE_PROPERTY_TRACE=1` prints
/// every batch before it is checked, so the last line before a trap names it.
@Suite struct BatchValidatorPropertyTests {
    typealias Snapshot = RandomSnapshots.Snapshot
    typealias Simulator = ListViewSimulator<String, String>
    static let seed = ProcessInfo.processInfo.environment["DIFFABLE_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 20_260_612
    static let trace = ProcessInfo.processInfo.environment["DIFFABLE_PROPERTY_TRACE"] != nil

    enum Kind: String, CaseIterable { case garbage, broken, valid, aimed }

    /// Outcomes per kind, and the rules that answered.
    struct Tally: CustomStringConvertible {
        var accepted: [Kind: Int] = [:], rejected: [Kind: Int] = [:], rules: [String: Int] = [:]
        var total: Int { accepted.values.reduce(0, +) + rejected.values.reduce(0, +) }
        var description: String {
            let kinds = Kind.allCases.map { "\($0.rawValue) \(accepted[$0, default: 0]) accepted / \(rejected[$0, default: 0]) violations" }
            let rules = rules.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            return "\(total) batches: \(kinds.joined(separator: ", ")); rules: \(rules.joined(separator: " "))"
        }

        mutating func record(_ violation: BatchValidator.Violation?, _ kind: Kind) {
            if let violation {
                rejected[kind, default: 0] += 1
                rules[violation.rule, default: 0] += 1
            } else {
                accepted[kind, default: 0] += 1
            }
        }
    }

    @Test func everyBatchIsAcceptedAndReplayedOrAViolation() {
        var generator = SeededGenerator(seed: Self.seed)
        var tally = Tally()
        for round in 0..<12_000 {
            let kind: Kind = round % 6 < 3 ? .garbage : round % 6 < 5 ? .broken : .valid
            let flavor: BatchValidator.Flavor = round % 2 == 0 ? .collection : .table
            let mode: BatchValidator.Mode = round % 4 < 2 ? .strict : .compat
            if round % 8 == 7 {
                // Each rule in turn, then each flavor and mode in turn.
                let (turn, rules) = (round / 8, AimedBatches.rules.count)
                let flavor: BatchValidator.Flavor = turn / rules % 2 == 0 ? .collection : .table
                let aimed = AimedBatches.make(AimedBatches.rules[turn % rules], table: flavor == .table, &generator)
                let aimedMode: BatchValidator.Mode = aimed.strictOnly || turn / rules / 2 % 2 == 0 ? .strict : .compat
                let context =
                    "seed \(Self.seed) round \(round) aimed at \(aimed.rule) \(flavor) \(aimedMode)\nbatch \(aimed.batch)\nold \(aimed.old)\nnew \(aimed.new)"
                let violation = Self.check(
                    aimed.batch, from: RandomSnapshots.build(aimed.old), to: RandomSnapshots.build(aimed.new),
                    validator: BatchValidator(flavor: flavor, mode: aimedMode), context: context)
                tally.record(violation, .aimed)
                // UIKit's rules (E) reject in both modes; the strict ones (I) in strict mode.
                if (aimedMode == .strict || aimed.rule.hasPrefix("E")) && violation?.rule != aimed.rule {
                    Issue.record("aimed at \(aimed.rule), answered \(String(describing: violation))\n\(context)")
                }
            }
            let (old, new) = RandomSnapshots.pair(&generator, maxSections: 4, maxItems: 6)
            // (batch, what the view shows before it, what the data source answers after it)
            var batches: [(BatchUpdate, Snapshot, Snapshot)] = []
            switch kind {
            case .garbage:
                let target = Bool.random(using: &generator) ? new : old
                batches = [(Self.garbageBatch(&generator, sections: old.numberOfSections, items: 6), old, target)]
            case .broken:
                guard var batch = new.difference(from: old).batches.randomElement(using: &generator) else { continue }
                let before = batch.isRefreshOnly ? new : old
                for _ in 0...Int.random(in: 0...1, using: &generator) { Self.breakOne(&batch, &generator) }
                batches = [(batch, before, new)]
            case .valid:
                // The refresh batch follows the structural one: the view already shows the new rows.
                batches = new.difference(from: old).batches.map { ($0, $0.isRefreshOnly ? new : old, new) }
            case .aimed: break  // made above, every eighth round
            }
            for (batch, before, target) in batches {
                if Self.trace { print("round \(round) \(kind) \(flavor) \(mode): \(batch)") }
                let context =
                    "seed \(Self.seed) round \(round) \(kind) \(flavor) \(mode)\nbatch \(batch)\nold \(before.debugDescription)\nnew \(target.debugDescription)"
                let validator = kind == .valid ? BatchValidator(flavor: flavor) : BatchValidator(flavor: flavor, mode: mode)
                let violation = Self.check(batch, from: before.withoutPendingUpdates(), to: target, validator: validator, context: context)
                tally.record(violation, kind)
                if let violation, kind == .valid { Issue.record("the diff's batch was rejected: \(violation)\n\(context)") }
            }
            if kind == .garbage { Self.checkArbitraryCounts(&generator) }
        }
        print("BatchValidatorPropertyTests seed \(Self.seed): \(tally)")
        #expect(tally.total >= 10_000)
        #expect(tally.accepted[.garbage, default: 0] + tally.accepted[.broken, default: 0] >= 500, "too few random batches accepted")
        // Each rule must answer some batch: a rule disabled or shadowed by another shows here.
        let silent = Self.rules.filter { tally.rules[$0, default: 0] == 0 }
        #expect(silent.isEmpty, "rules that answered no batch (seed \(Self.seed)): \(silent)")
        #expect(Set(tally.rules.keys).isSubset(of: Self.rules), "unexpected rules: \(tally.rules.keys.sorted())")
    }

    /// Every rule the validator (V0–V8 and the strict rules) and the identity replay (V9) answer
    /// with (docs/BATCH_UPDATE_RULES.md, sections 2–5).
    static let rules = ["V0"] + (1...22).map { "E\($0)" } + ["E25", "E26", "I1", "I2", "I5", "I7", "I8", "I9", "R1", "V9"]

    /// Runs `batch` through the snapshot simulator, the ListView simulator and the steps path;
    /// records an issue for any disagreement, and returns the simulator's violation (nil: accepted).
    static func check(
        _ batch: BatchUpdate, from old: Snapshot, to target: Snapshot, validator: BatchValidator, context: String
    ) -> BatchValidator.Violation? {
        var simulator = Simulator(flavor: validator.flavor, mode: validator.mode)
        simulator.reloadData(old)
        let violation: BatchValidator.Violation?
        do {
            try simulator.performBatchUpdates(batch, dataSourceAfter: target)
            violation = nil
            if simulator.visibleSnapshot != target.withoutPendingUpdates() { Issue.record("accepted, but the replay differs\n\(context)") }
        } catch {
            violation = error
            if error.rule.isEmpty || error.message.isEmpty { Issue.record("empty violation \(error)\n\(context)") }
            if simulator.visibleSnapshot != old { Issue.record("rejected, but the view changed\n\(context)") }
        }
        // The ListView simulator asks a data source; its checks are the same rules minus identities.
        let view = SimulatedListView<String>(flavor: validator.flavor, mode: validator.mode, policy: .record)
        let dataSource = RowsDataSource(old)
        view.dataSource = dataSource
        view.reloadData()
        var finished: [Bool] = []
        view.performBatchUpdates(batch, animation: .automatic, updates: { dataSource.show(target) }, completion: { finished.append($0) })
        // A structural batch may leave rows showing old content for the refresh batch that
        // follows (the view only asks for the cells it inserts or refreshes); a wrong batch shows
        // up as such rows, which the identity simulator rejects at once (V9).
        let staleForNextBatch = !view.staleRows.isEmpty && violation?.rule == "V9" && !batch.isRefreshOnly
        if (view.mismatch(against: target) != nil && !staleForNextBatch) || finished.count != 1 {
            Issue.record("the ListView does not show the data source\n\(context)")
        }
        if let shown = view.violations.first {
            if violation == nil || (shown.rule != "V9" && shown != violation) {
                Issue.record("ListView: \(shown), simulator: \(String(describing: violation))\n\(context)")
            }
        } else if let violation, violation.rule != "V9" {
            Issue.record("ListView accepted what the simulator rejects: \(violation)\n\(context)")
        }
        // An accepted batch, applied one step at a time, reaches the same rows.
        if violation == nil {
            do {
                let counts = { (snapshot: Snapshot) in snapshot.sectionIdentifiers.map { snapshot.numberOfItems(inSection: $0) } }
                let steps = try validator.steps(for: batch, oldCounts: counts(old), newCounts: counts(target))
                var replayer = ListStepReplayer(old)
                try replayer.apply(steps, reaching: target)
            } catch {
                Issue.record("accepted, but its steps fail: \(error)\n\(context)")
            }
        }
        return violation
    }

    /// The validator alone, with arbitrary (also negative and huge) counts: any answer but a trap.
    static func checkArbitraryCounts(_ g: inout SeededGenerator) {
        let oldCounts = (0..<Int.random(in: 0...3, using: &g)).map { _ in arbitrary(&g, near: 4) }
        let newCounts = (0..<Int.random(in: 0...3, using: &g)).map { _ in arbitrary(&g, near: 4) }
        let batch = garbageBatch(&g, sections: 3, items: 4)
        if trace { print("counts \(oldCounts) → \(newCounts): \(batch)") }
        for mode in [BatchValidator.Mode.strict, .compat] {
            _ = try? BatchValidator(mode: mode).validate(batch, oldCounts: oldCounts, newCounts: newCounts)
        }
    }

    /// Mostly small numbers around the bounds, sometimes negative or extreme.
    static func arbitrary(_ g: inout SeededGenerator, near bound: Int) -> Int {
        switch Int.random(in: 0..<20, using: &g) {
        case 0: Int.min
        case 1: Int.max
        case 2: -Int.random(in: 1...(1 << 40), using: &g)
        case 3: Int.random(in: (1 << 32)...(1 << 40), using: &g)
        case 4: Int.random(in: -2...(-1), using: &g)
        default: Int.random(in: 0...(bound + 1), using: &g)
        }
    }

    /// An index path of 0 to 3 indices (usually 2).
    static func arbitraryPath(_ g: inout SeededGenerator, sections: Int, items: Int) -> IndexPath {
        let length = [2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 1, 3].randomElement(using: &g)!
        guard length == 2 else { return IndexPath(indexes: (0..<length).map { _ in arbitrary(&g, near: 3) }) }
        return IndexPath(item: arbitrary(&g, near: items), section: arbitrary(&g, near: sections))
    }

    /// One or two entries in some of the nine lists, now and then a repeated one.
    static func garbageBatch(_ g: inout SeededGenerator, sections: Int, items: Int) -> BatchUpdate {
        func list<T>(_ make: (inout SeededGenerator) -> T) -> [T] {
            guard Int.random(in: 0..<5, using: &g) == 0 else { return [] }
            var values = (0..<Int.random(in: 1...2, using: &g)).map { _ in make(&g) }
            if Int.random(in: 0..<8, using: &g) == 0 { values.append(values[0]) }
            return values
        }
        let section = { (g: inout SeededGenerator) in arbitrary(&g, near: sections) }
        let path = { (g: inout SeededGenerator) in arbitraryPath(&g, sections: sections, items: items) }
        return BatchUpdate(
            deleteSections: list(section), insertSections: list(section),
            moveSections: list { BatchUpdate.SectionMove(from: section(&$0), to: section(&$0)) },
            reloadSections: list(section), deleteItems: list(path), insertItems: list(path),
            moveItems: list { BatchUpdate.ItemMove(from: path(&$0), to: path(&$0)) }, reloadItems: list(path),
            reconfigureItems: list(path))
    }

    /// Breaks one entry of a valid batch: drop, repeat, shift by one, swap a move, add an arbitrary
    /// entry, make an index path malformed, or make two entries collide (a move's source or
    /// target reused, an item operation in a section that is deleted, inserted or moved).
    static func breakOne(_ batch: inout BatchUpdate, _ g: inout SeededGenerator) {
        func change<T>(_ values: inout [T], shifted: (T, Int) -> T, arbitrary: (inout SeededGenerator) -> T) {
            let index = values.isEmpty ? nil : Int.random(in: 0..<values.count, using: &g)
            switch (Int.random(in: 0..<5, using: &g), index) {
            case (0, let index?): values.remove(at: index)
            case (1, let index?): values.append(values[index])
            case (2, let index?): values[index] = shifted(values[index], Bool.random(using: &g) ? 1 : -1)
            default: values.insert(arbitrary(&g), at: Int.random(in: 0...values.count, using: &g))
            }
        }
        let shiftPath = { (path: IndexPath, by: Int) in
            path.count == 2 ? IndexPath(item: path.item &+ by, section: path.section) : path
        }
        let path = { (g: inout SeededGenerator) in arbitraryPath(&g, sections: 4, items: 6) }
        let section = { (g: inout SeededGenerator) in arbitrary(&g, near: 4) }
        switch Int.random(in: 0..<13, using: &g) {
        case 0: change(&batch.deleteSections, shifted: { $0 &+ $1 }, arbitrary: section)
        case 1: change(&batch.insertSections, shifted: { $0 &+ $1 }, arbitrary: section)
        case 2: change(&batch.reloadSections, shifted: { $0 &+ $1 }, arbitrary: section)
        case 3:
            change(
                &batch.moveSections, shifted: { move, by in .init(from: move.to, to: move.from &+ by) },
                arbitrary: { .init(from: section(&$0), to: section(&$0)) })
        case 4: change(&batch.deleteItems, shifted: shiftPath, arbitrary: path)
        case 5: change(&batch.insertItems, shifted: shiftPath, arbitrary: path)
        case 6: change(&batch.reloadItems, shifted: shiftPath, arbitrary: path)
        case 7: change(&batch.reconfigureItems, shifted: { path, _ in IndexPath(indexes: Array(path) + [0]) }, arbitrary: path)
        // The collisions a lone shifted entry rarely makes: a second move sharing a source (E17)
        // or a target (E16); a reload of a move's target (E11, E12 on a table) or source (E10).
        case 9 where !batch.moveItems.isEmpty:
            let move = batch.moveItems.randomElement(using: &g)!, other = path(&g)
            batch.moveItems.append(Bool.random(using: &g) ? .init(from: move.from, to: other) : .init(from: other, to: move.to))
        case 10 where !batch.moveItems.isEmpty:
            let move = batch.moveItems.randomElement(using: &g)!
            batch.reloadItems.append(Bool.random(using: &g) ? move.to : move.from)
        // An item operation inside a deleted (I1), inserted (I2) or moved (I5) section.
        case 11 where !batch.deleteSections.isEmpty || !batch.insertSections.isEmpty || !batch.moveSections.isEmpty:
            let sections =
                batch.deleteSections.map { ($0, true) } + batch.insertSections.map { ($0, false) }
                + batch.moveSections.flatMap { [($0.from, true), ($0.to, false)] }
            let (section, old) = sections.randomElement(using: &g)!
            let row = IndexPath(item: Int.random(in: 0...1, using: &g), section: section)
            if old { batch.deleteItems.append(row) } else { batch.insertItems.append(row) }
        // A move kept at its source's raw section index while sections shift (I8).
        case 12 where !batch.moveItems.isEmpty:
            let index = Int.random(in: 0..<batch.moveItems.count, using: &g), move = batch.moveItems[index]
            if move.from.count == 2 && move.to.count == 2 {
                batch.moveItems[index] = .init(from: move.from, to: IndexPath(item: move.to.item, section: move.from.section))
            }
        default:
            change(
                &batch.moveItems, shifted: { move, by in .init(from: move.to, to: shiftPath(move.from, by)) },
                arbitrary: { .init(from: path(&$0), to: path(&$0)) })
        }
    }
}
