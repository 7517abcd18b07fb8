import Foundation
import Testing

@testable import Diffable

/// One snapshot shared by many tasks, read with every query at once: reads must never write
/// save the section starts `indexOfItem` publishes atomically (``SectionStartsCache``), which
/// these reads build concurrently. Run under ThreadSanitizer by `make tsan` (a lazy cache in
/// shared storage not published atomically shows up there as a data race; without TSan it
/// shows up as a wrong answer here).
@Suite struct SharedSnapshotReadTests {
    /// A sectioned snapshot whose section sizes just changed (a delete), so any
    /// derived offsets a read could be tempted to rebuild are "fresh".
    static func makeShared(withReloads: Bool) -> DiffableDataSourceSnapshot<String, Int> {
        var snapshot = DiffableDataSourceSnapshot<String, Int>()
        let sections = (0..<40).map { "S\($0)" }
        snapshot.appendSections(sections)
        for (index, section) in sections.enumerated() {
            snapshot.appendItems(Array((index * 50)..<(index * 50 + 50)), toSection: section)
        }
        snapshot.deleteItems([75, 1_000, 1_999])
        snapshot.moveItem(3, afterItem: 1_500)
        if withReloads {
            snapshot.reloadItems([0, 1_998, 42])
            snapshot.reconfigureItems([500, 7])
            snapshot.reloadSections(["S3"])
        }
        return snapshot
    }

    /// Everything a reader can ask, in one comparable value.
    struct Answers: Equatable {
        var counts: [Int]
        var items: [Int]
        var sections: [String]
        var indexOfItem: [Int?]
        var indexOfSection: [Int?]
        var sectionOfItem: [String?]
        var indexPaths: [[Int]?]
        var contains: [Bool]
        var pending: [[Int]]
        var difference: [BatchUpdate]
        var reverseDifference: [BatchUpdate]
        var described: String
    }

    static func ask(_ snapshot: DiffableDataSourceSnapshot<String, Int>, base: DiffableDataSourceSnapshot<String, Int>) -> Answers {
        let probes = Array(-2..<2_005)
        let sectionProbes = (0..<42).map { "S\($0)" }
        return Answers(
            counts: [snapshot.numberOfItems, snapshot.numberOfSections]
                + sectionProbes.prefix(40).map { snapshot.numberOfItems(inSection: $0) },
            items: snapshot.itemIdentifiers + sectionProbes.prefix(40).flatMap { snapshot.itemIdentifiers(inSection: $0) },
            sections: snapshot.sectionIdentifiers,
            indexOfItem: probes.map { snapshot.indexOfItem($0) },
            indexOfSection: sectionProbes.map { snapshot.indexOfSection($0) },
            sectionOfItem: probes.map { snapshot.sectionIdentifier(containingItem: $0) },
            indexPaths: probes.map { snapshot.indexPath(ofItem: $0).map { [$0.section, $0.item] } },
            contains: probes.map { snapshot.contains(item: $0) } + sectionProbes.map { snapshot.contains(section: $0) },
            pending: [
                snapshot.reloadedItemIdentifiers, snapshot.reconfiguredItemIdentifiers,
                snapshot.reloadedSectionIdentifiers.map { $0.count },
            ],
            difference: snapshot.difference(from: base).batches,
            reverseDifference: base.difference(from: snapshot).batches,
            described: snapshot.debugDescription + "\(snapshot == base)")
    }

    @Test(arguments: [false, true])
    func everyQueryFromSixteenTasksAgreesWithAFreshCopy(withReloads: Bool) async {
        let shared = Self.makeShared(withReloads: withReloads)
        let base = {
            var base = DiffableDataSourceSnapshot<String, Int>()
            base.appendSections(["S0", "S1", "S40"])
            base.appendItems(Array(0..<120), toSection: "S0")
            return base
        }()
        // Expected answers come from an identical snapshot built separately, never from `shared`.
        let expected = Self.ask(Self.makeShared(withReloads: withReloads), base: base)
        let answers = await withTaskGroup(of: Answers.self) { group in
            for _ in 0..<16 { group.addTask { Self.ask(shared, base: base) } }
            var all: [Answers] = []
            for await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.count == 16)
        for answer in answers { #expect(answer == expected) }
    }

    /// Copies made from a shared snapshot and mutated in many tasks never disturb the original.
    @Test func mutatingCopiesInTasksLeavesTheSharedValueIntact() async {
        let shared = Self.makeShared(withReloads: true)
        let expected = Self.makeShared(withReloads: true)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var copy = shared
                    copy.deleteItems([task * 10, 1_001 + task])
                    copy.appendItems([10_000 + task], toSection: "S\(task)")
                    #expect(copy.indexOfItem(10_000 + task) != nil)
                    #expect(shared.indexOfItem(10_000 + task) == nil)
                }
            }
        }
        #expect(shared == expected)
        #expect(shared.itemIdentifiers == expected.itemIdentifiers)
    }

    /// An outline of 3 levels with every third parent expanded.
    static func makeSharedOutline() -> DiffableDataSourceSectionSnapshot<Int> {
        var outline = DiffableDataSourceSectionSnapshot<Int>()
        outline.append(Array(0..<20))
        for root in 0..<20 {
            let children = Array((100 + root * 10)..<(110 + root * 10))
            outline.append(children, to: root)
            for child in children where child % 3 == 0 { outline.append([child * 100, child * 100 + 1], to: child) }
        }
        outline.expand(outline.items.filter { $0 % 3 == 0 })
        outline.delete([5, 104])
        return outline
    }

    /// Every by-identifier query of an outline, asked in `order`.
    static func askOutline(_ outline: DiffableDataSourceSectionSnapshot<Int>, order: [Int]) -> [Int: [Int]] {
        var answers: [Int: [Int]] = [:]
        for item in order {
            let contained = outline.contains(item)
            answers[item] = [
                contained ? 1 : 0, outline.index(of: item) ?? -1, contained ? outline.level(of: item) : -1,
                outline.parent(of: item) ?? -1, outline.isVisible(item) ? 1 : 0, outline.isExpanded(item) ? 1 : 0,
            ]
        }
        return answers
    }

    /// Single-item lookups remember where they last found an item (a guess for the next,
    /// checked before use): tasks asking in different orders overwrite each other's guesses
    /// all the time, and every answer must still be the one a fresh outline gives.
    @Test func outlineQueriesFromSixteenTasksInDifferentOrdersAgreeWithAFreshCopy() async {
        let shared = Self.makeSharedOutline()
        let probes = Self.makeSharedOutline().items + [-1, 5, 104, 10_400, 99_999]
        let expected = Self.askOutline(Self.makeSharedOutline(), order: probes)
        let answers = await withTaskGroup(of: [Int: [Int]].self) { group in
            for task in 0..<16 {
                group.addTask {
                    var order = probes
                    switch task % 4 {
                    case 0: break
                    case 1: order.reverse()
                    case 2: order = stride(from: task % 7, to: probes.count, by: 7).map { probes[$0] } + probes
                    default: order.shuffle()
                    }
                    return Self.askOutline(shared, order: order)
                }
            }
            var all: [[Int: [Int]]] = []
            for await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.count == 16)
        for answer in answers { #expect(answer == expected) }
    }
}
