import CGtk4
import Diffable
import Foundation

/// A batch in the model's positions: which old rows leave their place, which rows fill which
/// new positions, and where moved rows go. Built from the batch's index paths and the section
/// counts alone, so the rows the batch leaves in place are never visited.
struct BatchRows {
    /// What a run of new positions holds.
    enum Source {
        /// The old rows from this old position on (a moved row or a moved section's block).
        case old(Int)
        /// Rows made for this batch (inserted or reloaded), or old rows revived by identity.
        case fresh([RowPointer])
    }

    /// A run of new positions and its rows.
    struct Fill {
        var start: Int
        var count: Int
        var source: Source
        /// Whether the rows are inserted (not reloaded): they may revive deleted rows.
        var inserted = false
    }

    /// Old positions whose rows leave their place (deleted, moved or reloaded).
    private(set) var taken: [Range<Int>] = []
    /// Old positions whose rows leave the model (taken and not moved).
    private(set) var released: [Range<Int>] = []
    /// The released positions that were deleted (not reloaded): they may be revived.
    private var deletedRows: [Range<Int>] = []
    private(set) var fills: [Fill] = []
    /// Rows (or the first row of a block) moved: old position → new position.
    private(set) var moves: [(old: Int, new: Int)] = []
    /// Item rows that stay the same item at another place (moved, reloaded, revived, or in a
    /// moved or reloaded section): old positions → new ones, for the selection.
    private(set) var followers: [(old: Int, new: Int, count: Int)] = []
    /// Whether each new section has a header row, and the new row count.
    private(set) var newHeaders: [Bool] = []
    private(set) var newCount = 0
    /// Old rows given to an insertion with the same identity, with the content they show now.
    private(set) var revived: [(row: RowPointer, content: Any)] = []
    private var revivedOld = Set<Int>()

