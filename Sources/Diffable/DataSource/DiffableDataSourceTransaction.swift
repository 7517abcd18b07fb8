import Foundation

/// A change the user made in the view (a reorder by drag), handed to the data source's
/// `reorderingHandlers`: Apple's `NSDiffableDataSourceTransaction`.
public struct DiffableDataSourceTransaction<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>:
    Sendable
{
    /// The data source's snapshot before the change.
    public let initialSnapshot: DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    /// The data source's snapshot after the change.
    public let finalSnapshot: DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    /// The change of the flat item list (all sections, in order): `finalSnapshot.itemIdentifiers`
    /// is `initialSnapshot.itemIdentifiers.applying(difference)`.
    public let difference: CollectionDifference<ItemIdentifierType>
    /// One transaction per section whose items changed, in the final section order.
    public let sectionTransactions: [DiffableDataSourceSectionTransaction<SectionIdentifierType, ItemIdentifierType>]

    /// The transaction of moving the item at `source` to `destination` (its index path after
    /// the move), from the state `initialState` to `finalState`.
    /// - Complexity: O(s) to find flat offsets, plus O(size of the flat sections involved)
    ///   for their section snapshots.
    init(
        initial initialState: CommittedState<SectionIdentifierType, ItemIdentifierType>,
        final finalState: CommittedState<SectionIdentifierType, ItemIdentifierType>, movingFrom source: IndexPath,
        to destination: IndexPath
    ) {
        let initial = initialState.snapshot, final = finalState.snapshot
        initialSnapshot = initial
        finalSnapshot = final
        let item = initial.itemIdentifier(at: source)!
        func flat(_ path: IndexPath, in snapshot: DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>) -> Int {
            (0..<path.section).reduce(path.item) { $0 + snapshot.numberOfItems(inSectionAt: $1)! }
        }
        func change(removing: Int?, inserting: Int?, linked: Bool) -> CollectionDifference<ItemIdentifierType> {
            var changes: [CollectionDifference<ItemIdentifierType>.Change] = []
            if let removing { changes.append(.remove(offset: removing, element: item, associatedWith: linked ? inserting : nil)) }
            if let inserting { changes.append(.insert(offset: inserting, element: item, associatedWith: linked ? removing : nil)) }
            return CollectionDifference(changes)!
        }
        difference = change(removing: flat(source, in: initial), inserting: flat(destination, in: final), linked: true)
        let from = initial.sectionIdentifier(at: source.section)!, to = final.sectionIdentifier(at: destination.section)!
        func section(_ identifier: SectionIdentifierType, _ difference: CollectionDifference<ItemIdentifierType>)
            -> DiffableDataSourceSectionTransaction<SectionIdentifierType, ItemIdentifierType>
        {
            .init(
                sectionIdentifier: identifier, initialSnapshot: initialState.sectionSnapshot(for: identifier),
                finalSnapshot: finalState.sectionSnapshot(for: identifier), difference: difference)
        }
        if from == to {
            sectionTransactions = [section(from, change(removing: source.item, inserting: destination.item, linked: true))]
        } else {
            let leaving = section(from, change(removing: source.item, inserting: nil, linked: false))
            let arriving = section(to, change(removing: nil, inserting: destination.item, linked: false))
            let fromIndex = final.indexOfSection(from)!
            sectionTransactions = fromIndex < destination.section ? [leaving, arriving] : [arriving, leaving]
        }
    }
}

/// The part of a ``DiffableDataSourceTransaction`` that concerns one section: Apple's
/// `NSDiffableDataSourceSectionTransaction`.
public struct DiffableDataSourceSectionTransaction<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>:
    Sendable
{
    /// The section whose items changed.
    public let sectionIdentifier: SectionIdentifierType
    /// The section's outline before the change (its rows as root items when it is flat).
    public let initialSnapshot: DiffableDataSourceSectionSnapshot<ItemIdentifierType>
    /// The section's outline after the change (its rows as root items when it is flat).
    public let finalSnapshot: DiffableDataSourceSectionSnapshot<ItemIdentifierType>
    /// The change of the section's items: offsets are positions within the section.
    public let difference: CollectionDifference<ItemIdentifierType>
}
