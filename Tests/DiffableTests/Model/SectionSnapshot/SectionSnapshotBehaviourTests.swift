import Foundation
import Testing

@testable import Diffable

/// Apple's section snapshot semantics, one behaviour per test, with exact values.
@Suite struct SectionSnapshotBehaviourTests {
    typealias Outline = DiffableDataSourceSectionSnapshot<String>

    /// Food (Apple, Pear (Seed)), Drinks (Water).
    static func groceries() -> Outline {
        var outline = Outline()
        outline.append(["Food", "Drinks"])
        outline.append(["Apple", "Pear"], to: "Food")
        outline.append(["Seed"], to: "Pear")
        outline.append(["Water"], to: "Drinks")
        return outline
    }

    @Test func appendBuildsTheTreeDepthFirst() {
        let outline = Self.groceries()
        #expect(outline.items == ["Food", "Apple", "Pear", "Seed", "Drinks", "Water"])
        #expect(outline.rootItems == ["Food", "Drinks"])
        #expect(outline.level(of: "Seed") == 2)
        #expect(outline.level(of: "Drinks") == 0)
        #expect(outline.parent(of: "Seed") == "Pear")
        #expect(outline.parent(of: "Food") == nil)
        #expect(outline.parent(of: "ghost") == nil)
        #expect(outline.index(of: "Drinks") == 4)
        #expect(outline.index(of: "ghost") == nil)
        #expect(outline.contains("Water") && !outline.contains("ghost"))
    }

    @Test func itemsStartCollapsedAndOnlyRootsShow() {
        let outline = Self.groceries()
        #expect(outline.expandedItems.isEmpty)
        #expect(outline.visibleItems == ["Food", "Drinks"])
        #expect(outline.isVisible("Food") && !outline.isVisible("Apple") && !outline.isVisible("ghost"))
        #expect(!outline.isExpanded("Food") && !outline.isExpanded("ghost"))
    }

    @Test func expandingShowsChildrenOnlyWhenEveryAncestorIsExpanded() {
        var outline = Self.groceries()
        outline.expand(["Pear"])
        #expect(outline.visibleItems == ["Food", "Drinks"])
        #expect(!outline.isVisible("Seed"))
        outline.expand(["Food"])
        #expect(outline.visibleItems == ["Food", "Apple", "Pear", "Seed", "Drinks"])
        #expect(outline.expandedItems == ["Food", "Pear"])
    }

    @Test func aChildlessItemCanBeExpandedAndStaysExpandedWhenChildrenArrive() {
        var outline = Outline()
        outline.append(["Folder"])
        outline.expand(["Folder"])
        #expect(outline.isExpanded("Folder"))
        outline.append(["File"], to: "Folder")
        #expect(outline.visibleItems == ["Folder", "File"])
    }

    @Test func expansionSurvivesCollapsingAnAncestor() {
        var outline = Self.groceries()
        outline.expand(["Food", "Pear"])
        outline.collapse(["Food"])
        #expect(outline.isExpanded("Pear"))
        #expect(outline.visibleItems == ["Food", "Drinks"])
        outline.expand(["Food"])
        #expect(outline.visibleItems == ["Food", "Apple", "Pear", "Seed", "Drinks"])
    }

    @Test func expandAndCollapseIgnoreUnknownItems() {
        var outline = Self.groceries()
        let before = outline
        outline.expand(["ghost"])
        outline.collapse(["ghost", "Food"])
        #expect(outline == before)
        outline.expand(["ghost", "Drinks", "Drinks"])
        #expect(outline.expandedItems == ["Drinks"])
    }

    @Test func insertBeforeAndAfterStayAtTheAnchorsLevel() {
        var outline = Self.groceries()
        outline.insert(["Fig"], before: "Pear")
        outline.insert(["Plum"], after: "Pear")  // after Pear's descendants
        outline.insert(["Snacks"], after: "Food")  // after all of Food
        #expect(outline.items == ["Food", "Apple", "Fig", "Pear", "Seed", "Plum", "Snacks", "Drinks", "Water"])
        #expect(outline.parent(of: "Plum") == "Food" && outline.level(of: "Plum") == 1)
        #expect(outline.parent(of: "Snacks") == nil)
        #expect(!outline.isExpanded("Fig"))
    }

