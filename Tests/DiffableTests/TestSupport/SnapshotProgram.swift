@testable import Diffable

/// One concrete step on a flat snapshot, printable as the line of code that reproduces it.
enum SnapshotStep: CustomStringConvertible, Sendable {
    case appendSections([String])
    case insertSections([String], next: String, after: Bool)
    case deleteSections([String])
    case moveSection(String, next: String, after: Bool)
    case appendItems([Int], to: String?)
    case insertItems([Int], next: Int, after: Bool)
    case deleteItems([Int])
    case moveItem(Int, next: Int, after: Bool)
    case reloadItems([Int])
    case reconfigureItems([Int])
    case deleteAllItems
    /// Rejected: `tryAppendItems` of a new identifier given twice.
    case appendRepeated(Int, to: String)
    /// Rejected: `tryInsertItems` next to an identifier that is not there.
    case insertNextToMissing([Int], missing: Int)
    /// Replaces the snapshot by `init(validating:)` of its sections and items.
    case rebuild

    var description: String {
        func side(_ after: Bool) -> String { after ? "after" : "before" }
        switch self {
        case .appendSections(let ids): return "snapshot.appendSections(\(ids))"
        case .insertSections(let ids, let anchor, let after): return "snapshot.insertSections(\(ids), \(side(after))Section: \"\(anchor)\")"
        case .deleteSections(let ids): return "snapshot.deleteSections(\(ids))"
        case .moveSection(let id, let anchor, let after): return "snapshot.moveSection(\"\(id)\", \(side(after))Section: \"\(anchor)\")"
        case .appendItems(let ids, let section): return "snapshot.appendItems(\(ids)\(section.map { ", toSection: \"\($0)\"" } ?? ""))"
        case .insertItems(let ids, let anchor, let after): return "snapshot.insertItems(\(ids), \(side(after))Item: \(anchor))"
        case .deleteItems(let ids): return "snapshot.deleteItems(\(ids))"
        case .moveItem(let id, let anchor, let after): return "snapshot.moveItem(\(id), \(side(after))Item: \(anchor))"
        case .reloadItems(let ids): return "snapshot.reloadItems(\(ids))"
        case .reconfigureItems(let ids): return "snapshot.reconfigureItems(\(ids))"
        case .deleteAllItems: return "snapshot.deleteAllItems()"
        case .appendRepeated(let id, let section): return "try snapshot.tryAppendItems([\(id), \(id)], toSection: \"\(section)\") // throws"
        case .insertNextToMissing(let ids, let missing): return "try snapshot.tryInsertItems(\(ids), beforeItem: \(missing)) // throws"
        case .rebuild: return "snapshot = try .init(validating: sections and items)"
        }
    }

    /// Applies the step to both; returns the first way they disagree, if any.
    func apply(to snapshot: inout DiffableDataSourceSnapshot<String, Int>, model: inout SnapshotModel<String, Int>) -> String? {
        if let failure = perform(on: &snapshot, model: model) { return failure }
        update(&model)
        return disagreement(snapshot, model, probes: [-1])
    }

    /// The snapshot's part (`model` is the state before the step).
    private func perform(on snapshot: inout DiffableDataSourceSnapshot<String, Int>, model: SnapshotModel<String, Int>) -> String? {
        let before = snapshot
        switch self {
        case .appendSections(let ids): snapshot.appendSections(ids)
        case .insertSections(let ids, let anchor, let after):
            if after { snapshot.insertSections(ids, afterSection: anchor) } else { snapshot.insertSections(ids, beforeSection: anchor) }
        case .deleteSections(let ids): snapshot.deleteSections(ids)
        case .moveSection(let id, let anchor, let after):
            if after { snapshot.moveSection(id, afterSection: anchor) } else { snapshot.moveSection(id, beforeSection: anchor) }
        case .appendItems(let ids, let section): snapshot.appendItems(ids, toSection: section)
        case .insertItems(let ids, let anchor, let after):
            if after { snapshot.insertItems(ids, afterItem: anchor) } else { snapshot.insertItems(ids, beforeItem: anchor) }
        case .deleteItems(let ids): snapshot.deleteItems(ids)
        case .moveItem(let id, let anchor, let after):
            if after { snapshot.moveItem(id, afterItem: anchor) } else { snapshot.moveItem(id, beforeItem: anchor) }
        case .reloadItems(let ids):
            snapshot.reloadItems(ids)
            if !ids.allSatisfy(snapshot.reloadedItemIdentifiers.contains) { return "reloadItems(\(ids)) not pending" }
        case .reconfigureItems(let ids):
            snapshot.reconfigureItems(ids)
            if !ids.allSatisfy(snapshot.reconfiguredItemIdentifiers.contains) { return "reconfigureItems(\(ids)) not pending" }
        case .deleteAllItems: snapshot.deleteAllItems()
        case .appendRepeated(let id, let section):
            do {
                try snapshot.tryAppendItems([id, id], toSection: section)
                return "a repeated identifier was accepted"
            } catch {
                if error != .duplicateItems([.init(identifier: "\(id)", positions: [[0], [1]])]) { return "wrong error \(error)" }
            }
            if snapshot != before { return "a rejected append changed the snapshot" }
        case .insertNextToMissing(let ids, let missing):
            do {
                try snapshot.tryInsertItems(ids, beforeItem: missing)
                return "an unknown anchor was accepted"
            } catch {
                if error != .unknownItems(["\(missing)"]) { return "wrong error \(error)" }
            }
            if snapshot != before { return "a rejected insert changed the snapshot" }
        case .rebuild:
            do {
                snapshot = try DiffableDataSourceSnapshot(validating: model.sections.map { ($0.id, $0.items) })
            } catch {
                return "init(validating:) rejected a valid snapshot: \(error)"
            }
        }
        return nil
    }

    /// The model's part: the obvious array edits.
    func update(_ model: inout SnapshotModel<String, Int>) {
        switch self {
        case .appendSections(let ids): model.sections += ids.map { ($0, []) }
        case .insertSections(let ids, let anchor, let after):
            model.sections.insert(contentsOf: ids.map { ($0, []) }, at: model.sectionIndex(anchor)! + (after ? 1 : 0))
        case .deleteSections(let ids): model.sections.removeAll { ids.contains($0.id) }
        case .moveSection(let id, let anchor, let after):
            let moved = model.sections.remove(at: model.sectionIndex(id)!)
            model.sections.insert(moved, at: model.sectionIndex(anchor)! + (after ? 1 : 0))
        case .appendItems(let ids, let section):
            let target = section.flatMap(model.sectionIndex) ?? model.sections.count - 1
            model.place(ids, section: target) { $0.sections[target].items.count }
        case .insertItems(let ids, let anchor, let after):
            model.remove(items: ids)
            let place = model.location(of: anchor)!
            model.sections[place.section].items.insert(contentsOf: ids, at: place.item + (after ? 1 : 0))
        case .deleteItems(let ids): model.remove(items: ids)
        case .moveItem(let id, let anchor, let after):
            model.remove(items: [id])
            let place = model.location(of: anchor)!
            model.sections[place.section].items.insert(id, at: place.item + (after ? 1 : 0))
        case .deleteAllItems: model.sections = []
        case .reloadItems, .reconfigureItems, .appendRepeated, .insertNextToMissing, .rebuild: break
        }
    }
}