    /// - Parameters:
    ///   - freshHeader: the header row of new section `section` (nil: none).
    ///   - freshItem: a new row for the item at a new index path.
    /// - Complexity: O(k log k + s) for k changed rows and s sections, plus the rows made.
    init(
        batch: BatchUpdate, oldCounts: [Int], oldHeaders: [Bool], newCounts: [Int],
        freshHeader: (Int) -> RowPointer?, freshItem: (IndexPath) -> RowPointer
    ) {
        precondition(
            batch.reloadItems.isEmpty && batch.reloadSections.isEmpty || batch.isRefreshOnly,
            "DiffableGTK: a structural batch with reloads (resolve it with BatchValidator first)")
        let oldStarts = Self.starts(headers: oldHeaders, counts: oldCounts)
        // Where each new section comes from.
        let deleted = Set(batch.deleteSections)
        let inserted = Set(batch.insertSections)
        let reloaded = Set(batch.reloadSections)
        var movedInto: [Int: Int] = [:]
        var movedOut = Set<Int>()
        for move in batch.moveSections {
            movedInto[move.to] = move.from
            movedOut.insert(move.from)
        }
        var carried = (0..<oldCounts.count).filter { !deleted.contains($0) && !movedOut.contains($0) }.makeIterator()
        var origins: [Int?] = []  // old section of each new section (nil: inserted)
        var freshBlocks: [Int: [RowPointer]] = [:]
        for section in newCounts.indices {
            let origin: Int? = inserted.contains(section) ? nil : (movedInto[section] ?? carried.next())
            origins.append(origin)
            if origin == nil || reloaded.contains(section) {
                var block: [RowPointer] = []
                block.reserveCapacity(newCounts[section] + 1)
                if let header = freshHeader(section) { block.append(header) }
                newHeaders.append(!block.isEmpty)
                for item in 0..<newCounts[section] { block.append(freshItem(IndexPath(item: item, section: section))) }
                freshBlocks[section] = block
            } else {
                newHeaders.append(oldHeaders[origin!])
            }
        }
        let newStarts = Self.starts(headers: newHeaders, counts: newCounts)
        newCount = newStarts.last.map { $0 + (newHeaders.last! ? 1 : 0) + newCounts.last! } ?? 0
        func oldBlock(_ section: Int) -> Range<Int> {
            oldStarts[section]..<(oldStarts[section] + (oldHeaders[section] ? 1 : 0) + oldCounts[section])
        }
        func oldPosition(_ path: IndexPath) -> Int { oldStarts[path.section] + (oldHeaders[path.section] ? 1 : 0) + path.item }
        func newPosition(_ path: IndexPath) -> Int { newStarts[path.section] + (newHeaders[path.section] ? 1 : 0) + path.item }

        // Whole sections.
        for section in batch.deleteSections {
            take(oldBlock(section), releasing: true)
            deletedRows.append(oldBlock(section))
        }
        for section in newCounts.indices {
            let start = newStarts[section]
            if let block = freshBlocks[section] {
                fills.append(Fill(start: start, count: block.count, source: .fresh(block), inserted: origins[section] == nil))
                if let origin = origins[section] {  // a reloaded section: its items stay selected
                    take(oldBlock(origin), releasing: true)
                    followers.append(
                        (
                            oldPosition(IndexPath(item: 0, section: origin)), newPosition(IndexPath(item: 0, section: section)),
                            min(oldCounts[origin], newCounts[section])
                        ))
                }
            } else if let from = movedInto[section] {
                precondition(
                    oldCounts[from] == newCounts[section],
                    "DiffableGTK: a moved section changed its items in the same batch (the batch should delete and insert it)")
                let block = oldBlock(from)
                take(block, releasing: false)
                fills.append(Fill(start: start, count: block.count, source: .old(block.lowerBound)))
                moves.append((block.lowerBound, start))
                followers.append(
                    (oldPosition(IndexPath(item: 0, section: from)), newPosition(IndexPath(item: 0, section: section)), oldCounts[from]))
            }
        }
        // Items.
        for path in batch.deleteItems {
            take(oldPosition(path)..<(oldPosition(path) + 1), releasing: true)
            deletedRows.append(oldPosition(path)..<(oldPosition(path) + 1))
        }
        for path in batch.insertItems {
            fills.append(Fill(start: newPosition(path), count: 1, source: .fresh([freshItem(path)]), inserted: true))
        }
        for move in batch.moveItems {
            let from = oldPosition(move.from)
            let to = newPosition(move.to)
            take(from..<(from + 1), releasing: false)
            fills.append(Fill(start: to, count: 1, source: .old(from)))
            moves.append((from, to))
            followers.append((from, to, 1))
        }
        for path in batch.reloadItems {
            let from = oldPosition(path)
            let to = newPosition(path)
            take(from..<(from + 1), releasing: true)
            fills.append(Fill(start: to, count: 1, source: .fresh([freshItem(path)])))
            followers.append((from, to, 1))
        }
        fills.sort { $0.start < $1.start }
        followers.sort { $0.old < $1.old }
    }

    private mutating func take(_ range: Range<Int>, releasing: Bool) {
        taken.append(range)
        if releasing { released.append(range) }
    }

    /// Row starts of each section: the model position of its header (or first item).
    private static func starts(headers: [Bool], counts: [Int]) -> [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(counts.count)
        var start = 0
        for section in counts.indices {
            starts.append(start)
            start += (headers[section] ? 1 : 0) + counts[section]
        }
        return starts
    }

