import Diffable
import DiffableTesting
import DiffableTools
import Foundation

/// The 10^6-item part of the demo: the sectioned churn through `difference(from:)` and the
/// strict simulator, then a flat list where Swift's own `difference(from:)` can finish, both
/// engines timed in this run.
enum DemoScale {
    static func milliseconds(_ duration: Duration) -> String {
        duration.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 1)))
    }

    static func run(_ printer: DemoPrinter) {
        let items = 1_000_000, sections = 10_000
        let (oldLayout, newLayout) = SectionedWorkload.churn(itemCount: items, sectionCount: sections, seed: 3)
        let old = SectionedWorkload.snapshot(oldLayout) { $0 }, new = SectionedWorkload.snapshot(newLayout) { $0 }
        DebugBuild.noteIfLarge(itemCount: items)
        let clock = ContinuousClock()
        var difference = new.difference(from: old)
        let elapsed = clock.measure { difference = new.difference(from: old) }
        let batch = difference.structuralBatch ?? BatchUpdate()
        print("  \(items.formatted()) items in \(sections.formatted()) sections; 5% deleted, 5% moved across sections, 5% inserted:")
        print(
            "  difference(from:) " + printer.bold(milliseconds(elapsed)) + ": \(batch.deleteItems.count) deletes, "
                + "\(batch.insertItems.count) inserts, \(batch.moveItems.count) moves (the fewest), one batch")
        var view = ListViewSimulator<Int, Int>()
        view.reloadData(old)
        do {
            try view.apply(difference)
            print("  strict simulator: accepted, and the view shows the new snapshot")
        } catch {
            print("  strict simulator: \(error)")
        }

        // Swift's difference(from:) is quadratic in the edits: compare on 100 moved items.
        var generator = SplitMix64(seed: 9)
        let flatOld = Array(0..<items)
        var flatNew = flatOld
        for _ in 0..<100 {
            let from = Int.random(in: 0..<flatNew.count, using: &generator)
            let value = flatNew.remove(at: from)
            flatNew.insert(value, at: Int.random(in: 0...flatNew.count, using: &generator))
        }
        let differ = ListDiffer()
        var ours: ListDifference?
        let oursTime = clock.measure { ours = try? differ.difference(from: flatOld, to: flatNew) }
        var swifts: CollectionDifference<Int>?
        let swiftTime = clock.measure { swifts = flatNew.difference(from: flatOld).inferringMoves() }
        let swiftMoves = swifts.map { $0.insertions.filter { if case .insert(_, _, let from) = $0 { from != nil } else { false } }.count }
        print("  a flat list of \(items.formatted()) Ints with 100 items moved:")
        print(
            "  Diffable " + printer.bold(milliseconds(oursTime)) + " (\(ours?.moves.count ?? 0) moves); Swift's "
                + "difference(from:).inferringMoves() " + printer.bold(milliseconds(swiftTime)) + " (\(swiftMoves ?? 0) moves), "
                + String(format: "%.0f×", swiftTime / max(oursTime, .nanoseconds(1))))
        print("  (at 5% churn Swift's own diff would take minutes: it is quadratic in the number of edits)\n")
    }
}
