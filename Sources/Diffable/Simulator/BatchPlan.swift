import Foundation

/// A batch that passed V0–V8, resolved into what the view does with it: which old section
/// each new section shows, and the item deletes, inserts (both including those implied by
/// reloads), reload pairs and moves that remain after UIKit's clean-up (I1, I2, E24).
struct BatchPlan {
    typealias Violation = BatchValidator.Violation
    /// The batch as the view interprets it (compat mode drops exact repeated moves).
    let batch: BatchUpdate
    let oldCounts: [Int]
    let newCounts: [Int]
    /// The old section each new section continues; -1 where it is laid out fresh (inserted or reloaded).
    let newToOld: [Int]
    /// Old sections that disappear (deleted or reloaded).
    let deletedSections: Set<Int>
    /// Old paths that leave (deletes and reload sources) outside deleted sections.
    let itemDeletes: Set<IndexPath>
    /// New paths that arrive (inserts and reload targets) outside fresh sections.
    let itemInserts: Set<IndexPath>
    /// Reload source (old path) → where its implied insert lands (new path).
    let reloadPairs: [IndexPath: IndexPath]
    let moves: [BatchUpdate.ItemMove]
}

/// The rows a view shows after a replayed batch, and which of them it had to refresh.
struct BatchReplay<Row> {
    var rows: [[Row]]
    /// New paths whose row was inserted, reloaded or reconfigured.
    var refreshedPaths: [IndexPath] = []
    /// New sections laid out fresh (inserted or reloaded).
    var freshSections: [Int] = []
}

extension BatchPlan {
    /// V9 (ours, not UIKit's): lays out every new section from `oldRows` as UIKit would
    /// (B5: untouched rows fill the free slots in order) and requires the result to equal
    /// `newRows`, what the data source now answers.
    ///
    /// - Parameters:
    ///   - oldRows: what the view showed; its shape is `oldCounts`.
    ///   - newRows: what the data source answers after the update; its shape is `newCounts`.
    ///   - reloadsKeepRow: a reloaded slot holds the old row (identities: the reload must land on
    ///     the same item) rather than the data source's fresh row (cells: the content may change).
    ///   - sectionMismatch: a description of why old section `o` cannot be new section `t`, or nil.
    /// - Throws: a V9 ``BatchValidator/Violation`` naming the first section that differs.
    /// - Complexity: O(n + s) expected hash operations, n counting old and new rows.
    func replay<Row: Equatable>(
        oldRows: [[Row]], newRows: [[Row]], reloadsKeepRow: Bool, sectionMismatch: (_ old: Int, _ new: Int) -> String? = { _, _ in nil }
    ) throws(Violation) -> BatchReplay<Row> {
        var moveTargets: [IndexPath: IndexPath] = [:]
        var leaving = itemDeletes.union(moves.map(\.from))
        for move in moves { moveTargets[move.to] = move.from }
        var reloadedAt: [IndexPath: IndexPath] = [:]
        for (old, new) in reloadPairs { reloadedAt[new] = old }
        leaving.formUnion(reloadPairs.keys)
        var replay = BatchReplay<Row>(rows: [])
        replay.rows.reserveCapacity(newRows.count)
        for (t, expected) in newRows.enumerated() {
            let o = newToOld[t]
            guard o >= 0 else {
                replay.rows.append(expected)  // a new or reloaded section is laid out fresh
                replay.freshSections.append(t)
                continue
            }
            if let mismatch = sectionMismatch(o, t) { throw Violation(rule: "V9", message: mismatch) }
            var slots = [Row?](repeating: nil, count: expected.count)
            for index in slots.indices {
                let path = IndexPath(item: index, section: t)
                if let source = moveTargets[path] {
                    slots[index] = oldRows[source.section][source.item]
                } else if let source = reloadedAt[path] {
                    slots[index] = reloadsKeepRow ? oldRows[source.section][source.item] : expected[index]
                    replay.refreshedPaths.append(path)
                } else if itemInserts.contains(path) {
                    slots[index] = expected[index]
                    replay.refreshedPaths.append(path)
                }
            }
            var carried = oldRows[o].indices.lazy.filter { !leaving.contains(IndexPath(item: $0, section: o)) }
                .map { oldRows[o][$0] }.makeIterator()
            for index in slots.indices where slots[index] == nil { slots[index] = carried.next() }
            let shown = slots.compactMap { $0 }
            if shown != expected {
                throw Violation(
                    rule: "V9",
                    message:
                        "batch does not produce the target state: section \(t) would show \(shown.map { String(reflecting: $0) }), the data source has \(expected.map { String(reflecting: $0) })"
                )
            }
            replay.rows.append(shown)
        }
        replay.refreshedPaths += batch.reconfigureItems
        return replay
    }
}
