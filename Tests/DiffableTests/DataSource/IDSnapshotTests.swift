import Foundation
import Testing

@testable import Diffable

/// The `id` snapshot of a snapshot of values matched by `id` (which checks the `id`s for
/// repeats): built by taking the values' sections over (`init(sectionsOf:holding:)`), and
/// built again through `init(validating:)` only when two `id`s share a key; and the keys of
/// the `id`s that the matcher diffs the values by.
@Suite struct IDSnapshotTests {
    typealias Values = DiffableDataSourceSnapshot<String, Reminder>
    typealias Matcher = IdentifiableItemMatcher<String, Reminder>

    static func values(_ sections: [(String, [Int])]) -> Values {
        .build(sections.map(\.0), sections.map { $0.1.map { Reminder(id: $0, title: "r\($0)") } })
    }

    static func validated(_ sections: [(String, [Int])]) throws -> DiffableDataSourceSnapshot<String, Int> {
        try DiffableDataSourceSnapshot(validating: sections)
    }

    /// Sections in a display order unlike their slots' (inserted before others), one empty.
    static let layout: [(String, [Int])] = [("C", [7, 3]), ("A", []), ("B", [5, 1, 9]), ("D", [2])]

    static func shuffledSections() -> Values {
        var snapshot = Values()
        snapshot.appendSections(["B", "D"])
        snapshot.insertSections(["C", "A"], beforeSection: "B")
        for (section, ids) in layout { snapshot.appendItems(ids.map { Reminder(id: $0, title: "r\($0)") }, toSection: section) }
        return snapshot
    }

    @Test func takesTheSectionsOverAsInitValidatingBuildsThem() throws {
        let values = Self.shuffledSections()
        #expect(values.sectionIdentifiers == Self.layout.map(\.0))
        let ids = Self.layout.flatMap(\.1)
        let mirror = try #require(
            DiffableDataSourceSnapshot<String, Int>(sectionsOf: SectionLayout(of: values.storage), holding: ids))
        #expect(mirror == (try Self.validated(Self.layout)))
        #expect(mirror.storage.slotsFollowDisplayOrder)
        #expect(mirror.indexPath(ofItem: 9).map { [$0.section, $0.item] } == [2, 2])
        #expect(mirror.sectionIdentifier(containingItem: 2) == "D")
    }

    @Test func refusesRepeatedAndCollidingIdentifiers() {
        let values = Self.values([("A", [1, 2]), ("B", [3])])
        let layout = SectionLayout(of: values.storage)
        #expect(DiffableDataSourceSnapshot<String, Int>(sectionsOf: layout, holding: [1, 2, 1]) == nil)
        let colliding = [1, 2, 3].map { CollidingReminder.ID(value: $0) }
        #expect(DiffableDataSourceSnapshot<String, CollidingReminder.ID>(sectionsOf: layout, holding: colliding) == nil)
    }

    /// The matcher's `id` keys and `id` snapshot: the `id`s in display order whatever the
    /// values' slots; a repeated `id` still throws the full report of `init(validating:)`,
    /// and colliding keys still build.
    @Test func theMatchersIDKeysAndSnapshot() throws {
        let matcher = Matcher(updates: .reconfigure, values: IdentifiableValues())
        let outOfOrder = Self.shuffledSections()
        var inserted = outOfOrder
        inserted.insertItems([Reminder(id: 4, title: "r4")], beforeItem: Reminder(id: 5, title: "r5"))
        #expect(!inserted.storage.slotsFollowDisplayOrder)
        let expected = try Self.validated([("C", [7, 3]), ("A", []), ("B", [4, 5, 1, 9]), ("D", [2])])
        #expect(try matcher.idSnapshot(of: inserted) == expected)
        let displayIDs = [7, 3, 4, 5, 1, 9, 2]
        let flat = matcher.keyedByID(inserted)
        #expect(flat.itemKeys == KeyStrategy.of(Int.self).keys(displayIDs))
        #expect(flat.materializedItemSlots.map { inserted.storage.items.ids[Int($0)].id } == displayIDs)
        #expect(flat.starts == [0, 2, 2, 6, 7])
        let appended = Self.values(Self.layout)
        #expect(appended.storage.slotsFollowDisplayOrder)
        #expect(matcher.keyedByID(appended).itemKeys == KeyStrategy.of(Int.self).keys(Self.layout.flatMap(\.1)))

        var repeated = Values()
        repeated.appendSections(["A", "B"])
        repeated.appendItems([Reminder(id: 1, title: "x")], toSection: "A")
        repeated.appendItems([Reminder(id: 1, title: "y")], toSection: "B")
        #expect(throws: SnapshotError.self) { try matcher.idSnapshot(of: repeated) }

        let collidingMatcher = IdentifiableItemMatcher<String, CollidingReminder>(updates: .reconfigure, values: IdentifiableValues())
        var colliding = DiffableDataSourceSnapshot<String, CollidingReminder>()
        colliding.appendSections(["A"])
        colliding.appendItems([1, 2, 3].map { CollidingReminder(Reminder(id: $0, title: "r\($0)")) }, toSection: "A")
        let collidingIDs = try collidingMatcher.idSnapshot(of: colliding)
        #expect(collidingIDs.itemIdentifiers == [1, 2, 3].map { CollidingReminder.ID(value: $0) })
        #expect(Set(collidingMatcher.keyedByID(colliding).itemKeys).count == 1)
    }
}
