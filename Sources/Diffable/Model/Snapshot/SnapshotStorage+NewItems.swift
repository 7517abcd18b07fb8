/// Appending new items in steps, for ``DiffableDataSourceSnapshot``'s inlined
/// `appendItems(_:toSection:)`: room reserved here, the identifiers copied by the caller
/// through ``IdentifierColumn/appendIdentifiers(_:sharing:)`` (in its own module, where the identifier type is
/// known, so the copy and the array's growth run specialized, with no generic metadata looked
/// up), their keys entered here, the rest here. These steps touch an array of the identifier type only to
/// drop identifiers again (a failed claim truncates the column).
extension SnapshotStorage {
    /// The section slot `appendItems(_:toSection:)` fills: `section`'s, or the last section's
    /// when `section` is nil; nil when there is no such section, which the general path
    /// reports. Inlinable, so that the optional is unwrapped where `S` is known: this
    /// storage's own code would look up `S?`'s metadata at run time to do it.
    /// - Complexity: O(1) expected.
    @inlinable
    func appendTarget(_ section: S?) -> Int32? {
        if let section { sectionSlot(section) } else { lastSectionSlot }
    }

    /// The slot of the last displayed section, nil when there is none. - Complexity: O(1).
    @usableFromInline
    var lastSectionSlot: Int32? { sectionOrder.last }

    /// Room in the item table for `count` new items, and the slot the first of them takes
    /// (the current item count); nil when the table cannot grow. For a caller that appends
    /// the identifiers before their keys are entered (``claimAppendedItems(_:from:)``).
    /// The storage must be unshared.
    /// - Complexity: O(1), or O(n) when the table grows.
    @usableFromInline
    func reserveNewItems(_ count: Int) -> Int32? {
        do { try reserveItemTable(count) } catch { return nil }
        return Int32(items.ids.count)
    }

    /// Enters `keys[i]` → slot `first + i` for the identifiers the caller appended from slot
    /// `first` on (after ``reserveNewItems(_:)``); or, when a key meets an entry already there
    /// or repeats among them (an identifier present or repeated, or a hash collision: the
    /// general path sorts that out), drops those identifiers again and returns false, the
    /// storage as it was.
    /// - Complexity: O(k) expected.
    @usableFromInline
    func claimAppendedItems(_ keys: UnsafeBufferPointer<UInt64>, from first: Int32) -> Bool {
        if items.claimKeys(keys, first: Int(first)) { return true }
        items.truncate(to: Int(first))
        return false
    }

    /// Completes the items whose keys ``claimAppendedItems(_:from:)`` entered from slot `first` on and
    /// whose identifiers the caller has appended: their keys stored, their places made, and
    /// their slots put at the end of `section`.
    /// - Complexity: O(k + log s).
    @usableFromInline
    func attachNewItems(keys: UnsafeBufferPointer<UInt64>, from first: Int32, toSection section: Int32) {
        items.appendKeys(keys)
        // The new slots are consecutive and go to the section's end: their places are made
        // attached, and the slots appended as a range (no slot array, no second pass to number
        // them, as `attachItems` makes for slots from anywhere).
        // Both arrays grow by a repeated placeholder (their geometric growth, one copy loop)
        // and are then written in place: appending a lazily mapped range or a `Range<Int32>`
        // ran the standard library's element-by-element path, 13–23 instructions a slot.
        let count = keys.count, end = sectionItems[Int(section)].count, placeStart = itemPlace.count
        assert(placeStart == Int(first), "Diffable: item places out of step with the identifiers")
        itemPlace.append(contentsOf: repeatElement(.unattached, count: count))
        sectionItems[Int(section)].append(contentsOf: repeatElement(0, count: count))
        itemPlace.withUnsafeMutableBufferPointer { places in
            sectionItems[Int(section)].withUnsafeMutableBufferPointer { slots in
                for offset in 0..<count {
                    // Slots and positions fit in Int32 (the slot limit): no conversion check.
                    let position = Int32(truncatingIfNeeded: end &+ offset)
                    places[placeStart &+ offset] = ItemPlace(section: section, index: position)
                    slots[end &+ offset] = first &+ Int32(truncatingIfNeeded: offset)
                }
            }
        }
        refreshSectionOffset(ofSlot: section)
    }
}
