/// Appending new items in three steps, for ``DiffableDataSourceSnapshot``'s inlined
/// `appendItems(_:toSection:)`: the keys entered here, the identifiers copied by the caller
/// through ``IdentifierColumn/appendIdentifiers(_:)`` (in its own module, where the identifier type is
/// known, so the copy and the array's growth run specialized, with no generic metadata looked
/// up), the rest here. These steps touch no array of the identifier type themselves.
extension SnapshotStorage {
    /// The section slot `appendItems` fills (`nil`: the last section); nil when there is no
    /// such section, which the general path reports.
    /// - Complexity: O(1) expected.
    @usableFromInline
    func appendTarget(_ section: S?) -> Int32? {
        guard let section else { return sectionOrder.last }
        return sectionSlot(section)
    }

    /// Enters `keys[i]` → slot `first + i` for the identifiers about to be appended, `first`
    /// being the current item count, and returns `first`; or changes nothing and returns nil
    /// when a key meets an entry already there or repeats among them (an identifier present or
    /// repeated, or a hash collision: the general path sorts that out), or the table cannot
    /// grow. The storage must be unshared.
    /// - Complexity: O(k) expected, plus O(n) when the table grows.
    @usableFromInline
    func claimNewItems(_ keys: [UInt64]) -> Int32? {
        let first = items.ids.count
        do { try reserveItemTable(keys.count) } catch { return nil }
        guard keys.withUnsafeBufferPointer({ items.claimKeys($0, first: first) }) else { return nil }
        return Int32(first)
    }

    /// Completes the items whose keys ``claimNewItems(_:)`` entered from slot `first` on and
    /// whose identifiers the caller has appended: their keys stored, their places made, and
    /// their slots put at the end of `section`.
    /// - Complexity: O(k + log s).
    @usableFromInline
    func attachNewItems(keys: [UInt64], from first: Int32, toSection section: Int32) {
        items.appendKeys(keys)
        appendUnattachedPlaces(keys.count)
        attachItems(Array(first..<(first + Int32(keys.count))), toSection: section, at: sectionItems[Int(section)].count)
    }
}
