/// Appending new items in steps, for ``DiffableDataSourceSnapshot``'s inlined
/// `appendItems(_:toSection:)`: room reserved here, the identifiers copied by the caller
/// through ``IdentifierColumn/appendIdentifiers(_:sharing:)`` (in its own module, where the identifier type is
/// known, so the copy and the array's growth run specialized, with no generic metadata looked
/// up), their keys entered here, the rest here. These steps touch no array of the identifier type themselves.
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
        appendUnattachedPlaces(keys.count)
        attachItems([Int32](consecutiveFrom: first, count: keys.count), toSection: section, at: sectionItems[Int(section)].count)
    }
}