    /// Gives deleted old rows to inserted rows with the same identity (`identity` of the row's
    /// content; nil: none), so a row deleted and inserted again in one batch (a moved section
    /// the batch also changes arrives as a delete and an insert) keeps its object, and with it
    /// its widget. The fresh row is dropped; the old one shows the fresh content (``revived``).
    /// - Complexity: O(released + fresh rows) expected, plus `identity` for each.
    mutating func reviveByIdentity(oldRows: UnsafePointer<RowPointer?>, identity: (RowPointer) -> AnyHashable?) {
        var byIdentity: [AnyHashable: Int] = [:]
        for range in deletedRows {
            for position in range {
                if let key = identity(oldRows[position]!) { byIdentity[key] = position }
            }
        }
        guard !byIdentity.isEmpty else { return }
        for index in fills.indices where fills[index].inserted {
            guard case .fresh(var block) = fills[index].source else { continue }
            var changed = false
            for offset in block.indices {
                guard let key = identity(block[offset]), let old = byIdentity.removeValue(forKey: key) else { continue }
                let fresh = block[offset]
                let row = oldRows[old]!
                revived.append((row, content(of: fresh)))
                g_object_unref(raw(fresh))
                block[offset] = row
                revivedOld.insert(old)
                let to = fills[index].start + offset
                moves.append((old, to))
                if row.pointee.kind == 0 { followers.append((old, to, 1)) }
                changed = true
            }
            if changed { fills[index].source = .fresh(block) }
        }
        followers.sort { $0.old < $1.old }
    }

    /// The rows leaving the model, each once. - Complexity: O(released rows).
    func releasedRows(oldRows: UnsafePointer<RowPointer?>) -> [RowPointer] {
        var result: [RowPointer] = []
        for range in released {
            for position in range where !revivedOld.contains(position) { result.append(oldRows[position]!) }
        }
        return result
    }

    /// The new list of rows, in a `g_malloc`'d array of ``newCount`` (for the model to take):
    /// the anchors copied in runs from `oldRows`, the fills put between them.
    /// - Complexity: O(new rows) pointer copies (`memcpy` runs), O(k) otherwise.
    func composeNewRows(oldRows: UnsafePointer<RowPointer?>, oldCount: Int, oldHoles: RowHoles) -> UnsafeMutablePointer<RowPointer?> {
        let next = g_malloc_n(gsize(max(newCount, 1)), gsize(MemoryLayout<RowPointer?>.stride))!
            .bindMemory(to: RowPointer?.self, capacity: max(newCount, 1))
        var oldPosition = 0
        var hole = 0
        var newPosition = 0
        // Copies the next `count` anchors of the old list to the new one.
        func copyAnchors(_ count: Int) {
            var left = count
            while left > 0 {
                while hole < oldHoles.count, oldHoles.starts[hole] == oldPosition {
                    oldPosition = oldHoles.ends[hole]
                    hole += 1
                }
                let run = min(left, (hole < oldHoles.count ? oldHoles.starts[hole] : oldCount) - oldPosition)
                precondition(run > 0, "DiffableGTK: the batch does not fit the section counts")
                (next + newPosition).update(from: oldRows + oldPosition, count: run)
                oldPosition += run
                newPosition += run
                left -= run
            }
        }
        for fill in fills {
            copyAnchors(fill.start - newPosition)
            switch fill.source {
            case .old(let start): (next + newPosition).update(from: oldRows + start, count: fill.count)
            case .fresh(let block):
                block.withUnsafeBufferPointer { buffer in
                    for (offset, row) in buffer.enumerated() { next[newPosition + offset] = row }
                }
            }
            newPosition += fill.count
        }
        copyAnchors(newCount - newPosition)
        return next
    }

    /// The new position of the item row at old `position`, nil when it leaves the list.
    /// - Complexity: O(log k).
    func newPosition(ofOld position: Int, oldHoles: RowHoles, newHoles: RowHoles) -> Int? {
        guard oldHoles.hole(containing: position) != nil else {
            return newHoles.position(ofAnchor: oldHoles.anchorsBefore(position))
        }
        var low = 0
        var high = followers.count
        while low < high {
            let middle = (low + high) / 2
            if followers[middle].old <= position { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let follower = followers[low - 1]
        return position < follower.old + follower.count ? follower.new + position - follower.old : nil
    }
}