    @Test func deleteTakesDescendantsAndIgnoresUnknownItems() {
        var outline = Self.groceries()
        outline.expand(["Pear", "Seed"])
        outline.delete(["Pear", "ghost", "Seed"])
        #expect(outline.items == ["Food", "Apple", "Drinks", "Water"])
        #expect(outline.expandedItems.isEmpty)
        outline.delete(["Food", "Water"])
        #expect(outline.items == ["Drinks"])
        // A deleted item that comes back starts collapsed.
        outline.append(["Pear"])
        #expect(!outline.isExpanded("Pear"))
    }

    @Test func deleteAllForgetsItemsAndExpansion() {
        var outline = Self.groceries()
        outline.expand(["Food"])
        let copy = outline
        outline.deleteAll()
        #expect(outline.items.isEmpty && outline.expandedItems.isEmpty && outline.visibleItems.isEmpty)
        outline.append(["Food"])
        #expect(!outline.isExpanded("Food"))
        #expect(copy.items.count == 6 && copy.isExpanded("Food"))
    }

    @Test func subtreeSnapshotsCarryExpansionAndRebaseLevels() {
        var outline = Self.groceries()
        outline.expand(["Pear", "Drinks"])
        let children = outline.snapshot(of: "Food")
        #expect(children.items == ["Apple", "Pear", "Seed"])
        #expect(children.rootItems == ["Apple", "Pear"])
        #expect(children.level(of: "Seed") == 1 && children.parent(of: "Apple") == nil)
        #expect(children.expandedItems == ["Pear"])
        #expect(children.visibleItems == ["Apple", "Pear", "Seed"])
        let withParent = outline.snapshot(of: "Food", includingParent: true)
        #expect(withParent.rootItems == ["Food"] && withParent.level(of: "Seed") == 2)
        #expect(outline.snapshot(of: "Seed").items.isEmpty)
    }

    @Test func movingASubtreeKeepsItsExpansion() {
        var outline = Self.groceries()
        outline.expand(["Pear", "Food", "Drinks"])
        let pear = outline.snapshot(of: "Pear", includingParent: true)
        outline.delete(["Pear"])
        outline.append(pear, to: "Drinks")
        #expect(outline.items == ["Food", "Apple", "Drinks", "Water", "Pear", "Seed"])
        #expect(outline.isExpanded("Pear") && outline.level(of: "Seed") == 2)
        #expect(outline.visibleItems == ["Food", "Apple", "Drinks", "Water", "Pear", "Seed"])
        outline.delete(["Pear"])
        outline.insert(pear, before: "Food")
        #expect(outline.rootItems == ["Pear", "Food", "Drinks"] && outline.isExpanded("Pear"))
        outline.delete(["Pear"])
        outline.insert(pear, after: "Apple")
        #expect(outline.items == ["Food", "Apple", "Pear", "Seed", "Drinks", "Water"])
    }

    @Test func replaceChildrenKeepsTheExpansionOfItemsThatStay() {
        var outline = Self.groceries()
        outline.expand(["Food", "Pear"])
        var fresh = Outline()
        fresh.append(["Pear", "Kiwi"])  // Pear collapsed here, expanded in the outline
        fresh.append(["Pit"], to: "Kiwi")
        fresh.expand(["Kiwi"])
        outline.replace(childrenOf: "Food", using: fresh)
        #expect(outline.items == ["Food", "Pear", "Kiwi", "Pit", "Drinks", "Water"])
        #expect(outline.expandedItems == ["Food", "Pear", "Kiwi"])
        #expect(!outline.contains("Apple") && !outline.contains("Seed"))
        outline.replace(childrenOf: "Drinks", using: Outline())
        #expect(outline.items == ["Food", "Pear", "Kiwi", "Pit", "Drinks"])
    }