/// A sequence of steps decoded from generated numbers against the model as it evolves, so
/// that every subsequence the shrinker tries still decodes to valid calls. A step that needs
/// what is not there makes it instead — sections when there are none, items when there are
/// none (or one, for a move) — so that programs reach snapshots with items in several
/// sections instead of idling on empty ones (`PropertyProgramDistributionTests`).
struct SnapshotProgram: CustomStringConvertible, Sendable {
    var steps: [SnapshotStep] = []

    /// One step's numbers: the operation and three choices.
    typealias Code = (operation: Int, a: Int, b: Int, c: Int)

    init(_ codes: [Code]) {
        var model = SnapshotModel<String, Int>()
        var nextItem = 0, nextSection = 0
        func fresh(_ count: Int) -> [Int] {
            defer { nextItem += count }
            return Array(nextItem..<(nextItem + count))
        }
        func freshSections(_ count: Int) -> [String] {
            defer { nextSection += count }
            return (nextSection..<(nextSection + count)).map { "S\($0)" }
        }
        for code in codes {
            let sections = model.sections.map(\.id), items = model.allItems
            let (operation, a, c) = (code.operation, code.a, code.c)
            let step: SnapshotStep?
            if sections.isEmpty && (1...10).contains(operation) || operation == 3 && sections.count < 2 {
                step = .appendSections(freshSections(1 + a % 2))
            } else if items.isEmpty && (6...9).contains(operation) || operation == 8 && items.count < 2 {
                step = .appendItems(fresh(1 + a % 3), to: c % 2 == 0 ? nil : sections[c % sections.count])
            } else {
                step = Self.step(code, sections: sections, items: items, fresh: fresh, freshSections: freshSections)
            }
            guard let step else { continue }
            step.update(&model)
            steps.append(step)
        }
    }

