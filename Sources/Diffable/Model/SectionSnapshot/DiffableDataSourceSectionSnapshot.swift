/// An outline of items with expand/collapse state, named by unique `Hashable`
/// identifiers: Apple's `NSDiffableDataSourceSectionSnapshot`, without the `NS`.
///
/// Items form a tree (root items, their children, and so on); the rows a list
/// shows are the ``visibleItems``: every item whose ancestors are all expanded.
/// Items start collapsed. Expansion state belongs to the snapshot, not to the
/// view: it can be set on an item that has no children yet, and it survives
/// collapsing an ancestor, ``replace(childrenOf:using:)`` of an ancestor that
/// keeps the item, and moving a subtree with ``snapshot(of:includingParent:)``
/// and the subtree insertions (subtree snapshots carry their expansion state).
/// `docs/SECTION_SNAPSHOT.md` lists every choice made where Apple's
/// documentation is silent.
///
/// A value type with copy-on-write storage: the outline in depth-first order as
/// flat arrays (identifiers, 64-bit keys, levels, parent positions, subtree sizes,
/// expansion bits) plus the C identifier table the flat snapshot uses, so lookups
/// are O(1) expected and a million-item outline is built in tens of milliseconds.
///
/// Identifiers are unique across the outline. Adding one that is already there,
/// repeating one within a call, or naming a parent or anchor that is not there
/// traps with a message naming the identifiers (Apple raises an exception); every
/// such mutation has a `try…` twin that throws a ``SectionSnapshotError`` and
/// leaves the snapshot unchanged. `init(validating:)` (with `isExpanded`) builds an outline from
/// untrusted `(item, parent)` pairs and never traps.
///
/// Identifiers keep `Hashable`'s contract as in ``DiffableDataSourceSnapshot`` (<doc:HashableIdentifiers>):
/// an identifier unequal to itself (`Double.nan`) is never found again; one whose hash value
/// changed is kept but no longer found; `init(validating:)` reports a hash that is not
/// deterministic (``SectionSnapshotError/Problem/inconsistentHashing(_:positions:)``).
///
/// ``difference(from:)`` diffs the visible rows of two outlines into the same
/// ``SnapshotDifference`` the flat snapshot produces, with one section.
///
/// The hot members (append, the lookups, `difference(from:)`) carry exported
/// pre-specializations for `Int` and `String` identifiers: called from another module,
/// generic code otherwise pays a metadata lookup and witness calls per call
/// (docs/PERFORMANCE.md, "Pre-specialized entry points"). `expand` and `collapse` are
/// inlined into their callers instead, which pass concrete `Int` and `String` entry points
/// the identifiers' buffer: a caller's one-item array literal then stays on its stack.
///
/// In the complexity notes, *n* is the number of items in the outline, *k* the
/// number of identifiers passed in (or the items of the snapshot passed in), and
/// *depth* the level of the deepest item involved plus one.
public struct DiffableDataSourceSectionSnapshot<ItemIdentifierType: Hashable> {
    var storage: SectionSnapshotStorage<ItemIdentifierType>

    /// An empty outline.
    /// - Complexity: O(1).
    public init() {
        storage = SectionSnapshotStorage()
    }

    init(storage: SectionSnapshotStorage<ItemIdentifierType>) {
        self.storage = storage
    }
}

extension DiffableDataSourceSectionSnapshot: CopyOnWriteSnapshot {}

extension DiffableDataSourceSectionSnapshot: @unchecked Sendable where ItemIdentifierType: Sendable {}

extension DiffableDataSourceSectionSnapshot: Equatable {
    /// Equal when the items, their places in the tree and their expansion states are equal.
    /// - Complexity: O(n).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        let left = lhs.storage, right = rhs.storage
        if left === right { return true }
        return left.count == right.count && left.levels == right.levels && left.expanded == right.expanded
            && left.items.ids.values == right.items.ids.values
    }
}