    @Test func equalityComparesStructureAndExpansion() {
        let outline = Self.groceries()
        var expanded = outline
        expanded.expand(["Seed"])
        #expect(expanded != outline)
        expanded.collapse(["Seed"])
        #expect(expanded == outline)
        // Same items in the same order, another tree.
        var flat = Outline()
        flat.append(["Food", "Apple", "Pear", "Seed", "Drinks", "Water"])
        #expect(flat.items == outline.items && flat != outline)
    }

    @Test func copiesAreIndependent() {
        let original = Self.groceries()
        var copy = original
        copy.expand(["Food"])
        copy.append(["Tea"], to: "Drinks")
        copy.delete(["Apple"])
        #expect(original.items == ["Food", "Apple", "Pear", "Seed", "Drinks", "Water"])
        #expect(original.expandedItems.isEmpty)
    }

    @Test func isSendableWhenItemIs() {
        func requireSendable<T: Sendable>(_ value: T) -> T { value }
        let outline = requireSendable(Self.groceries())
        #expect(outline.items.count == 6)
    }

    @Test func visualDescriptionDrawsTheTree() {
        var outline = Self.groceries()
        outline.expand(["Food", "Seed"])
        #expect(
            outline.visualDescription() == """
                DiffableDataSourceSectionSnapshot: 6 items, 4 visible, 2 expanded
                * + Food
                *   - Apple
                *   - Pear
                      + Seed
                * - Drinks
                    - Water
                """)
        #expect(Outline().visualDescription() == "DiffableDataSourceSectionSnapshot: 0 items, 0 visible, 0 expanded")
    }

    @Test func descriptionShowsChildrenInBrackets() {
        var outline = Self.groceries()
        outline.expand(["Food"])
        #expect(outline.description == "SectionSnapshot(6 items, 4 visible) [Food+ [Apple, Pear [Seed]], Drinks [Water]]")
        #expect(outline.debugDescription.hasPrefix("SectionSnapshot(6 items, 4 visible) [\"Food\"+ [\"Apple\""))
        #expect(Outline().description == "SectionSnapshot(0 items, 0 visible) []")
        var long = DiffableDataSourceSectionSnapshot<Int>()
        long.append(Array(0..<150))
        #expect(long.description.hasSuffix("98, 99, … 50 more]"))
    }

    @Test func expandAllInOutlineOrderAndAtRandom() {
        var outline = Self.groceries()
        outline.expand(outline.items)
        #expect(outline.visibleItems == outline.items)
        outline.collapse(outline.items.reversed())
        #expect(outline.expandedItems.isEmpty)
        outline.expand(["Water", "Food", "Seed"])
        #expect(outline.expandedItems == ["Food", "Seed", "Water"])
    }

    @Test func identifiersUnequalToThemselvesNeitherTrapNorHang() {
        var outline = DiffableDataSourceSectionSnapshot<Double>()
        outline.append([1, .nan, 2])
        outline.append([.nan], to: 1)
        #expect(outline.items.count == 4 && !outline.contains(.nan))
        outline.expand([.nan, 1])
        #expect(outline.visibleItems.count == 4)
        outline.delete([1])
        #expect(outline.items.count == 2)
    }
}

/// Rejected operations: exact problem lists, and nothing changes.
@Suite struct SectionSnapshotErrorTests {
    typealias Outline = DiffableDataSourceSectionSnapshot<String>

    func expectRejected(
        _ outline: Outline, _ expected: SectionSnapshotError, _ body: (inout Outline) throws -> Void
    ) {
        var changed = outline
        do {
            try body(&changed)
            Issue.record("nothing thrown, expected \(expected)")
        } catch {
            #expect(error as? SectionSnapshotError == expected)
        }
        #expect(changed == outline && changed.items == outline.items)
    }

