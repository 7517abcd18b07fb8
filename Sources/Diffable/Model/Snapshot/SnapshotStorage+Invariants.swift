#if DIFFABLE_INTERNAL_CHECKS
    extension SnapshotStorage {
        /// Snapshots up to this many items are checked whole after every mutation; larger ones
        /// (the 10^6-item demo and benchmarks run through checked builds too) are not, so that
        /// building one stays linear instead of O(n) per append.
        static var invariantCheckLimit: Int { 50_000 }

        /// Verifies every cross-reference between slots, sections and tables (the item
        /// column's own, see ``IdentifierColumn/checkInvariants()``).
        /// - Complexity: O(n + s) when n + s ≤ ``invariantCheckLimit``, otherwise O(1).
        func checkInvariants() {
            guard itemCount + sectionOrder.count <= Self.invariantCheckLimit else { return }
            items.checkInvariants()
            precondition(itemCount == itemPlace.count)
            precondition(sectionIDs.count == sectionKeys.count, "\(sectionIDs.count) section identifiers for \(sectionKeys.count) keys")
            var seen = 0
            for (position, section) in sectionOrder.enumerated() {
                precondition(sectionPosition[Int(section)] == Int32(position))
                for (index, slot) in sectionItems[Int(section)].enumerated() {
                    precondition(itemPlace[Int(slot)] == ItemPlace(section: section, index: Int32(index)))
                    seen += 1
                }
                precondition(sectionTable.find(sectionKeys[Int(section)]) { $0 == section } != nil)
                let id = sectionIDs[Int(section)]
                precondition(sectionStrategy.isUserKeyed || id != id || sectionSlot(id) == section)
            }
            precondition(seen == itemCount, "\(seen) items in sections, \(itemCount) slots")
            precondition(sectionOffsets.count == sectionOrder.count, "\(sectionOffsets.count) offsets for \(sectionOrder.count) sections")
            precondition(sectionOffsets.prefixSum(sectionOrder.count) == seen, "offsets count other than \(seen) items")
            for (position, section) in sectionOrder.enumerated() {
                precondition(sectionOffsets.value(at: position) == sectionItems[Int(section)].count, "stale offset at \(position)")
            }
            if let starts = sectionStarts.starts {
                var start = 0
                for (position, section) in sectionOrder.enumerated() {
                    precondition(starts[Int(section)] == start, "stale cached start at \(position)")
                    start += sectionItems[Int(section)].count
                }
            }
            precondition(sectionTable.count == sectionOrder.count)
        }
    }
#endif
