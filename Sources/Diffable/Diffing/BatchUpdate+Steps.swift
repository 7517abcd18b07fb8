import Foundation

extension BatchValidator {
    /// Validates `batch` like ``validate(_:oldCounts:newCounts:)``, then lists it as steps for a
    /// view that applies changes one at a time (see ``ListStep``), in the order every Diffable
    /// language shares (docs/ALGORITHM.md, "Steps"; the C core lists them):
    ///
    /// 1. item deletes (and the deletes implied by reloads), last index path first;
    /// 2. section deletes (and reloaded sections' old places), last first;
    /// 3. section moves: every moved section once, in final order, each put directly after the
    ///    section that precedes it in the final order;
    /// 4. section inserts (and reloaded sections' new places), first first, at final indices;
    /// 5. item moves: every moved item once, in final order, each put directly after the item that
    ///    precedes it in its final section (indices in the state at that moment);
    /// 6. item inserts (and the inserts implied by reloads), first first, at final index paths;
    /// 7. refreshes: in a refresh-only batch its section reloads, item reloads and reconfigures, at
    ///    their (unchanged) positions; in a structural batch its reconfigures, at final positions.
    ///
    /// After step 6 the view shows the new state, and every insert named a final position. Items
    /// leaving a deleted section or entering an inserted one are deleted and inserted, as in the batch.
    /// - Throws: the batch's first ``Violation``; in compat mode also an I8 violation when a move
    ///   whose raw section indices hide a change of section leaves rows that do not add up.
    /// - Complexity: O(s + k log k + r log r) for s sections, k operations, and r rows in sections
    ///   that items move into or out of.
    public func steps(for batch: BatchUpdate, oldCounts: [Int], newCounts: [Int]) throws(Violation) -> [ListStep] {
        let plan = try plan(batch, oldCounts: oldCounts, newCounts: newCounts)
        if batch.isRefreshOnly {
            // Validated: its positions are in range, so the core lists it.
            return try batch.steps(oldCounts: newCounts, newCounts: newCounts)
        }
        // The plan has resolved what UIKit derives (reloads as delete + insert, the clean-up of
        // I1 and I2); the core lists that resolved batch.
        var resolved = CoreBatch()
        resolved.deleteSections = plan.deletedSections.sorted().map(UInt32.init)
        resolved.insertSections = plan.insertedSections.sorted().map(UInt32.init)
        resolved.moveSectionsFrom = plan.batch.moveSections.map { UInt32($0.from) }
        resolved.moveSectionsTo = plan.batch.moveSections.map { UInt32($0.to) }
        resolved.deleteItems = plan.itemDeletes.sorted().map(\.packed)
        resolved.insertItems = plan.itemInserts.sorted().map(\.packed)
        resolved.moveItemsFrom = plan.moveSources.map(\.packed)
        resolved.moveItemsTo = plan.moveTargets.map(\.packed)
        // Only the reconfigure list is needed in the core's terms: packed alone, not the whole batch.
        resolved.reconfigureItems = batch.reconfigureItemList.packedPaths(BatchUpdate.corePath)
        do {
            return try ListStep.list(resolved, oldCounts: oldCounts, newCounts: newCounts).get()
        } catch {
            // Only compat mode gets here: UIKit counts a move by raw section indices (B6), so a
            // move between two sections that swap indices passes the count check and still
            // breaks the layout.
            throw Violation(
                rule: "I8", message: "rows do not add up: a move between different sections has equal raw indices")
        }
    }
}

extension BatchUpdate {
    /// This batch as steps for a view that applies changes one at a time, in the order
    /// ``BatchValidator/steps(for:oldCounts:newCounts:)`` lists them, **without** checking it
    /// against UIKit's rules: for batches that are valid by construction (a difference's, a
    /// data source's), where re-validating would only repeat work. The batch is still checked
    /// against the counts, so a wrong one throws instead of listing steps that index outside
    /// the view. Reloads in a structural batch are not listed here (UIKit derives their new
    /// places from the rest of the batch): validate such a batch with
    /// ``BatchValidator/steps(for:oldCounts:newCounts:)``.
    ///
    /// - Parameters:
    ///   - oldCounts: rows per section before the batch; for a refresh-only batch, which names
    ///     final positions, the counts after it.
    ///   - newCounts: rows per section after the batch.
    /// - Throws: a ``BatchValidator/Violation`` with rule `"counts"` when the batch does not fit
    ///   the counts (an index out of range, a row or section moved twice or onto a taken place,
    ///   rows that do not add up) or holds reloads besides structural changes.
    /// - Complexity: O(s + k log k + r log r), as the validating form.
    public func steps(oldCounts: [Int], newCounts: [Int]) throws(BatchValidator.Violation) -> [ListStep] {
        do {
            return try ListStep.list(coreBatch, oldCounts: oldCounts, newCounts: newCounts).get()
        } catch {
            throw BatchValidator.Violation(
                rule: "counts",
                message: error == .invalidArgument
                    ? "a structural batch with reloads: validate it with BatchValidator.steps(for:oldCounts:newCounts:)"
                    : "the batch does not fit the section counts (old \(oldCounts), new \(newCounts)): an index out of range, a row or section moved twice or onto a taken place, or rows that do not add up"
            )
        }
    }

