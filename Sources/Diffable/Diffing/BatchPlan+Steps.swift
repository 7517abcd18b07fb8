import Foundation

extension BatchValidator {
    /// Validates `batch` like ``validate(_:oldCounts:newCounts:)``, then lists it as steps for a
    /// view that applies changes one at a time (see ``ListStep``), in this order:
    ///
    /// 1. item deletes (and the deletes implied by reloads), last index path first;
    /// 2. section deletes, last first;
    /// 3. section moves: every moved section once, in final order, each put directly after the
    ///    section that precedes it in the final order;
    /// 4. section inserts, first first, at final indices;
    /// 5. item moves: every moved item once, in final order, each put directly after the item that
    ///    precedes it in its final section (indices in the state at that moment);
    /// 6. item inserts (and the inserts implied by reloads), first first, at final index paths;
    /// 7. refreshes: in a refresh-only batch its section reloads, item reloads and reconfigures, at
    ///    their (unchanged) positions; in a structural batch its reconfigures, at final positions.
    ///
    /// After step 6 the view shows the new state, and every insert named a final position. Items
    /// leaving a deleted section or entering an inserted one are deleted and inserted, as in the batch.
    /// - Throws: the batch's first ``Violation``.
    /// - Complexity: O(s + k log k + r log r) for s sections, k operations, and r rows in sections
    ///   that items move into or out of.
    public func steps(for batch: BatchUpdate, oldCounts: [Int], newCounts: [Int]) throws(Violation) -> [ListStep] {
        try plan(batch, oldCounts: oldCounts, newCounts: newCounts).steps()
    }
}

extension BatchPlan {
    /// The batch as ordered steps (see ``BatchValidator/steps(for:oldCounts:newCounts:)``).
    /// - Throws: an I8 ``BatchValidator/Violation`` when compat mode let through a move whose raw
    ///   section indices hide a change of section, so rows do not add up in some section.
    /// - Complexity: O(s + k log k + r log r), as there.
    func steps() throws(Violation) -> [ListStep] {
        if batch.isRefreshOnly {
            return Set(batch.reloadSections).sorted().map(ListStep.reloadSection)
                + Set(batch.reloadItems).sorted().map(ListStep.reloadItem)
                + Set(batch.reconfigureItems).sorted().map(ListStep.reconfigureItem)
        }
        var steps: [ListStep] = []
        steps += itemDeletes.filter { !deletedSections.contains($0.section) }.sorted(by: >).map { .deleteItem($0.indexPath) }
        steps += deletedSections.sorted(by: >).map(ListStep.deleteSection)
        steps += sectionMoveSteps()
        steps += newToOld.indices.filter { newToOld[$0] < 0 }.map(ListStep.insertSection)
        steps += try itemMoveSteps()
        steps += itemInserts.filter { newToOld[$0.section] >= 0 }.sorted().map { .insertItem($0.indexPath) }
        steps += Set(batch.reconfigureItems).sorted().map(ListStep.reconfigureItem)
        return steps
    }

    /// Step 3: the surviving sections, in old order, become the final order.
    func sectionMoveSteps() -> [ListStep] {
        guard !batch.moveSections.isEmpty else { return [] }
        var survivor = [Int](repeating: -1, count: oldCounts.count)  // old index → survivor number
        var survivors = 0
        for old in oldCounts.indices where !deletedSections.contains(old) {
            survivor[old] = survivors
            survivors += 1
        }
        let moved = Set(batch.moveSections.map(\.from))
        let stays = (0..<oldCounts.count).filter { survivor[$0] >= 0 }.map { !moved.contains($0) }
        let target = newToOld.filter { $0 >= 0 }.map { survivor[$0] }
        return SequentialMoves.moves(current: [Array(0..<survivors)], target: [target], stays: stays).map {
            .moveSection(from: $0.fromIndex, to: $0.toIndex)
        }
    }

    /// Step 5: within and across the sections that items move into or out of (all at their final
    /// indices by now), the surviving items become the final order, inserts still missing.
    func itemMoveSteps() throws(Violation) -> [ListStep] {
        guard !moveSources.isEmpty else { return [] }
        let moves = zip(moveSources, moveTargets).map { (from: $0, to: $1) }
        var oldToNew = [Int](repeating: -1, count: oldCounts.count)
        for (new, old) in newToOld.enumerated() where old >= 0 { oldToNew[old] = new }
        // Groups: the new sections touched by a move, ascending; elements: their old rows.
        let touched = Set(moves.map(\.to.section)).union(moves.map { oldToNew[$0.from.section] }).sorted()
        var group = [Int: Int](), firstElement = [Int](), elementCount = 0
        for (index, section) in touched.enumerated() {
            group[section] = index
            firstElement.append(elementCount)
            elementCount += oldCounts[newToOld[section]]
        }
        func element(_ old: RowPath) -> Int { firstElement[group[oldToNew[old.section]]!] + old.item }
        var stays = [Bool](repeating: true, count: elementCount)
        for move in moves { stays[element(move.from)] = false }
        // Per touched section, ascending: deleted old rows, inserted new rows, move targets.
        var deleted = [Int: [Int]](), inserted = [Int: [Int]](), movedIn = [Int: [(item: Int, element: Int)]]()
        for path in itemDeletes where oldToNew[path.section] >= 0 && group[oldToNew[path.section]] != nil {
            deleted[path.section, default: []].append(path.item)
        }
        for path in itemInserts where group[path.section] != nil { inserted[path.section, default: []].append(path.item) }
        for move in moves { movedIn[move.to.section, default: []].append((move.to.item, element(move.from))) }
        var current: [[Int]] = [], target: [[Int]] = []
        for section in touched {
            let old = newToOld[section], first = firstElement[group[section]!]
            var remaining = Self.indices(upTo: oldCounts[old], skipping: deleted[old] ?? [])
            for index in remaining.indices { remaining[index] += first }
            current.append(remaining)
            var carried = remaining.lazy.filter { stays[$0] }.makeIterator()
            var arriving = (movedIn[section] ?? []).sorted { $0.item < $1.item }.makeIterator(), nextArrival = arriving.next()
            var final: [Int] = []
            for item in Self.indices(upTo: newCounts[section], skipping: inserted[section] ?? []) {
                if let arrival = nextArrival, arrival.item == item {
                    final.append(arrival.element)
                    nextArrival = arriving.next()
                } else {
                    guard let next = carried.next() else { throw rowsDoNotAddUp(in: section) }
                    final.append(next)
                }
            }
            if carried.next() != nil { throw rowsDoNotAddUp(in: section) }
            target.append(final)
        }
        // Deleted rows are gone from `current`; they never stay and never move.
        return SequentialMoves.moves(current: current, target: target, stays: stays).map {
            .moveItem(
                from: IndexPath(item: $0.fromIndex, section: touched[$0.fromGroup]),
                to: IndexPath(item: $0.toIndex, section: touched[$0.toGroup]))
        }
    }

    /// `0..<count` without `skipped` (any order, each in range).
    /// - Complexity: O(count + skipped log skipped).
    static func indices(upTo count: Int, skipping skipped: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        var next = 0
        for gap in skipped.sorted() {
            result += next..<gap
            next = gap + 1
        }
        result += next..<count
        return result
    }

    /// Only compat mode gets here: UIKit counts a move by raw section indices (B6), so a move
    /// between two sections that swap indices passes the count check and still breaks the layout.
    func rowsDoNotAddUp(in section: Int) -> Violation {
        Violation(
            rule: "I8", message: "rows do not add up in section \(section): a move between different sections has equal raw indices")
    }
}
