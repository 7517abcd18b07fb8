#if DIFFABLE_INTERNAL_CHECKS
    extension SectionSnapshotStorage {
        /// Verifies levels, parents and subtree sizes against each other and the identifier
        /// column (``IdentifierColumn/checkInvariants()``) against itself.
        /// - Complexity: O(n).
        func checkInvariants() {
            // As the flat snapshot's: whole-outline checks only up to this size, so that building
            // a large outline in a checked build stays linear.
            guard count <= 50_000 else { return }
            items.checkInvariants()
            precondition(
                count == levels.count && levels.count == parents.count && parents.count == sizes.count && sizes.count == expanded.count)
            var ancestors: [Int] = []
            for position in 0..<count {
                while let last = ancestors.last, last + Int(sizes[last]) <= position { ancestors.removeLast() }
                precondition(parents[position] == Int32(ancestors.last ?? -1), "parent of \(position)")
                precondition(levels[position] == Int32(ancestors.count), "level of \(position)")
                precondition(sizes[position] >= 1 && position + Int(sizes[position]) <= count, "size of \(position)")
                if let last = ancestors.last {
                    precondition(position + Int(sizes[position]) <= last + Int(sizes[last]), "subtree of \(position) overflows")
                }
                // The hinted lookup finds what the table finds.
                let id = id(at: position)
                if !items.strategy.isUserKeyed && id == id { precondition(self.position(of: id) == position, "position of \(position)") }
                ancestors.append(position)
            }
        }
    }
#endif
