import Foundation

extension BatchCheck {
    /// What UIKit accepts but mishandles (BATCH_RULES.md §1.2, §4.6); runs after V8, so every
    /// index here is in range.
    func checkStrictRules(_ map: [Int: Int]) throws(Violation) {
        let explicitSectionDeletes = Set(batch.deleteSections), explicitSectionInserts = Set(batch.insertSections)
        for path in batch.deleteItems where explicitSectionDeletes.contains(path.section) {
            throw fail("I1", "item delete \(Self.show(path)) inside deleted section \(path.section)")
        }
        for path in batch.insertItems where explicitSectionInserts.contains(path.section) {
            throw fail("I2", "item insert \(Self.show(path)) inside inserted section \(path.section)")
        }
        let movedSources = Set(sectionMoveFrom.keys), movedTargets = Set(sectionMoveTo.keys)
        for path in batch.deleteItems + batch.reloadItems where movedSources.contains(path.section) {
            throw fail("I5", "item operation at \(Self.show(path)) in moved section \(path.section)")
        }
        for path in batch.insertItems where movedTargets.contains(path.section) {
            throw fail("I5", "item insert at \(Self.show(path)) in moved section \(path.section)")
        }
        for move in moves where movedSources.contains(move.from.section) || movedTargets.contains(move.to.section) {
            throw fail("I5", "item move \(move) touches a moved section")
        }
        if !batch.reloadSections.isEmpty {
            if !batch.moveSections.isEmpty { throw fail("I7", "section reload in a batch with section moves") }
            let reloaded = Set(batch.reloadSections), reloadedTargets = Set(reloadedSectionTargets.values)
            let touched =
                (batch.deleteItems + batch.reloadItems + moves.map(\.from)).contains { reloaded.contains($0.section) }
                || (batch.insertItems + moves.map(\.to)).contains { reloadedTargets.contains($0.section) }
            if touched { throw fail("I7", "item operation in a reloaded section") }
        }
        if !batch.reloadItems.isEmpty && (!moves.isEmpty || !batch.moveSections.isEmpty) {
            throw fail("I9", "item reload in a batch with moves")
        }
        for move in moves where move.from.section == move.to.section && map[move.from.section] != move.to.section {
            throw fail("I8", "move \(move) between different sections with equal raw indices")
        }
        if !batch.reconfigureItems.isEmpty && !batch.isRefreshOnly {
            throw fail("R1", "reconfigure in a batch with structural changes")
        }
        let reloadSet = Set(batch.reloadItems)
        for path in batch.reconfigureItems where reloadSet.contains(path) {
            throw fail("R1", "reconfigure of a reloaded index path \(Self.show(path))")
        }
    }
}