    /// The batch in the core's terms. An index no `UInt32` holds (negative, or too large) becomes
    /// `UInt32.max`, which no count reaches, so the core refuses it; so does a path that is not
    /// two indices long.
    /// - Complexity: O(k).
    var coreBatch: CoreBatch {
        let index = Self.coreIndex, path = Self.corePath
        var batch = CoreBatch()
        batch.deleteSections = deleteSections.map(index)
        batch.insertSections = insertSections.map(index)
        batch.moveSectionsFrom = moveSections.map { index($0.from) }
        batch.moveSectionsTo = moveSections.map { index($0.to) }
        batch.reloadSections = reloadSections.map(index)
        batch.deleteItems = deleteItemList.packedPaths(path)
        batch.insertItems = insertItemList.packedPaths(path)
        (batch.moveItemsFrom, batch.moveItemsTo) = moveItemList.packedPaths(path)
        batch.reloadItems = reloadItemList.packedPaths(path)
        batch.reconfigureItems = reconfigureItemList.packedPaths(path)
        return batch
    }

    /// An index in the core's terms: `UInt32.max`, which no count reaches, for one no `UInt32`
    /// holds (negative, or too large). - Complexity: O(1).
    static func coreIndex(_ value: Int) -> UInt32 { UInt32(exactly: value) ?? .max }

    /// A path in the core's terms (each index as ``coreIndex(_:)``; a path that is not two
    /// indices long becomes one the core refuses). - Complexity: O(1).
    static func corePath(_ path: IndexPath) -> PackedIndexPath {
        path.count == 2
            ? PackedIndexPath(section: coreIndex(path.section), item: coreIndex(path.item)) : PackedIndexPath(section: .max, item: .max)
    }
}

extension ListStep {
    /// The core's steps of `batch` as `ListStep`s, with a pooled context.
    /// - Complexity: O(s + k log k + r log r).
    static func list(_ batch: CoreBatch, oldCounts: [Int], newCounts: [Int]) -> Result<[ListStep], CoreError> {
        func counts(_ values: [Int]) -> [UInt32]? {
            var result: [UInt32] = []
            result.reserveCapacity(values.count)
            for value in values {
                guard let count = UInt32(exactly: value) else { return nil }
                result.append(count)
            }
            return result
        }
        guard let old = counts(oldCounts), let new = counts(newCounts) else { return .failure(.inconsistent) }
        return DiffContextPool.shared.withContext { $0.steps(of: batch, oldCounts: old, newCounts: new) }.map { steps in
            steps.map { step in
                let at = step.at.indexPath, to = step.to.indexPath
                switch step.kind {
                case .deleteItem: return .deleteItem(at)
                case .deleteSection: return .deleteSection(at.section)
                case .moveSection: return .moveSection(from: at.section, to: to.section)
                case .insertSection: return .insertSection(at.section)
                case .moveItem: return .moveItem(from: at, to: to)
                case .insertItem: return .insertItem(at)
                case .reloadSection: return .reloadSection(at.section)
                case .reloadItem: return .reloadItem(at)
                case .reconfigureItem: return .reconfigureItem(at)
                }
            }
        }
    }
}

extension RowPath {
    /// - Complexity: O(1). Callers pass paths a validated plan holds: in range, non-negative.
    var packed: PackedIndexPath { PackedIndexPath(section: UInt32(section), item: UInt32(item)) }
}

extension ItemPathList {
    /// The paths packed for the core: a diff's packed list as it is, given paths through `pack`.
    /// - Complexity: O(count).
    func packedPaths(_ pack: (IndexPath) -> PackedIndexPath) -> [PackedIndexPath] {
        switch self {
        case .indexPaths(let paths): paths.map(pack)
        case .packed(let store, let range): Array(store.paths[range])
        }
    }
}

extension ItemMoveList {
    /// Sources and targets packed for the core.
    /// - Complexity: O(count).
    func packedPaths(_ pack: (IndexPath) -> PackedIndexPath) -> ([PackedIndexPath], [PackedIndexPath]) {
        switch self {
        case .moves(let moves): (moves.map { pack($0.from) }, moves.map { pack($0.to) })
        case .packed(let store, let from, let to): (Array(store.paths[from]), Array(store.paths[to]))
        }
    }
}
