import Foundation
import Testing

@testable import Diffable

/// A section identifier of an app's own: no pre-specialized body, keyed by `hashValue`.
struct AppSectionID: Hashable, CustomStringConvertible {
    var name: String
    var rank: Int
    var description: String { "\(name)#\(rank)" }
}

/// A section identifier whose hash is constant: every section key collides.
struct CollidingSectionID: Hashable, CustomStringConvertible {
    var name: String
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
    var description: String { "c\(name)" }
}

/// Deleted sections leave their slots on a free list, with the identifier they last held
/// (`SnapshotStorage.sectionIDs`); new sections take those slots first, then new ones past the
/// end. Each snapshot here must read exactly like one built afresh with the same sections.
@Suite struct SectionSlotReuseTests {
    static func built<S: Hashable>(_ sections: [(S, [Int])]) -> DiffableDataSourceSnapshot<S, Int> {
        var snapshot = DiffableDataSourceSnapshot<S, Int>()
        snapshot.appendSections(sections.map(\.0))
        for (section, items) in sections where !items.isEmpty { snapshot.appendItems(items, toSection: section) }
        return snapshot
    }

    static func expect<S: Hashable>(
        _ snapshot: DiffableDataSourceSnapshot<S, Int>, is expected: [(S, [Int])], without gone: [S],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let rebuilt = built(expected)
        #expect(snapshot.sectionIdentifiers == expected.map(\.0), sourceLocation: sourceLocation)
        #expect(snapshot.numberOfItems == expected.reduce(0) { $0 + $1.1.count }, sourceLocation: sourceLocation)
        for (position, (section, items)) in expected.enumerated() {
            #expect(snapshot.indexOfSection(section) == position, sourceLocation: sourceLocation)
            #expect(snapshot.itemIdentifiers(inSection: section) == items, sourceLocation: sourceLocation)
            for item in items { #expect(snapshot.sectionIdentifier(containingItem: item) == section, sourceLocation: sourceLocation) }
        }
        for section in gone {
            #expect(!snapshot.contains(section: section) && snapshot.indexOfSection(section) == nil, sourceLocation: sourceLocation)
        }
        #expect(snapshot == rebuilt && rebuilt == snapshot, sourceLocation: sourceLocation)
        #expect(snapshot.description == rebuilt.description, sourceLocation: sourceLocation)
        #expect(snapshot.debugDescription == rebuilt.debugDescription, sourceLocation: sourceLocation)
        #expect(snapshot.difference(from: rebuilt).isEmpty && rebuilt.difference(from: snapshot).isEmpty, sourceLocation: sourceLocation)
        #expect(
            snapshot.difference(from: DiffableDataSourceSnapshot()).structuralBatch?.insertSections ?? [] == Array(expected.indices),
            sourceLocation: sourceLocation)
    }

    /// Delete, then append and insert sections that take the free slots (the last freed
    /// first) and, past them, new ones; among them a deleted identifier coming back.
    static func reuse<S: Hashable>(_ id: (String) -> S) {
        let (a, b, c, d, e) = (id("A"), id("B"), id("C"), id("D"), id("E"))
        var snapshot = built([(a, [1, 2]), (b, [3]), (c, [4, 5]), (d, [])])
        snapshot.deleteSections([b, d])  // two free slots, the last one holding `d`
        expect(snapshot, is: [(a, [1, 2]), (c, [4, 5])], without: [b, d])

        // One free slot, then the other, then two new slots; `d` comes back in a slot of its own.
        let before = snapshot
        snapshot.appendSections([e, id("F"), d, id("G")])
        snapshot.appendItems([6], toSection: e)
        snapshot.appendItems([7, 8], toSection: d)
        snapshot.appendItems([9])
        expect(before, is: [(a, [1, 2]), (c, [4, 5])], without: [b, d, e])  // the copy kept its contents
        expect(
            snapshot, is: [(a, [1, 2]), (c, [4, 5]), (e, [6]), (id("F"), []), (d, [7, 8]), (id("G"), [9])], without: [b])

        // Free slots through insertSections, some before, some after an anchor.
        snapshot.deleteSections([a, id("F"), id("G")])
        snapshot.insertSections([b, id("H")], beforeSection: c)
        snapshot.insertSections([a, id("I"), id("J")], afterSection: e)
        snapshot.appendItems([10], toSection: id("J"))
        snapshot.moveSection(d, beforeSection: b)
        expect(
            snapshot, is: [(d, [7, 8]), (b, []), (id("H"), []), (c, [4, 5]), (e, [6]), (a, []), (id("I"), []), (id("J"), [10])],
            without: [id("F"), id("G")])

        // Every section gone, then back: all slots free.
        snapshot.deleteSections(snapshot.sectionIdentifiers)
        expect(snapshot, is: [], without: [a, b, c, d, e])
        snapshot.appendSections([c, a])
        snapshot.appendItems([1], toSection: a)
        expect(snapshot, is: [(c, []), (a, [1])], without: [b, d, e])
    }

