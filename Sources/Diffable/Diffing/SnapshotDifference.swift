import Foundation

/// The difference between two snapshots, as data: the batches a list view must
/// perform (one structural batch, then an optional refresh batch of reloads and
/// reconfigures at final positions) and the old ↔ new position mapping.
///
/// Made by ``DiffableDataSourceSnapshot/difference(from:)``; like
/// `CollectionDifference`, it is computed without any view.
public struct SnapshotDifference<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    public typealias Snapshot = DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>

    /// The snapshots this difference leads between.
    /// - Complexity: O(1), or O(n) expected on the first read of a side made on request.
    public var old: Snapshot { oldSide.snapshot }
    /// The target snapshot (with its pending refresh requests).
    /// - Complexity: O(1), or O(n) expected on the first read of a side made on request.
    public var new: Snapshot { newSide.snapshot }

    /// One side: a snapshot, or one made on its first read (an outline's visible rows,
    /// whose identifier table a caller that only reads the batches never needs).
    enum Side {
        case snapshot(Snapshot)
        case onRequest(MadeOnRequest<Snapshot>)

        var snapshot: Snapshot {
            switch self {
            case .snapshot(let snapshot): snapshot
            case .onRequest(let made): made.value
            }
        }
    }

    let oldSide: Side
    let newSide: Side

    /// Zero, one or two batches: the structural batch first (when anything moved,
    /// appeared or disappeared), then the refresh batch (when anything is reloaded).
    public let batches: [BatchUpdate]

    /// Flat item positions old → new and new → old (-1: none); both empty when every item
    /// kept its position (`itemsInPlace`), the maps being the identity. A large diff's maps
    /// are the blocks its context wrote them into (see ``ContextAllocations``).
    let itemsOldToNew: ResultArray<Int32>
    let itemsNewToOld: ResultArray<Int32>
    let itemsInPlace: Bool
    let oldSectionToNew: ResultArray<Int32>
    let newSectionToOld: ResultArray<Int32>
    let oldStarts: [UInt32]
    let newStarts: [UInt32]

    init(
        old: Side, new: Side, batches: [BatchUpdate], oldItemToNew: [Int32], newItemToOld: [Int32], itemsInPlace: Bool = false,
        oldSectionToNew: [Int32], newSectionToOld: [Int32], oldStarts: [UInt32], newStarts: [UInt32]
    ) {
        self.init(
            old: old, new: new, batches: batches, oldItemToNew: ResultArray(oldItemToNew), newItemToOld: ResultArray(newItemToOld),
            itemsInPlace: itemsInPlace, oldSectionToNew: ResultArray(oldSectionToNew), newSectionToOld: ResultArray(newSectionToOld),
            oldStarts: oldStarts, newStarts: newStarts)
    }

    init(
        old: Side, new: Side, batches: [BatchUpdate], oldItemToNew: ResultArray<Int32>, newItemToOld: ResultArray<Int32>,
        itemsInPlace: Bool = false, oldSectionToNew: ResultArray<Int32>, newSectionToOld: ResultArray<Int32>, oldStarts: [UInt32],
        newStarts: [UInt32]
    ) {
        (oldSide, newSide, self.batches, self.itemsInPlace) = (old, new, batches, itemsInPlace)
        (itemsOldToNew, itemsNewToOld, self.oldSectionToNew, self.newSectionToOld) = (
            oldItemToNew, newItemToOld, oldSectionToNew, newSectionToOld
        )
        (self.oldStarts, self.newStarts) = (oldStarts, newStarts)
    }

    init(
        old: Snapshot, new: Snapshot, batches: [BatchUpdate], oldItemToNew: [Int32], newItemToOld: [Int32], itemsInPlace: Bool = false,
        oldSectionToNew: [Int32], newSectionToOld: [Int32], oldStarts: [UInt32], newStarts: [UInt32]
    ) {
        self.init(
            old: .snapshot(old), new: .snapshot(new), batches: batches, oldItemToNew: oldItemToNew, newItemToOld: newItemToOld,
            itemsInPlace: itemsInPlace, oldSectionToNew: oldSectionToNew, newSectionToOld: newSectionToOld, oldStarts: oldStarts,
            newStarts: newStarts)
    }

    /// The item maps as arrays (copies, for tests and tools; see `itemsOldToNew`).
    /// - Complexity: O(n).
    var oldItemToNew: [Int32] { Array(itemsOldToNew) }
    /// - Complexity: O(n).
    var newItemToOld: [Int32] { Array(itemsNewToOld) }

    /// Whether the snapshots show the same thing (no batch at all).
    /// - Complexity: O(1).
    public var isEmpty: Bool { batches.isEmpty }

    /// The structural batch, if any.
    /// - Complexity: O(1).
    public var structuralBatch: BatchUpdate? { batches.first { !$0.isRefreshOnly } }

    /// The refresh batch, if any.
    /// - Complexity: O(1).
    public var refreshBatch: BatchUpdate? { batches.last.flatMap { $0.isRefreshOnly ? $0 : nil } }

    // Operation counts of the structural and refresh batches. - Complexity: O(1) each.

    /// Sections inserted by the structural batch.
    /// - Complexity: O(1).
    public var insertedSectionCount: Int { structuralBatch?.insertSections.count ?? 0 }
    /// Sections deleted by the structural batch.
    /// - Complexity: O(1).
    public var deletedSectionCount: Int { structuralBatch?.deleteSections.count ?? 0 }
    /// Sections moved by the structural batch.
    /// - Complexity: O(1).
    public var movedSectionCount: Int { structuralBatch?.moveSections.count ?? 0 }
    /// Items inserted one by one (items of inserted sections are not counted).
    /// - Complexity: O(1).
    public var insertedItemCount: Int { structuralBatch?.insertItemList.count ?? 0 }
    /// Items deleted one by one (items of deleted sections are not counted).
    /// - Complexity: O(1).
    public var deletedItemCount: Int { structuralBatch?.deleteItemList.count ?? 0 }
    /// Item moves: the fewest per section, plus cross-section moves UIKit allows.
    /// - Complexity: O(1).
    public var movedItemCount: Int { structuralBatch?.moveItemList.count ?? 0 }
    /// Items reloaded by the refresh batch.
    /// - Complexity: O(1).
    public var reloadedItemCount: Int { refreshBatch?.reloadItemList.count ?? 0 }
    /// Items reconfigured by the refresh batch.
    /// - Complexity: O(1).
    public var reconfiguredItemCount: Int { refreshBatch?.reconfigureItemList.count ?? 0 }
    /// Sections reloaded by the refresh batch.
    /// - Complexity: O(1).
    public var reloadedSectionCount: Int { refreshBatch?.reloadSections.count ?? 0 }

    /// Where the item at `indexPath` of the old snapshot is in the new one (nil: deleted).
    /// - Complexity: O(log s) for s new sections (binary search over the new section starts).
    public func newIndexPath(forOldIndexPath indexPath: IndexPath) -> IndexPath? {
        guard let flat = Self.flat(indexPath, oldStarts) else { return nil }
        let mapped = itemsInPlace ? Int32(flat) : itemsOldToNew[flat]
        return mapped < 0 ? nil : Self.path(Int(mapped), newStarts)
    }

    /// Where the item at `indexPath` of the new snapshot was in the old one (nil: inserted).
    /// - Complexity: O(log s) (binary search over section starts).
    public func oldIndexPath(forNewIndexPath indexPath: IndexPath) -> IndexPath? {
        guard let flat = Self.flat(indexPath, newStarts) else { return nil }
        let mapped = itemsInPlace ? Int32(flat) : itemsNewToOld[flat]
        return mapped < 0 ? nil : Self.path(Int(mapped), oldStarts)
    }

    /// The new index of an old section (nil: deleted). - Complexity: O(1).
    public func newSectionIndex(forOldSectionIndex index: Int) -> Int? {
        guard oldSectionToNew.indices.contains(index), oldSectionToNew[index] >= 0 else { return nil }
        return Int(oldSectionToNew[index])
    }

    /// The old index of a new section (nil: inserted). - Complexity: O(1).
    public func oldSectionIndex(forNewSectionIndex index: Int) -> Int? {
        guard newSectionToOld.indices.contains(index), newSectionToOld[index] >= 0 else { return nil }
        return Int(newSectionToOld[index])
    }

    /// The difference of the flat item lists as a `CollectionDifference`, for
    /// snapshots with one section of the same identifier (nil otherwise): removals
    /// at old offsets, insertions at new offsets, moves as associated pairs.
    /// `new.itemIdentifiers.applying(…)` reproduces the new items.
    /// - Complexity: O(n).
    public func collectionDifference() -> CollectionDifference<ItemIdentifierType>? {
        guard old.numberOfSections == 1, new.numberOfSections == 1,
            old.sectionIdentifiers == new.sectionIdentifiers
        else { return nil }
        let oldItems = old.itemIdentifiers, newItems = new.itemIdentifiers
        var changes: [CollectionDifference<ItemIdentifierType>.Change] = []
        let structural = structuralBatch ?? BatchUpdate()
        for path in structural.deleteItems {
            changes.append(.remove(offset: path.item, element: oldItems[path.item], associatedWith: nil))
        }
        for path in structural.insertItems {
            changes.append(.insert(offset: path.item, element: newItems[path.item], associatedWith: nil))
        }
        for move in structural.moveItems {
            changes.append(.remove(offset: move.from.item, element: oldItems[move.from.item], associatedWith: move.to.item))
            changes.append(.insert(offset: move.to.item, element: newItems[move.to.item], associatedWith: move.from.item))
        }
        return CollectionDifference(changes)
    }

    static func flat(_ path: IndexPath, _ starts: [UInt32]) -> Int? {
        guard path.count == 2, path.section >= 0, path.section + 1 < starts.count, path.item >= 0 else { return nil }
        let flat = Int(starts[path.section]) + path.item
        return flat < Int(starts[path.section + 1]) ? flat : nil
    }

    static func path(_ flat: Int, _ starts: [UInt32]) -> IndexPath {
        // Last section whose start is <= flat (empty sections share starts).
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(starts[middle]) <= flat { low = middle } else { high = middle - 1 }
        }
        return IndexPath(item: flat - Int(starts[low]), section: low)
    }
}

extension SnapshotDifference: CustomStringConvertible {
    /// The batches, or "no changes". - Complexity: O(operations).
    public var description: String {
        batches.isEmpty
            ? "SnapshotDifference(no changes)" : "SnapshotDifference(\(batches.map(\.description).joined(separator: ", then ")))"
    }
}

extension SnapshotDifference: @unchecked Sendable where SectionIdentifierType: Sendable, ItemIdentifierType: Sendable {}
