/// What decides the rows of an outline: its identifiers, keys, subtree sizes and
/// expansion bits in depth-first order, taken from its storage as copy-on-write
/// arrays (O(1), buffers shared). A ``SnapshotDifference`` keeps these, not the
/// storage, to make its snapshots of the visible rows on request.
struct OutlineRows<Item: Hashable> {
    let ids: ContiguousArray<Item>
    let keys: ContiguousArray<UInt64>
    let sizes: ContiguousArray<Int32>
    let expanded: ExpansionBits

    var count: Int { ids.count }

    /// Calls `body` with each maximal run of consecutive visible positions, in order.
    /// - Complexity: O(visible items): a collapsed item's subtree is skipped in one step,
    ///   and the rest of a word of expansion bits in one step when all of them are set.
    func forEachVisibleRun(_ body: (Range<Int>) -> Void) {
        sizes.withUnsafeBufferPointer { sizes in
            expanded.withUnsafeWords { words in
                var position = 0, runStart = 0
                let total = sizes.count
                while position < total {
                    // Expanded items continue the run; bits past the end are zero, so the
                    // test never reads past `total`.
                    let bit = position & 63, width = 64 - bit
                    let rest = words[position >> 6] >> UInt64(bit)
                    if rest == (width == 64 ? ~0 : (1 << UInt64(width)) - 1) {
                        position += width
                        continue
                    }
                    let size = Int(sizes[position])
                    if size == 1 || rest & 1 != 0 {
                        position += 1
                        continue
                    }
                    // A collapsed item with children ends the run; its subtree is hidden.
                    body(runStart..<(position + 1))
                    position += size
                    runStart = position
                }
                if runStart < total { body(runStart..<total) }
            }
        }
    }

    /// The maximal runs of consecutive visible positions, in order.
    /// - Complexity: O(visible items).
    var visibleRuns: [Range<Int>] {
        var runs: [Range<Int>] = []
        forEachVisibleRun { runs.append($0) }
        return runs
    }

    /// The number of visible items.
    /// - Complexity: O(visible items).
    var visibleCount: Int {
        var visible = 0
        forEachVisibleRun { visible += $0.count }
        return visible
    }

    /// The elements of `array` (one per item) at the visible positions, in order.
    /// - Complexity: O(visible items), one allocation.
    func visible<T>(_ array: ContiguousArray<T>, runs: [Range<Int>]) -> [T] {
        let total = runs.reduce(0) { $0 + $1.count }
        guard total > 0 else { return [] }
        return array.withUnsafeBufferPointer { array in
            [T](filling: total) { buffer, initialized in
                for run in runs {
                    (buffer.baseAddress! + initialized).initialize(from: array.baseAddress! + run.lowerBound, count: run.count)
                    initialized += run.count
                }
            }
        }
    }

    /// The visible positions, in order.
    /// - Complexity: O(visible items), one allocation.
    func visiblePositions(runs: [Range<Int>]) -> [Int32] {
        let total = runs.reduce(0) { $0 + $1.count }
        guard total > 0 else { return [] }
        return [Int32](filling: total) { buffer, initialized in
            for run in runs {
                for position in run {
                    buffer[initialized] = Int32(position)
                    initialized += 1
                }
            }
        }
    }

    /// A flat snapshot of one section holding the visible items, built from the stored
    /// keys (no identifier is hashed again).
    /// - Complexity: O(visible items) expected.
    func snapshot<SectionIdentifierType: Hashable>(inSection section: SectionIdentifierType)
        -> DiffableDataSourceSnapshot<SectionIdentifierType, Item>
    {
        let rows = DiffableDataSourceSnapshot<SectionIdentifierType, Item>()
        let flat = rows.storage
        let runs = visibleRuns
        let visibleIDs = visible(ids, runs: runs), visibleKeys = visible(keys, runs: runs)
        do {
            try flat.reserveSections(1)
            try flat.reserveItems(visibleIDs.count)
        } catch {
            fatalError("section snapshot: \(error) (\(visibleIDs.count) visible items)")
        }
        flat.insertSections([section], keys: [flat.sectionKey(section)], at: 0)
        if !flat.appendItemsWithDistinctKeys(visibleIDs, keys: visibleKeys) {
            // Equal keys of different identifiers (hash collisions): one by one.
            for (id, key) in zip(visibleIDs, visibleKeys) { _ = flat.addUnattachedItem(id, key: key) }
        }
        flat.attachSlotsInOrder(counts: CollectionOfOne(visibleIDs.count))
        return rows
    }
}
