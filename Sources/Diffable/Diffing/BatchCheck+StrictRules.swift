import Foundation

extension BatchCheck {
    /// What UIKit accepts but mishandles (docs/BATCH_UPDATE_RULES.md: I1–I9, R1); runs after V8, so every
    /// index here is in range.
    func checkStrictRules(_ map: [Int: Int]) throws(Violation) {
        let explicitSectionDeletes = Set(batch.deleteSections), explicitSectionInserts = Set(batch.insertSections)
        if !explicitSectionDeletes.isEmpty, let path = deletes.first(where: { explicitSectionDeletes.contains($0.section) }) {
            throw fail("I1", "item delete \(Self.show(path.indexPath)) inside deleted section \(path.section)")
        }
        if !explicitSectionInserts.isEmpty, let path = inserts.first(where: { explicitSectionInserts.contains($0.section) }) {
            throw fail("I2", "item insert \(Self.show(path.indexPath)) inside inserted section \(path.section)")
        }
        let movedSources = Set(sectionMoveFrom.keys), movedTargets = Set(sectionMoveTo.keys)
        if !movedSources.isEmpty {
            for path in [deletes, reloads].joined() where movedSources.contains(path.section) {
                throw fail("I5", "item operation at \(Self.show(path.indexPath)) in moved section \(path.section)")
            }
        }
        if !movedTargets.isEmpty, let path = inserts.first(where: { movedTargets.contains($0.section) }) {
            throw fail("I5", "item insert at \(Self.show(path.indexPath)) in moved section \(path.section)")
        }
        if !movedSources.isEmpty || !movedTargets.isEmpty {
            for index in moveSources.indices
            where movedSources.contains(moveSources[index].section) || movedTargets.contains(moveTargets[index].section) {
                throw fail("I5", "item move \(move(at: index)) touches a moved section")
            }
        }
        if !batch.reloadSections.isEmpty {
            if !batch.moveSections.isEmpty { throw fail("I7", "section reload in a batch with section moves") }
            let reloaded = Set(batch.reloadSections), reloadedTargets = Set(reloadedSectionTargets.values)
            let touched =
                [deletes, reloads, moveSources].joined().contains { reloaded.contains($0.section) }
                || [inserts, moveTargets].joined().contains { reloadedTargets.contains($0.section) }
            if touched { throw fail("I7", "item operation in a reloaded section") }
        }
        if !reloads.isEmpty && (!moveSources.isEmpty || !batch.moveSections.isEmpty) {
            throw fail("I9", "item reload in a batch with moves")
        }
        var oldToNew = [Int](repeating: -1, count: m)
        for (old, new) in map { oldToNew[old] = new }
        for index in moveSources.indices
        where moveSources[index].section == moveTargets[index].section && oldToNew[moveSources[index].section] != moveTargets[index].section
        {
            throw fail("I8", "move \(move(at: index)) between different sections with equal raw indices")
        }
        if !reconfigures.isEmpty && !batch.isRefreshOnly {
            throw fail("R1", "reconfigure in a batch with structural changes")
        }
        // Raw equality with a reloaded (old) path; a reconfigure may still be out of range here.
        for path in reconfigures where oldRows.contains(path) && oldRows[path] & Old.reloaded != 0 {
            throw fail("R1", "reconfigure of a reloaded index path \(Self.show(path.indexPath))")
        }
    }

    /// The move at `index`, for a message. - Complexity: O(1).
    func move(at index: Int) -> BatchUpdate.ItemMove {
        BatchUpdate.ItemMove(from: moveSources[index].indexPath, to: moveTargets[index].indexPath)
    }
}
