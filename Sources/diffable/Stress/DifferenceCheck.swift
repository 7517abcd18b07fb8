import Diffable
import DiffableTools
import Foundation

/// The cheap end-of-scenario checks of one `difference(from:)`: its batches accepted by the strict
/// ``BatchValidator`` against the two snapshots' section counts, the counts it reports, and a
/// sample of positions mapped old → new (and new → old when the new layout is known) compared
/// with where the snapshots themselves hold each item.
struct DifferenceCheck {
    typealias Snapshot = DiffableDataSourceSnapshot<Int, Int>
    static let samples = 1_000

    /// What the checks read of one side: its section counts and where it shows an item.
    struct Side {
        let counts: [Int]
        let position: (Int) -> (section: Int, item: Int)?

        /// A snapshot's side. - Complexity: O(s).
        init(_ snapshot: Snapshot) {
            counts = snapshot.sectionIdentifiers.map { snapshot.numberOfItems(inSection: $0) }
            position = { item in snapshot.indexPath(ofItem: item) }
        }

        /// A side known without a snapshot (an outline's visible rows: one section of `count`
        /// rows), so a 10^7-row check does not make the difference build its snapshots.
        init(rows count: Int, row: @escaping (Int) -> Int?) {
            counts = [count]
            position = { item in row(item).map { (0, $0) } }
        }
    }

    let difference: SnapshotDifference<Int, Int>
    let old: Side
    let new: Side

    init(difference: SnapshotDifference<Int, Int>, old: Snapshot, new: Snapshot) {
        self.init(difference: difference, old: Side(old), new: Side(new))
    }

    init(difference: SnapshotDifference<Int, Int>, old: Side, new: Side) {
        (self.difference, self.old, self.new) = (difference, old, new)
    }

    /// Runs every check into `scenario` and describes the difference in its detail.
    /// - Parameters:
    ///   - oldItem: the item at (section, index) of `old`.
    ///   - newItem: the item at (section, index) of `new`, when the caller knows the layout.
    /// - Complexity: O(s + k log k) for the validator, plus O(samples · log s).
    func run(
        into scenario: inout StressScenario, deleted: Int?, inserted: Int?, generator: inout SplitMix64,
        oldItem: (Int, Int) -> Int, newItem: ((Int, Int) -> Int)? = nil
    ) {
        let oldCounts = old.counts, newCounts = new.counts
        let oldStarts = Self.starts(oldCounts), newStarts = Self.starts(newCounts)
        let validator = BatchValidator(flavor: .table, mode: .strict)
        if let batch = difference.structuralBatch {
            do { try validator.validate(batch, oldCounts: oldCounts, newCounts: newCounts) } catch {
                scenario.check(false, "the validator rejected the batch: \(error)")
            }
        }
        if let batch = difference.refreshBatch {
            do { try validator.validate(batch, oldCounts: newCounts, newCounts: newCounts) } catch {
                scenario.check(false, "the validator rejected the refresh batch: \(error)")
            }
        }
        if let deleted { scenario.expect("deleted items", difference.deletedItemCount, deleted) }
        if let inserted { scenario.expect("inserted items", difference.insertedItemCount, inserted) }
        for _ in 0..<Self.samples {
            guard let (section, index) = Self.randomPosition(oldStarts, &generator) else { break }
            let item = oldItem(section, index)
            let mapped = difference.newIndexPath(forOldIndexPath: IndexPath(item: index, section: section))
            let held = new.position(item)
            scenario.check(
                mapped?.section == held?.section && mapped?.item == held?.item,
                "old [\(section), \(index)] (item \(item)) maps to \(String(describing: mapped)), the new snapshot holds it at \(String(describing: held))"
            )
        }
        if let newItem {
            for _ in 0..<Self.samples {
                guard let (section, index) = Self.randomPosition(newStarts, &generator) else { break }
                let item = newItem(section, index)
                let shown = new.position(item)
                scenario.check(shown?.section == section && shown?.item == index, "new [\(section), \(index)] should hold item \(item)")
                let mapped = difference.oldIndexPath(forNewIndexPath: IndexPath(item: index, section: section))
                let held = old.position(item)
                scenario.check(
                    mapped?.section == held?.section && mapped?.item == held?.item,
                    "new [\(section), \(index)] maps back to \(String(describing: mapped)), the old snapshot holds it at \(String(describing: held))"
                )
            }
        }
        scenario.detail +=
            "\(difference.deletedItemCount) deleted, \(difference.insertedItemCount) inserted, \(difference.movedItemCount) moved, "
            + "\(difference.reloadedItemCount + difference.reconfiguredItemCount) refreshed; batch valid"
    }

    /// A uniformly random (section, index) of a layout whose sections start at `starts` (prefix
    /// sums, the total last), or nil when it is empty.
    /// - Complexity: O(log s).
    static func randomPosition(_ starts: [Int], _ generator: inout SplitMix64) -> (Int, Int)? {
        guard let total = starts.last, total > 0 else { return nil }
        let flat = Int.random(in: 0..<total, using: &generator)
        var low = 0, high = starts.count - 1  // the last start ≤ flat
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= flat { low = middle } else { high = middle }
        }
        return (low, flat - starts[low])
    }

    /// Where each section starts, and the total at the end. - Complexity: O(s).
    static func starts(_ counts: [Int]) -> [Int] {
        var result = [0]
        for count in counts { result.append(result[result.count - 1] + count) }
        return result
    }
}
