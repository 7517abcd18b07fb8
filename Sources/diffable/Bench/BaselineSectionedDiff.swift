/// ALGORITHM.md's two-level diff written the way a user would in plain Swift: a
/// `Dictionary` per level, one LIS per surviving section. It counts operations only (no
/// index paths, no UIKit validity rules), so it is a lower bound on what a naive
/// implementation costs: the in-process baseline of the sectioned benchmarks.
enum BaselineSectionedDiff {
    struct Result: Equatable {
        var deletes: Int
        var inserts: Int
        /// Items moved: within a section (matched − LIS) plus every cross-section move.
        var moves: Int
        /// Sections moved: matched sections − LIS of their old positions in new order.
        var sectionMoves = 0
    }

    /// An old item's place: its section's index and its index in that section.
    struct Place {
        var section: Int
        var index: Int
    }

    /// Sections are identified by their identifiers in `oldSections`/`newSections`,
    /// holding the items of `old`/`new` at the same index. Builds the old side's two indexes
    /// (every identifier hashed), then diffs through them.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of the k matched items.
    static func diff<Section: Hashable, Item: Hashable>(
        oldSections: [Section], old: [[Item]], newSections: [Section], new: [[Item]]
    ) -> Result {
        var oldSectionIndex = [Section: Int](minimumCapacity: oldSections.count)
        for (index, section) in oldSections.enumerated() { oldSectionIndex[section] = index }
        var oldPlace = [Item: Place](minimumCapacity: old.reduce(0) { $0 + $1.count })
        for (section, items) in old.enumerated() {
            for (index, item) in items.enumerated() { oldPlace[item] = Place(section: section, index: index) }
        }
        return diff(oldSectionIndex: oldSectionIndex, oldPlace: oldPlace, newSections: newSections, new: new)
    }

    /// The same diff through indexes of the old side a model already holds (section →
    /// index, item → place), so only the new side's identifiers are looked up.
    /// - Complexity: O(n + s) expected plus O(k log k) for the LIS of the k matched items.
    static func diff<Section: Hashable, Item: Hashable>(
        oldSectionIndex: [Section: Int], oldPlace: [Item: Place], newSections: [Section], new: [[Item]]
    ) -> Result {
        var result = Result(deletes: 0, inserts: 0, moves: 0)
        let matchedSections = newSections.compactMap { oldSectionIndex[$0] }
        result.sectionMoves = matchedSections.count - BaselineDiff.lisLength(matchedSections)
        var matched = 0
        var sequence: [Int] = []
        for (newSection, items) in new.enumerated() {
            let oldSection = oldSectionIndex[newSections[newSection]] ?? -1
            sequence.removeAll(keepingCapacity: true)
            for item in items {
                guard let place = oldPlace[item] else {
                    result.inserts += 1
                    continue
                }
                matched += 1
                if place.section == oldSection { sequence.append(place.index) } else { result.moves += 1 }
            }
            result.moves += sequence.count - BaselineDiff.lisLength(sequence)
        }
        result.deletes = oldPlace.count - matched
        return result
    }

    /// The same result for small non-negative integer identifiers, through arrays indexed by
    /// identifier instead of Dictionaries: the untimed count of minimal moves when the timed
    /// baseline is skipped (arrays instead of Dictionaries keep it affordable at 10^7 items).
    /// - Complexity: O(n + s + largest identifier) plus O(k log k) for the LIS.
    static func diffIntegers(oldSections: [Int], old: [[Int]], newSections: [Int], new: [[Int]]) -> Result {
        let largestSection = max(oldSections.max() ?? 0, newSections.max() ?? 0)
        let largestItem = max(old.lazy.compactMap { $0.max() }.max() ?? 0, new.lazy.compactMap { $0.max() }.max() ?? 0)
        var sectionIndex = [Int32](repeating: -1, count: largestSection + 1)
        for (index, section) in oldSections.enumerated() { sectionIndex[section] = Int32(index) }
        var placeSection = [Int32](repeating: -1, count: largestItem + 1), placeIndex = [Int32](repeating: 0, count: largestItem + 1)
        var oldCount = 0
        for (section, items) in old.enumerated() {
            oldCount += items.count
            for (index, item) in items.enumerated() {
                placeSection[item] = Int32(section)
                placeIndex[item] = Int32(index)
            }
        }
        var result = Result(deletes: 0, inserts: 0, moves: 0)
        let matchedSections = newSections.compactMap { sectionIndex[$0] >= 0 ? Int(sectionIndex[$0]) : nil }
        result.sectionMoves = matchedSections.count - BaselineDiff.lisLength(matchedSections)
        var matched = 0
        var sequence: [Int] = []
        for (newSection, items) in new.enumerated() {
            let oldSection = sectionIndex[newSections[newSection]]
            sequence.removeAll(keepingCapacity: true)
            for item in items {
                guard placeSection[item] >= 0 else {
                    result.inserts += 1
                    continue
                }
                matched += 1
                if placeSection[item] == oldSection { sequence.append(Int(placeIndex[item])) } else { result.moves += 1 }
            }
            result.moves += sequence.count - BaselineDiff.lisLength(sequence)
        }
        result.deletes = oldCount - matched
        return result
    }
}
