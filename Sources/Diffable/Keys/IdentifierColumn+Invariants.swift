#if DIFFABLE_INTERNAL_CHECKS
    extension IdentifierColumn {
        /// Verifies the column on its own: one key per identifier (none stored for identifiers
        /// that are their own keys), one table entry per slot, each slot's entry under its
        /// stored key, and each identifier found again at its slot by its own lookup, unless
        /// unequal to itself (`Double.nan`) or keyed by a user's `hashValue` (a broken
        /// `Hashable` is reported by the snapshots, not trapped on); and, while the table says
        /// no two entries share a key, distinct keys.
        /// - Complexity: O(n), O(n log n) while the table says its keys are distinct.
        func checkInvariants() {
            precondition(storedKeys.capacity == 0 || !isOwnKey, "a key array kept for identifiers that are their own keys")
            precondition(keyArray.count == ids.count, "\(keyArray.count) stored keys for \(ids.count) identifiers")
            precondition(table.count == ids.count, "table count \(table.count) != \(ids.count)")
            for slot in ids.indices {
                let stored = key(at: slot)
                precondition(table.find(stored) { $0 == Int32(slot) } != nil, "slot \(slot) not in the table")
                let id = ids[slot]
                if !strategy.isUserKeyed && id == id {
                    precondition(stored == strategy.key(id), "slot \(slot) stores a stale key")
                    precondition(lookUp(id, key: stored) == Int32(slot), "identifier at slot \(slot) found elsewhere")
                }
            }
            if !table.keysMayRepeat {
                let sorted = keyArray.sorted()
                precondition(zip(sorted, sorted.dropFirst()).allSatisfy { $0 != $1 }, "a key repeats in a table that says none does")
            }
        }
    }
#endif