    @Test func everyProblemOfOneCallIsListed() {
        let outline = SectionSnapshotBehaviourTests.groceries()
        expectRejected(
            outline,
            SectionSnapshotError(
                operation: "append(_:to:)",
                problems: [
                    .notInSnapshot("\"ghost\""), .duplicate("\"x\"", positions: [0, 2, 3]), .alreadyInSnapshot("\"Apple\""),
                ])
        ) { try $0.tryAppend(["x", "Apple", "x", "x"], to: "ghost") }
        expectRejected(
            outline,
            SectionSnapshotError(operation: "insert(_:before:)", problems: [.anchorIsInserted("\"Pear\""), .alreadyInSnapshot("\"Seed\"")])
        ) { try $0.tryInsert(["Pear", "new", "Seed"], before: "Pear") }
        expectRejected(outline, SectionSnapshotError(operation: "insert(_:after:)", problems: [.notInSnapshot("\"ghost\"")])) {
            try $0.tryInsert(["new"], after: "ghost")
        }
    }

    @Test func subtreeOperationsNameTheirProblems() {
        let outline = SectionSnapshotBehaviourTests.groceries()
        var addition = Outline()
        addition.append(["Pear", "new"])
        addition.append(["Water"], to: "new")
        expectRejected(
            outline,
            SectionSnapshotError(operation: "insert(_:after:)", problems: [.anchorIsInserted("\"Pear\""), .alreadyInSnapshot("\"Water\"")])
        ) { try $0.tryInsert(addition, after: "Pear") }
        expectRejected(
            outline,
            SectionSnapshotError(operation: "append(_:to:)", problems: [.alreadyInSnapshot("\"Pear\""), .alreadyInSnapshot("\"Water\"")])
        ) { try $0.tryAppend(addition, to: "Food") }
        // Seed is Food's descendant (may stay); Water is elsewhere; Food is the parent itself.
        var replacement = Outline()
        replacement.append(["Seed", "Water", "Food"])
        expectRejected(
            outline,
            SectionSnapshotError(
                operation: "replace(childrenOf:using:)", problems: [.anchorIsInserted("\"Food\""), .alreadyInSnapshot("\"Water\"")])
        ) { try $0.tryReplace(childrenOf: "Food", using: replacement) }
        expectRejected(
            outline, SectionSnapshotError(operation: "replace(childrenOf:using:)", problems: [.notInSnapshot("\"ghost\"")])
        ) { try $0.tryReplace(childrenOf: "ghost", using: Outline()) }
        #expect(throws: SectionSnapshotError(operation: "snapshot(of:includingParent:)", problems: [.notInSnapshot("\"ghost\"")])) {
            try outline.trySnapshot(of: "ghost")
        }
    }

    @Test func errorTextNamesEveryProblem() {
        let error = SectionSnapshotError(
            operation: "append(_:to:)",
            problems: [
                .notInSnapshot("\"p\""), .duplicate("\"x\"", positions: [0, 2]), .alreadyInSnapshot("\"y\""), .anchorIsInserted("\"a\""),
                .unknownParent(item: "\"c\"", parent: "\"z\""), .cycle(["\"a\"", "\"b\""]),
            ])
        #expect(
            error.description == "append(_:to:): \"p\" is not in the snapshot; \"x\" is not unique: at [0], [2]; "
                + "\"y\" is already in the snapshot; \"a\" cannot be placed relative to itself (it is among the items inserted); "
                + "\"c\" names the parent \"z\", which is not among the items; parents form a cycle: \"a\" → \"b\" → \"a\"")
    }
}

/// `init(validating:)`: untrusted `(item, parent)` entries in any order.
@Suite struct SectionSnapshotValidationTests {
    typealias Outline = DiffableDataSourceSectionSnapshot<String>

    @Test func entriesInAnyOrderKeepSiblingOrder() throws {
        let outline = try Outline(validating: [
            ("Seed", "Pear"), ("Apple", "Food"), ("Water", "Drinks"), ("Food", nil), ("Pear", "Food"), ("Drinks", nil),
        ])
        #expect(outline == SectionSnapshotBehaviourTests.groceries())
        let expanded = try Outline(validating: [("b", "a", true), ("a", nil, true), ("c", "b", false)])
        #expect(expanded.expandedItems == ["a", "b"] && expanded.visibleItems == ["a", "b", "c"])
        #expect(try Outline(validating: [] as [(item: String, parent: String?)]).items.isEmpty)
    }