    /// The step `code` decodes to when what it needs is there (nil: it needs more).
    private static func step(
        _ code: Code, sections: [String], items: [Int], fresh: (Int) -> [Int], freshSections: (Int) -> [String]
    ) -> SnapshotStep? {
        let (a, b, c) = (code.a, code.b, code.c)
        var step: SnapshotStep?
        switch code.operation {
        case 0: step = .appendSections(freshSections(1 + a % 2))
        case 1 where !sections.isEmpty: step = .insertSections(freshSections(1), next: sections[a % sections.count], after: c % 2 == 1)
        case 2 where !sections.isEmpty: step = .deleteSections([sections[a % sections.count], "missing"])
        case 3 where sections.count >= 2:  // the anchor is any other section
            let anchor = sections[(a + 1 + b % (sections.count - 1)) % sections.count]
            step = .moveSection(sections[a % sections.count], next: anchor, after: c % 2 == 1)
        case 4...5 where !sections.isEmpty:
            let existing = b % 3 == 2 && !items.isEmpty ? [items[b % items.count]] : []
            step = .appendItems(fresh(a % 4) + existing, to: c % 2 == 0 ? nil : sections[c % sections.count])
        case 6 where !items.isEmpty: step = .insertItems(fresh(1 + b % 2), next: items[a % items.count], after: c % 2 == 1)
        case 7 where !items.isEmpty: step = .deleteItems([items[a % items.count], items[b % items.count], -1])
        case 8 where items.count >= 2:  // the anchor is any other item
            let anchor = items[(a + 1 + b % (items.count - 1)) % items.count]
            step = .moveItem(items[a % items.count], next: anchor, after: c % 2 == 1)
        case 9 where !items.isEmpty:
            step = c % 2 == 0 ? .reloadItems([items[a % items.count]]) : .reconfigureItems([items[a % items.count]])
        case 10 where !sections.isEmpty:
            step =
                a % 2 == 0
                ? .appendRepeated(fresh(1)[0], to: sections[b % sections.count]) : .insertNextToMissing(fresh(1), missing: -2)
        case 11: step = a % 4 == 3 ? .deleteAllItems : .rebuild
        default: step = nil
        }
        return step
    }

    /// Runs every step on a fresh snapshot and model; the first failure, named by its step.
    func run() -> String? { final().failure }

    /// The snapshot after the steps, up to the first failure (the model is not updated past a
    /// failed step, so later steps could name what is not there).
    func final() -> (snapshot: DiffableDataSourceSnapshot<String, Int>, failure: String?) {
        var snapshot = DiffableDataSourceSnapshot<String, Int>()
        var model = SnapshotModel<String, Int>()
        for (index, step) in steps.enumerated() {
            if let failure = step.apply(to: &snapshot, model: &model) { return (snapshot, "step \(index + 1) (\(step)): \(failure)") }
        }
        return (snapshot, nil)
    }

    var description: String {
        steps.isEmpty ? "(no steps)" : "\n" + steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }
}
