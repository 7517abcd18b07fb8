/// A snapshot of a list's sections and items, each named by a unique `Hashable`
/// identifier: Apple's `NSDiffableDataSourceSnapshot`, without the `NS`.
///
/// A value type with copy-on-write storage: flat per-slot arrays of identifiers
/// and 64-bit keys plus C identifier tables, so lookups are O(1) expected and
/// building a million items takes tens of milliseconds.
///
/// Rules (Apple's current UIKit): section identifiers are unique; item
/// identifiers are unique across the whole snapshot; the two spaces are
/// separate. Appending or inserting an item that already exists moves it into
/// place (reported through ``DiffableDiagnostics``). Where Apple raises an
/// exception, Diffable traps with a message naming the identifiers and
/// positions; every trapping mutation has a `try…` twin that throws a
/// ``SnapshotError`` and leaves the snapshot unchanged.
///
/// Identifiers must keep `Hashable`'s contract (<doc:HashableIdentifiers>): equal identifiers
/// hash alike, and an identifier's hash value does not change while a snapshot holds it.
/// Each is stored under the 64-bit key it had when added and found again by that key confirmed
/// with `==`. One that is unequal to itself (`Double.nan`) is a new identifier every time, as a
/// `Dictionary` key is: it can be appended, shown and deleted with its section, but never found
/// again by lookups or matched by a diff (each diff deletes and re-inserts it). One whose hash
/// value changed is never lost or merged, only no longer found: `init(validating:)` throws
/// ``SnapshotError/inconsistentHashing(sections:items:)`` for a hash that is not deterministic,
/// the `try…` operations throw it (naming where the identifier is) instead of "not in the
/// snapshot", and ``DiffableDataSource`` reports it (``DiffableDiagnostics``) on `apply`.
/// Nothing traps or hangs. Hash collisions cost `==` calls, never correctness: with every
/// identifier hashing alike, a lookup compares against all n (see the article for the bounds).
///
/// Differences from Apple, on purpose:
/// - identifier equality is Swift's, so `"caf\u{E9}"` and `"cafe\u{301}"` are one
///   identifier (Apple bridges to `NSString` and compares code units);
/// - `==` compares sections, items and pending reload/reconfigure requests.
///
/// In the complexity notes, *n* is the number of items, *s* the number of
/// sections and *k* the number of identifiers passed in. "O(1) expected" counts
/// hash-and-compare operations on identifiers, assuming good hashing: each is O(1)
/// for integers and UUIDs and O(length) for `String` and byte-array identifiers
/// (keying a string reads all of its UTF-8).
public struct DiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    public typealias Section = SectionIdentifierType
    public typealias Item = ItemIdentifierType

    @usableFromInline var storage: SnapshotStorage<SectionIdentifierType, ItemIdentifierType>

    /// An empty snapshot.
    /// - Complexity: O(1).
    @inlinable  // the storage class's generic metadata is then found once per call site, not looked up per call
    public init() {
        storage = SnapshotStorage()
    }
}

extension DiffableDataSourceSnapshot: CopyOnWriteSnapshot {}

extension DiffableDataSourceSnapshot: @unchecked Sendable
where SectionIdentifierType: Sendable, ItemIdentifierType: Sendable {}

extension DiffableDataSourceSnapshot: Equatable {
    /// Equal when sections, their items and the pending refresh requests are equal, in order.
    /// - Complexity: O(n + s).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs.storage === rhs.storage { return true }
        guard lhs.numberOfSections == rhs.numberOfSections, lhs.numberOfItems == rhs.numberOfItems,
            lhs.sectionIdentifiers == rhs.sectionIdentifiers
        else { return false }
        for (left, right) in zip(lhs.storage.sectionOrder, rhs.storage.sectionOrder) {
            let leftSlots = lhs.storage.sectionItems[Int(left)], rightSlots = rhs.storage.sectionItems[Int(right)]
            guard leftSlots.count == rightSlots.count else { return false }
            for (a, b) in zip(leftSlots, rightSlots) where lhs.storage.itemID(atSlot: a) != rhs.storage.itemID(atSlot: b) {
                return false
            }
        }
        return lhs.storage.reloadedItems == rhs.storage.reloadedItems
            && lhs.storage.reconfiguredItems == rhs.storage.reconfiguredItems
            && lhs.storage.reloadedSections == rhs.storage.reloadedSections
    }
}

extension DiffableDataSourceSnapshot: CustomStringConvertible, CustomDebugStringConvertible {
    /// One line per section with its items, e.g. `Snapshot(2 sections, 3 items) ["A": [1, 2], "B": [3]]`.
    /// Long snapshots are shortened. - Complexity: O(min(n, 100) + s).
    public var description: String { render(limit: 100, reflecting: false) }

    /// Like ``description`` with identifiers written by `String(reflecting:)` and pending refreshes.
    /// - Complexity: O(min(n, 100) + s).
    public var debugDescription: String {
        var text = render(limit: 100, reflecting: true)
        if !storage.reloadedItems.isEmpty { text += " reloadItems: \(storage.reloadedItems)" }
        if !storage.reconfiguredItems.isEmpty { text += " reconfigureItems: \(storage.reconfiguredItems)" }
        if !storage.reloadedSections.isEmpty { text += " reloadSections: \(storage.reloadedSections)" }
        return text
    }

    private func render(limit: Int, reflecting: Bool) -> String {
        func show(_ value: some Any) -> String { reflecting ? String(reflecting: value) : "\(value)" }
        var budget = limit
        var parts: [String] = []
        for slot in storage.sectionOrder {
            let items = storage.sectionItems[Int(slot)]
            let shown = items.prefix(max(0, budget)).map { show(storage.itemID(atSlot: $0)) }
            budget -= shown.count
            let more = items.count > shown.count ? ", … \(items.count - shown.count) more" : ""
            parts.append("\(show(storage.sectionIDs[Int(slot)])): [\(shown.joined(separator: ", "))\(more)]")
        }
        func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
        return "Snapshot(\(count(numberOfSections, "section")), \(count(numberOfItems, "item"))) [\(parts.joined(separator: ", "))]"
    }
}
