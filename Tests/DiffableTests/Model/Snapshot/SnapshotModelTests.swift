import Foundation
import Testing

@testable import Diffable

/// An identifier whose hash is constant: every key collides, so only `==` can tell them apart.
struct CollidingID: Hashable, CustomStringConvertible {
    var value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
    var description: String { "c\(value)" }
}

/// Thousands of random operation sequences against the naive model; after every
/// operation every query must agree, rejected operations must change nothing, and
/// a copy taken before the operation must be untouched (copy-on-write).
@Suite struct SnapshotModelTests {
    static func run<I: Hashable>(seed: UInt64, rounds: Int, steps: Int, item: @escaping (Int) -> I) {
        var generator = SeededGenerator(seed: seed)
        for round in 0..<rounds {
            var snapshot = DiffableDataSourceSnapshot<String, I>()
            var model = SnapshotModel<String, I>()
            var nextItem = 0, nextSection = 0
            func freshItems(_ count: Int) -> [I] {
                defer { nextItem += count }
                return (nextItem..<(nextItem + count)).map(item)
            }
            func someExisting(_ count: Int) -> [I] {
                let all = model.allItems
                guard !all.isEmpty else { return [] }
                return Array(Set((0..<count).map { _ in all[Int.random(in: 0..<all.count, using: &generator)] }))
            }
            for step in 0..<steps {
                let before = snapshot
                let modelBefore = model
                let operation = Int.random(in: 0..<15, using: &generator)
                var expectUnchanged = false
                switch operation {
                case 0, 1:
                    let ids = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                        defer { nextSection += 1 }
                        return "S\(nextSection)"
                    }
                    snapshot.appendSections(ids)
                    model.sections += ids.map { ($0, []) }
                case 2:
                    if let anchor = model.sections.randomElement(using: &generator)?.id {
                        let after = Bool.random(using: &generator)
                        let id = "S\(nextSection)"
                        nextSection += 1
                        if after {
                            snapshot.insertSections([id], afterSection: anchor)
                        } else {
                            snapshot.insertSections([id], beforeSection: anchor)
                        }
                        model.sections.insert((id, []), at: model.sectionIndex(anchor)! + (after ? 1 : 0))
                    }
                case 3:
                    let ids = model.sections.map(\.id).filter { _ in Int.random(in: 0..<4, using: &generator) == 0 } + ["missing"]
                    snapshot.deleteSections(ids)
                    model.sections.removeAll { ids.contains($0.id) }
                case 4:
                    if model.sections.count >= 2 {
                        let picks = model.sections.map(\.id).shuffled(using: &generator)
                        let (moving, anchor) = (picks[0], picks[1])
                        let after = Bool.random(using: &generator)
                        if after {
                            snapshot.moveSection(moving, afterSection: anchor)
                        } else {
                            snapshot.moveSection(moving, beforeSection: anchor)
                        }
                        let section = model.sections.remove(at: model.sectionIndex(moving)!)
                        model.sections.insert(section, at: model.sectionIndex(anchor)! + (after ? 1 : 0))
                    }
                case 5, 6, 7:
                    guard !model.sections.isEmpty else { break }
                    let ids = freshItems(Int.random(in: 0...6, using: &generator)) + someExisting(Int.random(in: 0...1, using: &generator))
                    let useLast = Bool.random(using: &generator)
                    let target = useLast ? model.sections.count - 1 : Int.random(in: 0..<model.sections.count, using: &generator)
                    if useLast { snapshot.appendItems(ids) } else { snapshot.appendItems(ids, toSection: model.sections[target].id) }
                    model.place(ids, section: target) { $0.sections[target].items.count }
                case 8:
                    let anchors = model.allItems
                    guard let anchor = anchors.randomElement(using: &generator) else { break }
                    let ids = freshItems(Int.random(in: 1...3, using: &generator)) + someExisting(1).filter { $0 != anchor }
                    let after = Bool.random(using: &generator)
                    if after { snapshot.insertItems(ids, afterItem: anchor) } else { snapshot.insertItems(ids, beforeItem: anchor) }
                    model.remove(items: ids)
                    let place = model.location(of: anchor)!
                    model.sections[place.section].items.insert(contentsOf: ids, at: place.item + (after ? 1 : 0))
                case 9:
                    let ids = someExisting(Int.random(in: 0...4, using: &generator)) + freshItems(1)
                    snapshot.deleteItems(ids)
                    model.remove(items: ids)
                case 10:
                    let all = model.allItems
                    guard all.count >= 2 else { break }
                    let picks = all.shuffled(using: &generator)
                    let after = Bool.random(using: &generator)
                    if after { snapshot.moveItem(picks[0], afterItem: picks[1]) } else { snapshot.moveItem(picks[0], beforeItem: picks[1]) }
                    model.remove(items: [picks[0]])
                    let place = model.location(of: picks[1])!
                    model.sections[place.section].items.insert(picks[0], at: place.item + (after ? 1 : 0))
                case 11:
                    // A rejected append (a new identifier twice) changes nothing.
                    guard let section = model.sections.first?.id else { break }
                    let twice = freshItems(1)
                    #expect(throws: SnapshotError.self) { try snapshot.tryAppendItems(twice + freshItems(2) + twice, toSection: section) }
                    expectUnchanged = true
                case 12:
                    // Rejected: unknown anchor, unknown section, existing section.
                    let ghost = freshItems(1)[0]
                    #expect(throws: SnapshotError.unknownItems([String(reflecting: ghost)])) {
                        try snapshot.tryInsertItems(freshItems(2), beforeItem: ghost)
                    }
                    #expect(throws: SnapshotError.unknownSection(String(reflecting: "nowhere"))) {
                        try snapshot.tryAppendItems(freshItems(1), toSection: "nowhere")
                    }
                    if let existing = model.sections.first?.id {
                        #expect(throws: SnapshotError.sectionsAlreadyExist([String(reflecting: existing)])) {
                            try snapshot.tryAppendSections(["fresh-\(step)", existing])
                        }
                    }
                    expectUnchanged = true
                case 13:
                    if Int.random(in: 0..<8, using: &generator) == 0 {
                        snapshot.deleteAllItems()
                        model.sections = []
                    }
                default:
                    let picks = someExisting(2)
                    snapshot.reloadItems(picks)
                    snapshot.reconfigureItems(picks)
                    #expect(Set(snapshot.reloadedItemIdentifiers).isSuperset(of: picks))
                }
                if expectUnchanged { #expect(snapshot == before && model == modelBefore) }
                #expect(before.itemIdentifiers == modelBefore.allItems, "copy changed by a later mutation")
                let probes = (nextItem..<(nextItem + 2)).map(item)
                if let problem = disagreement(snapshot, model, probes: probes) {
                    Issue.record(
                        "seed \(seed) round \(round) step \(step) op \(operation): \(problem)\nsnapshot \(snapshot)\nmodel \(model.sections)"
                    )
                    return
                }
            }
        }
    }

    @Test func intItemsAgreeWithModel() { Self.run(seed: 1, rounds: 300, steps: 60) { $0 } }

    @Test func stringItemsAgreeWithModel() { Self.run(seed: 2, rounds: 200, steps: 60) { "item-\($0)-é" } }

    @Test func collidingHashesNeverMerge() { Self.run(seed: 3, rounds: 120, steps: 50) { CollidingID(value: $0) } }

    @Test func byteArrayItemsAgreeWithModel() { Self.run(seed: 5, rounds: 60, steps: 40) { Array("b\($0)".utf8) } }

    @Test func uuidItemsAgreeWithModel() {
        Self.run(seed: 4, rounds: 60, steps: 40) {
            UUID(uuid: (UInt8($0 & 0xFF), UInt8($0 >> 8), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        }
    }
}
