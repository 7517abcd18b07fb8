import Foundation

/// The plain-Swift snapshot model the snapshot and app suites compare with, written as a
/// careful user would: an array of items per section, a Dictionary item → (section, index in
/// section), and each section's first flat index, so every lookup is O(1) as the snapshot's is;
/// edits keep all three current.
struct PlainSnapshotModel<Item: Hashable> {
    typealias Location = BaselineSectionedDiff.Place

    var sectionIDs: [Int] = []
    var items: [[Item]] = []
    var location: [Item: Location] = [:]
    var sectionIndex: [Int: Int] = [:]
    /// The flat index of each section's first item.
    var sectionStart: [Int] = []
    private var itemCount = 0

    /// The model of `sections` holding `items` (same order). - Complexity: O(n + s).
    init(sections: [Int], items: [[Item]]) {
        for (section, ids) in zip(sections, items) {
            appendSection(section)
            append(ids, to: section)
        }
    }

    init() {}

    /// - Complexity: O(1) amortized.
    mutating func appendSection(_ id: Int) {
        sectionIndex[id] = items.count
        sectionIDs.append(id)
        items.append([])
        sectionStart.append(itemCount)
    }

    /// - Complexity: O(ids + sections after `section`).
    mutating func append(_ ids: [Item], to section: Int) {
        let index = sectionIndex[section]!
        let base = items[index].count
        items[index].append(contentsOf: ids)
        for (offset, id) in ids.enumerated() { location[id] = Location(section: index, index: base + offset) }
        for later in (index + 1)..<sectionStart.count { sectionStart[later] += ids.count }
        itemCount += ids.count
    }

    /// The plain two-level diff from this model to `new`, through the indexes this model
    /// already holds: only `new`'s identifiers are looked up, as a careful user diffs.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of the k matched items.
    func difference(to new: PlainSnapshotModel) -> BaselineSectionedDiff.Result {
        BaselineSectionedDiff.diff(oldSectionIndex: sectionIndex, oldPlace: location, newSections: new.sectionIDs, new: new.items)
    }

    /// - Complexity: O(1) expected.
    func indexOfItem(_ id: Item) -> Int? {
        location[id].map { sectionStart[$0.section] + $0.index }
    }

    /// The section holding `id`, or nil. - Complexity: O(1) expected.
    func sectionIdentifier(containingItem id: Item) -> Int? {
        location[id].map { sectionIDs[$0.section] }
    }

    /// Where `id` is, as a view's index path, or nil. - Complexity: O(1) expected.
    func indexPath(for id: Item) -> IndexPath? {
        location[id].map { IndexPath(item: $0.index, section: $0.section) }
    }

    /// - Complexity: O(both sections' sizes + sections between them).
    mutating func moveItem(_ id: Item, after anchor: Item) {
        let from = location[id]!
        items[from.section].remove(at: from.index)
        renumber(section: from.section, from: from.index)
        let to = location[anchor]!
        items[to.section].insert(id, at: to.index + 1)
        renumber(section: to.section, from: to.index + 1)
        if from.section < to.section {
            for section in (from.section + 1)...to.section { sectionStart[section] -= 1 }
        } else if from.section > to.section {
            for section in (to.section + 1)...from.section { sectionStart[section] += 1 }
        }
    }

    /// - Complexity: O(ids + sizes of the sections touched + s).
    mutating func deleteItems(_ ids: [Item]) {
        var touched = Set<Int>()
        for id in ids {
            if let place = location.removeValue(forKey: id) { touched.insert(place.section) }
        }
        for section in touched {
            items[section].removeAll { location[$0] == nil }
            renumber(section: section, from: 0)
        }
        var start = 0
        for section in items.indices {
            sectionStart[section] = start
            start += items[section].count
        }
        itemCount = start
    }

    private mutating func renumber(section: Int, from start: Int) {
        for index in start..<items[section].count { location[items[section][index]] = Location(section: section, index: index) }
    }
}

/// An identifier with its `hashValue` made once, when it enters a plain model: the
/// Dictionary then mixes the stored Int instead of hashing the identifier again, as a
/// snapshot reads the keys it made at build. Lets a plain diff on built models hash no
/// identifier, like `difference(from:)` on built snapshots.
struct HashCached<Value: Hashable>: Hashable {
    let value: Value
    let hash: Int

    init(_ value: Value) {
        self.value = value
        self.hash = value.hashValue
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.hash == rhs.hash && lhs.value == rhs.value }
}