    @Test func reportsDuplicatesOrphansAndCyclesTogether() {
        let entries: [(item: String, parent: String?)] = [
            ("a", "b"), ("b", "a"),  // a two-item cycle
            ("self", "self"),  // a one-item cycle
            ("x", nil), ("y", "x"), ("x", "y"),  // x twice, its two entries disagreeing
            ("orphan", "missing"),
            ("under", "a"),  // under a cycle: placed once the cycle is fixed
            ("fine", nil),
        ]
        #expect(
            throws: SectionSnapshotError(
                operation: "init(validating:)",
                problems: [
                    .duplicate("\"x\"", positions: [3, 5]), .unknownParent(item: "\"orphan\"", parent: "\"missing\""),
                    .cycle(["\"a\"", "\"b\""]), .cycle(["\"self\""]),
                ])
        ) { try Outline(validating: entries) }
    }

    @Test func aLongChainAndALongCycleAreLinear() throws {
        let chain = (1..<20_000).map { (item: $0, parent: Optional($0 - 1)) } + [(item: 0, parent: nil)]
        let outline = try DiffableDataSourceSectionSnapshot<Int>(validating: chain.reversed())
        #expect(outline.level(of: 19_999) == 19_999 && outline.items == Array(0..<20_000))
        let loop = (0..<20_000).map { (item: $0, parent: Optional(($0 + 1) % 20_000)) }
        #expect(throws: SectionSnapshotError.self) { try DiffableDataSourceSectionSnapshot<Int>(validating: loop) }
    }

    @Test func collidingHashesAreStillDistinct() throws {
        let entries = (0..<200).map { (item: CollidingID(value: $0), parent: $0 == 0 ? nil : Optional(CollidingID(value: ($0 - 1) / 3))) }
        let outline = try DiffableDataSourceSectionSnapshot<CollidingID>(validating: entries.shuffled())
        #expect(outline.items.count == 200 && outline.parent(of: CollidingID(value: 7)) == CollidingID(value: 2))
    }
}

/// Scale: bulk operations on a 10^5-item outline (5 levels, fan-out 10), each checked
/// against what the tree must look like.
@Suite struct SectionSnapshotScaleTests {
    @Test func hundredThousandItems() throws {
        // Item i's parent is (i - 10) / 10: ten roots 0...9, then ten children per item.
        let count = 111_110
        // Deepest level first: children before their parents, siblings in order.
        let order = [11_110..<count, 1_110..<11_110, 110..<1_110, 10..<110, 0..<10].joined()
        var outline = try DiffableDataSourceSectionSnapshot<Int>(
            validating: order.map { (item: $0, parent: $0 < 10 ? nil : Optional(($0 - 10) / 10)) })
        #expect(outline.rootItems == Array(0..<10) && outline.level(of: count - 1) == 4)
        #expect(outline.index(of: 10) == 1 && outline.parent(of: 1234) == 122)
        outline.expand(outline.items)
        #expect(outline.visibleItems == outline.items)
        outline.collapse(outline.rootItems)
        #expect(outline.visibleItems == outline.rootItems && outline.isExpanded(10))
        let before = outline
        outline.delete([5])
        #expect(outline.items.count == count - 11_111 && !outline.contains(61_110) && outline.contains(61_109))
        outline.insert([-1, -2], before: 0)
        #expect(outline.index(of: 10) == 3 && outline.parent(of: 1234) == 122)
        outline.replace(childrenOf: 9, using: outline.snapshot(of: 9).snapshot(of: 100, includingParent: true))
        #expect(outline.items.count == count - 11_111 + 2 - 9 * 1_111 && outline.isExpanded(100))
        let difference = outline.difference(from: before)
        #expect(difference.insertedItemCount == 2 && difference.deletedItemCount == 1)
        #expect(before.items.count == count)
    }
}
