@testable import Diffable

/// A naive reference model of a snapshot: an array of (section, items) pairs,
/// every operation written the obvious O(n) way.
struct SnapshotModel<S: Hashable, I: Hashable>: Equatable {
    var sections: [(id: S, items: [I])] = []

    static func == (a: Self, b: Self) -> Bool {
        a.sections.map(\.id) == b.sections.map(\.id) && a.sections.map(\.items) == b.sections.map(\.items)
    }

    var allItems: [I] { sections.flatMap(\.items) }
    func sectionIndex(_ id: S) -> Int? { sections.firstIndex { $0.id == id } }
    func location(of item: I) -> (section: Int, item: Int)? {
        for (s, section) in sections.enumerated() {
            if let i = section.items.firstIndex(of: item) { return (s, i) }
        }
        return nil
    }

    mutating func remove(items: [I]) {
        let gone = Set(items)
        for s in sections.indices { sections[s].items.removeAll { gone.contains($0) } }
    }

    mutating func place(_ items: [I], section: Int, index: (Self) -> Int) {
        remove(items: items)
        sections[section].items.insert(contentsOf: items, at: index(self))
    }
}

/// Checks that every query of `snapshot` agrees with `model`; returns the first disagreement.
func disagreement<S: Hashable, I: Hashable>(
    _ snapshot: DiffableDataSourceSnapshot<S, I>, _ model: SnapshotModel<S, I>, probes: [I]
) -> String? {
    if snapshot.sectionIdentifiers != model.sections.map(\.id) { return "sectionIdentifiers" }
    if snapshot.itemIdentifiers != model.allItems { return "itemIdentifiers" }
    if snapshot.numberOfItems != model.allItems.count { return "numberOfItems" }
    if snapshot.numberOfSections != model.sections.count { return "numberOfSections" }
    var flat = 0
    for (index, section) in model.sections.enumerated() {
        if snapshot.numberOfItems(inSection: section.id) != section.items.count { return "numberOfItems(inSection:)" }
        if snapshot.itemIdentifiers(inSection: section.id) != section.items { return "itemIdentifiers(inSection:)" }
        if snapshot.indexOfSection(section.id) != index { return "indexOfSection" }
        for item in section.items {
            if snapshot.indexOfItem(item) != flat { return "indexOfItem(\(item))" }
            if snapshot.sectionIdentifier(containingItem: item) != section.id { return "sectionIdentifier(containingItem:)" }
            flat += 1
        }
    }
    for probe in probes where model.location(of: probe) == nil {
        if snapshot.indexOfItem(probe) != nil || snapshot.sectionIdentifier(containingItem: probe) != nil {
            return "unknown item \(probe) found"
        }
    }
    return nil
}
