import Foundation
import Testing

@testable import Diffable

/// The data source diffs one outline applied to a shown section through the outline's own
/// difference (that section's rows only); these check that it plans exactly the batches the
/// whole-snapshot diff plans for the same apply.
@Suite struct OutlineApplyPathTests {
    /// A random outline of `items`: a forest, some items expanded.
    static func randomOutline<Item>(_ items: [Item], _ generator: inout SeededGenerator) -> DiffableDataSourceSectionSnapshot<Item> {
        var outline = DiffableDataSourceSectionSnapshot<Item>(), placed: [Item] = []
        for item in items {
            let parent = placed.isEmpty || Bool.random(using: &generator) ? nil : placed.randomElement(using: &generator)
            outline.append([item], to: parent)
            placed.append(item)
        }
        outline.expand(placed.filter { _ in Bool.random(using: &generator) })
        return outline
    }

    /// Over random committed states (the outline section flat or an outline, among other
    /// sections) and random outline edits (new trees, or the same tree expanded and collapsed
    /// otherwise): the outline path's batches equal the flat diff's, and those of the public
    /// `difference(from:)`.
    static func check<Item: Hashable & Sendable>(seeds: Range<UInt64>, item make: (Int) -> Item) {
        for seed in seeds {
            var generator = SeededGenerator(seed: seed)
            let pool = (0..<12).map(make)
            var snapshot = DiffableDataSourceSnapshot<String, Item>()
            var outlines: [String: DiffableDataSourceSectionSnapshot<Item>] = [:]
            let sections = ["x", "tree", "y"].shuffled(using: &generator)
            snapshot.appendSections(sections)
            let shuffled = pool.shuffled(using: &generator)
            // Other sections take the first items; the outline section draws from the rest.
            let others = Int.random(in: 0...4, using: &generator)
            snapshot.appendItems(Array(shuffled.prefix(others)), toSection: sections.first { $0 != "tree" }!)
            let treePool = Array(shuffled.dropFirst(others))
            var old = randomOutline(Array(treePool.prefix(Int.random(in: 0...treePool.count, using: &generator))), &generator)
            if Bool.random(using: &generator) {
                outlines["tree"] = old
            } else {
                var roots = DiffableDataSourceSectionSnapshot<Item>()
                roots.append(old.visibleItems)
                old = roots
            }
            snapshot.appendItems(old.visibleItems, toSection: "tree")
            let base = CommittedState(snapshot: snapshot, outlines: outlines, loaded: true, generation: 0)
            var new: DiffableDataSourceSectionSnapshot<Item>
            if Bool.random(using: &generator) {
                new = old
                for item in new.items where Bool.random(using: &generator) {
                    if new.isExpanded(item) { new.collapse([item]) } else { new.expand([item]) }
                }
            } else {
                new = randomOutline(
                    Array(treePool.shuffled(using: &generator).prefix(Int.random(in: 0...treePool.count, using: &generator))), &generator)
            }
            let request = ApplyRequest<String, Item, Never>(
                changes: [.outline(OutlineEdit(section: "tree", outline: new))], kind: .diff(animating: true), prepared: nil,
                completions: [], operation: "test")
            let target = ApplyTarget(request, on: base)
            var noState: Void = ()
            let outlinePath = IdentityMatcher<String, Item>().batches(for: target, prepared: nil, from: base, state: &noState)
            let flatPath = target.snapshot.batches(from: base.snapshot)
            #expect(outlinePath == flatPath, "seed \(seed): \(outlinePath) vs \(flatPath)")
            #expect(flatPath == target.snapshot.difference(from: base.snapshot).batches, "seed \(seed)")
            if outlinePath != flatPath { return }
        }
    }

    @Test func hashedIdentifiersGiveTheFlatDiffsBatches() { Self.check(seeds: 0..<1000) { "i\($0)" } }

    @Test func ownKeyIdentifiersGiveTheFlatDiffsBatches() { Self.check(seeds: 1000..<2000) { $0 } }
}
