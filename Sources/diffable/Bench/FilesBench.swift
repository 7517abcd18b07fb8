import Diffable
import DiffableTools
import Foundation

/// `diffable bench OLD NEW`: the engine alone on the user's own snapshots (any form
/// `diffable diff` reads). The files are read and parsed once, untimed; then building both
/// snapshots and diffing them are timed separately. The diff alone is compared with the
/// plain-Swift two-level diff on plain models built untimed (neither side hashes inside), the
/// build + diff (the two medians added) with the same diff building its indexes from the item
/// lists, and with Swift's `difference(from:).inferringMoves()` on the flattened item lists
/// (every identifier hashed inside, on every side).
enum FilesBench {
    static func measure(
        old oldPath: String, new newPath: String, format: SnapshotInputFormat?, runs: Int, budget: BaselineBudget, log: BenchLog
    ) throws -> BenchRow {
        let label = "files \((oldPath as NSString).lastPathComponent) → \((newPath as NSString).lastPathComponent)"
        log.step(label, phase: "reading")
        let interner = IdentifierInterner()
        let reader = SnapshotReader(interner: interner)
        let documents = try [oldPath, newPath].map { (path: String) throws -> NumberedSnapshotDocument in
            let input = try DiffCommand.read(path)
            let form = format ?? input.withBytes { SnapshotInputFormat.detect(path: input.source, bytes: $0) }
            do throws(SnapshotInputError) {
                return try reader.document(from: input, format: form)
            } catch {
                throw CLIError(error.description)
            }
        }
        log.step(label, phase: "build")
        var built: Result<(old: DiffableDataSourceSnapshot<Int, Int>, new: DiffableDataSourceSnapshot<Int, Int>), DocumentError>?
        let build = try Measure.median(runs: runs) {
            do throws(SnapshotInputError) {
                built = try NumberedSnapshotDocument.snapshots(old: documents[0], new: documents[1], names: interner)
            } catch {
                throw CLIError(error.description, status: .internalError)
            }
        }
        guard case .success(let pair) = built else {
            if case .failure(let error) = built { throw CLIError(error.description, status: .rejected) }
            throw CLIError("no snapshots were built", status: .internalError)
        }
        log.step(label, phase: "Diffable")
        var difference = pair.new.difference(from: pair.old)
        let diff = Measure.median(runs: runs) { difference = pair.new.difference(from: pair.old) }
        var row = BenchRow(
            suite: "files", scenario: "\(oldPath) → \(newPath)", keys: "file", count: pair.old.numberOfItems, milliseconds: diff * 1000,
            runs: runs)
        row.sections = pair.old.numberOfSections
        row.buildMilliseconds = build * 1000
        row.buildAndDiffMilliseconds = (build + diff) * 1000
        row.identifiersHashed = SectionedBench.hashing
        row.moves = difference.movedItemCount + difference.movedSectionCount
        built = nil

        func lists(_ document: NumberedSnapshotDocument) -> (sections: [UInt32], items: [[UInt32]]) {
            (document.sections, document.sections.indices.map { Array(document.items[document.itemRange(ofSection: $0)]) })
        }
        let (oldSections, oldItems) = lists(documents[0]), (newSections, newItems) = lists(documents[1])
        let series = "files|\(oldPath)|\(newPath)"
        log.step(label, phase: "plain Swift")
        // Probes run on the first items of each list: the files give no smaller input.
        func prefix(_ items: [UInt32], _ size: Int) -> [UInt32] { Array(items.prefix(size)) }
        let plainPlan = budget.plan(
            .plainSwift, series: series, count: row.count, runs: runs, growth: .linear, label: label, strings: false,
            probe: { size in
                let old = prefix(documents[0].items, size), new = prefix(documents[1].items, size)
                return Measure.seconds { _ = BaselineDiff.diff(old: old, new: new) }
            })
        var baseline: BaselineSectionedDiff.Result?
        if !plainPlan.skipped {
            // The interned identifiers are integers: their own cached hash, as the snapshots' keys.
            let before = PlainSnapshotModel(sections: oldSections.map(Int.init), items: oldItems)
            let after = PlainSnapshotModel(sections: newSections.map(Int.init), items: newItems)
            row.record(.plainSwift, budget.measure(plainPlan) { baseline = before.difference(to: after) })
        }
        let plainBuildAndDiff = budget.measure(plainPlan) {
            baseline = BaselineSectionedDiff.diff(oldSections: oldSections, old: oldItems, newSections: newSections, new: newItems)
        }
        row.baselineBuildAndDiffMilliseconds = plainBuildAndDiff.seconds.map { $0 * 1000 }
        if plainPlan.skipped { row.record(.plainSwift, plainBuildAndDiff) }
        if baseline == nil {  // skipped for time: the same count, untimed
            baseline = BaselineSectionedDiff.diff(oldSections: oldSections, old: oldItems, newSections: newSections, new: newItems)
        }
        row.minimalMoves = baseline.map { $0.moves + $0.sectionMoves }
        log.step(label, phase: "difference(from:)")
        let swiftPlan = budget.plan(
            .swiftDifference, series: series, count: row.count, runs: runs, growth: .quadratic, label: label, strings: false,
            probe: { size in
                let old = prefix(documents[0].items, size), new = prefix(documents[1].items, size)
                return Measure.seconds { _ = FlatBench.swiftDifference(old: old, new: new) }
            })
        row.record(
            .swiftDifference, budget.measure(swiftPlan) { _ = FlatBench.swiftDifference(old: documents[0].items, new: documents[1].items) })
        return row
    }
}