    @Test func stringSections() { Self.reuse { $0 } }
    @Test func appSections() { Self.reuse { AppSectionID(name: $0, rank: $0.count) } }
    @Test func collidingSections() { Self.reuse { CollidingSectionID(name: $0) } }

    /// Sections already present or repeated are named, and the snapshot and its copies are
    /// left as they were, free slots included (the next append still reuses them).
    static func rejected<S: Hashable>(_ id: (String) -> S) {
        let (a, b, c, d) = (id("A"), id("B"), id("C"), id("D"))
        var snapshot = built([(a, [1]), (b, [2]), (c, [3])])
        snapshot.deleteSections([b])
        let copy = snapshot
        let expected: [(S, [Int])] = [(a, [1]), (c, [3])]

        #expect(throws: SnapshotError.sectionsAlreadyExist([String(reflecting: a), String(reflecting: c)])) {
            try snapshot.tryAppendSections([d, a, b, c])
        }
        #expect(throws: SnapshotError.duplicateSections([.init(identifier: String(reflecting: d), positions: [[0], [2]])])) {
            try snapshot.tryAppendSections([d, b, d])
        }
        // Repeats are reported before sections already present.
        #expect(throws: SnapshotError.duplicateSections([.init(identifier: String(reflecting: a), positions: [[0], [1]])])) {
            try snapshot.tryAppendSections([a, a])
        }
        #expect(throws: SnapshotError.sectionsAlreadyExist([String(reflecting: c)])) {
            try snapshot.tryInsertSections([b, c], beforeSection: a)
        }
        expect(snapshot, is: expected, without: [b, d])
        expect(copy, is: expected, without: [b, d])

        snapshot.appendSections([b, d])  // the free slot, then a new one
        expect(snapshot, is: [(a, [1]), (c, [3]), (b, []), (d, [])], without: [])
        expect(copy, is: expected, without: [b, d])
    }

    @Test func rejectedStringSections() { Self.rejected { $0 } }
    @Test func rejectedAppSections() { Self.rejected { AppSectionID(name: $0, rank: 1) } }
    @Test func rejectedCollidingSections() { Self.rejected { CollidingSectionID(name: $0) } }

    @Test func appendSectionsTrapsNamingTheExistingSection() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var snapshot = DiffableDataSourceSnapshot<AppSectionID, Int>()
            snapshot.appendSections([AppSectionID(name: "A", rank: 1), AppSectionID(name: "Z", rank: 0)])
            snapshot.deleteSections([AppSectionID(name: "Z", rank: 0)])
            snapshot.appendSections([AppSectionID(name: "B", rank: 2), AppSectionID(name: "A", rank: 1)])
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("Fatal error: Diffable: sections already exist in the snapshot: A#1\n"))
        }
    }

    /// A section identifier that is an object.
    final class Owner: Hashable {
        let name: String
        init(_ name: String) { self.name = name }
        static func == (lhs: Owner, rhs: Owner) -> Bool { lhs.name == rhs.name }
        func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// A deleted section's identifier is released with the section, as UIKit's snapshot
    /// releases it, not when its slot is next reused or the snapshot goes: whether sections
    /// remain or not, and when the deleted section's identifier was the one still displayed
    /// at the first position.
    @Test func deletedSectionIdentifiersAreReleased() {
        weak var a: Owner?, b: Owner?, c: Owner?
        var snapshot = DiffableDataSourceSnapshot<Owner, Int>()
        do {
            let (ownerA, ownerB, ownerC) = (Owner("A"), Owner("B"), Owner("C"))
            (a, b, c) = (ownerA, ownerB, ownerC)
            snapshot.appendSections([ownerA, ownerB, ownerC])
            snapshot.appendItems([1], toSection: ownerA)
        }
        snapshot.deleteSections([Owner("A")])
        #expect(snapshot.sectionIdentifiers.map(\.name) == ["B", "C"])
        #expect(a == nil, "a deleted section's identifier is still alive in its free slot")
        snapshot.deleteSections([Owner("B")])
        #expect(b == nil, "a deleted section's identifier is still alive in a free slot")
        snapshot.deleteSections([Owner("C")])
        #expect(snapshot.numberOfSections == 0)
        #expect(c == nil, "the last deleted section's identifier is still alive in its free slot")
        snapshot.appendSections([Owner("D"), Owner("E")])
        snapshot.appendItems([2], toSection: Owner("E"))
        #expect(snapshot.sectionIdentifiers.map(\.name) == ["D", "E"] && snapshot.indexOfItem(2) == 0)
    }
}
