import DiffableTesting

@testable import Diffable

/// A `DiffableDataSourceSnapshot` and the naive `SnapshotModel` driven by the same decoded
/// operations. Before each operation the model says whether the API must reject it, and
/// with which error; a rejected operation must leave the snapshot equal to its value
/// before (refresh requests included). After each one every query must agree with the
/// model, and a copy taken before must be untouched.
struct FlatSnapshotRun<Item: Hashable> {
    typealias Snapshot = DiffableDataSourceSnapshot<Int, Item>
    /// Identifiers are drawn from small ranges, so operations keep meeting existing ones.
    static var itemRange: Int { 24 }
    static var sectionRange: Int { 6 }

    let makeItem: (Int) -> Item
    var snapshot = Snapshot()
    var model = SnapshotModel<Int, Item>()
    // The refresh requests the model expects, in request order.
    var reloaded: [Item] = [], reconfigured: [Item] = [], reloadedSections: [Int] = []
    /// The state the next `difference(from:)` starts from.
    var checkpoint = Snapshot()

    init(makeItem: @escaping (Int) -> Item) { self.makeItem = makeItem }

    func item(_ bytes: inout FuzzBytes) -> Item { makeItem(bytes.below(Self.itemRange)) }
    func items(_ bytes: inout FuzzBytes) -> [Item] { bytes.list(most: 5) { makeItem($0.below(Self.itemRange)) } }
    static func section(_ bytes: inout FuzzBytes) -> Int { bytes.below(sectionRange) }
    static func sections(_ bytes: inout FuzzBytes) -> [Int] { bytes.list(most: 3) { $0.below(sectionRange) } }

    /// Every identifier given more than once, first-occurrence order, with its argument positions.
    static func repeats<T: Hashable>(_ identifiers: [T]) -> [SnapshotError.Duplicate] {
        var order: [T] = [], positions: [T: [[Int]]] = [:]
        for (index, identifier) in identifiers.enumerated() {
            if positions[identifier] == nil { order.append(identifier) }
            positions[identifier, default: []].append([index])
        }
        return order.filter { positions[$0]!.count > 1 }.map { .init(identifier: String(reflecting: $0), positions: positions[$0]!) }
    }

    /// The identifiers as an error names them: each once, at its first place (a move onto itself
    /// names its unknown item once).
    static func names<T>(_ identifiers: [T]) -> [String] {
        var seen = Set<String>()
        return identifiers.map { String(reflecting: $0) }.filter { seen.insert($0).inserted }
    }

    /// Why adding `sections` must fail, if it must.
    func sectionAdditionError(_ sections: [Int]) -> SnapshotError? {
        let repeated = Self.repeats(sections)
        if !repeated.isEmpty { return .duplicateSections(repeated) }
        let existing = sections.filter { model.sectionIndex($0) != nil }
        return existing.isEmpty ? nil : .sectionsAlreadyExist(Self.names(existing))
    }

    mutating func prunePending() {
        reloaded.removeAll { model.location(of: $0) == nil }
        reconfigured.removeAll { model.location(of: $0) == nil }
        reloadedSections.removeAll { model.sectionIndex($0) == nil }
    }

    static func request<T: Hashable>(_ identifiers: [T], into list: inout [T]) {
        for identifier in identifiers where !list.contains(identifier) { list.append(identifier) }
    }

    /// Decodes one operation from `bytes`, runs it on both and checks the outcome.
    mutating func step(_ bytes: inout FuzzBytes) {
        let before = snapshot, modelBefore = model
        let operation = bytes.below(13)
        var expected: SnapshotError?
        var thrown: SnapshotError?
        func attempt(_ body: (inout Snapshot) throws -> Void) {
            do { try body(&snapshot) } catch { thrown = error as? SnapshotError }
        }
        switch operation {
        case 0:
            let sections = Self.sections(&bytes)
            expected = sectionAdditionError(sections)
            if expected == nil { model.sections += sections.map { ($0, []) } }
            attempt { try $0.tryAppendSections(sections) }
        case 1:
            let sections = Self.sections(&bytes), anchor = Self.section(&bytes), after = bytes.bool()
            if let index = model.sectionIndex(anchor) {
                expected = sectionAdditionError(sections)
                if expected == nil { model.sections.insert(contentsOf: sections.map { ($0, []) }, at: index + (after ? 1 : 0)) }
            } else {
                expected = .unknownSection(String(reflecting: anchor))
            }
            attempt {
                after ? try $0.tryInsertSections(sections, afterSection: anchor) : try $0.tryInsertSections(sections, beforeSection: anchor)
            }
        case 2:
            let items = items(&bytes), choice = bytes.below(Self.sectionRange + 1)
            let section = choice < Self.sectionRange ? choice : nil
            let target = section.map { model.sectionIndex($0) } ?? (model.sections.isEmpty ? nil : model.sections.count - 1)
            if let section, target == nil {
                expected = .unknownSection(String(reflecting: section))
            } else if target == nil {
                expected = .noSections
            } else if !Self.repeats(items).isEmpty {
                expected = .duplicateItems(Self.repeats(items))
            } else if let target {
                model.place(items, section: target) { $0.sections[target].items.count }
            }
            attempt { try $0.tryAppendItems(items, toSection: section) }
        case 3:
            let items = items(&bytes), anchor = item(&bytes), after = bytes.bool()
            if model.location(of: anchor) == nil {
                expected = .unknownItems([String(reflecting: anchor)])
            } else if items.contains(anchor) {
                expected = .anchorIsMoved(String(reflecting: anchor))
            } else if !Self.repeats(items).isEmpty {
                expected = .duplicateItems(Self.repeats(items))
            } else {
                model.remove(items: items)
                let place = model.location(of: anchor)!
                model.sections[place.section].items.insert(contentsOf: items, at: place.item + (after ? 1 : 0))
            }
            attempt { after ? try $0.tryInsertItems(items, afterItem: anchor) : try $0.tryInsertItems(items, beforeItem: anchor) }
        case 4:
            let items = items(&bytes)
            model.remove(items: items)
            prunePending()
            snapshot.deleteItems(items)
        case 5:
            let sections = Self.sections(&bytes)
            model.sections.removeAll { sections.contains($0.id) }
            prunePending()
            snapshot.deleteSections(sections)
        case 6:
            let moving = item(&bytes), anchor = item(&bytes), after = bytes.bool()
            let unknown = [moving, anchor].filter { model.location(of: $0) == nil }
            if !unknown.isEmpty {
                expected = .unknownItems(Self.names(unknown))
            } else if moving == anchor {
                expected = .anchorIsMoved(String(reflecting: anchor))
            } else {
                model.remove(items: [moving])
                let place = model.location(of: anchor)!
                model.sections[place.section].items.insert(moving, at: place.item + (after ? 1 : 0))
            }
            attempt { after ? try $0.tryMoveItem(moving, afterItem: anchor) : try $0.tryMoveItem(moving, beforeItem: anchor) }
        case 7:
            let moving = Self.section(&bytes), anchor = Self.section(&bytes), after = bytes.bool()
            let unknown = [moving, anchor].filter { model.sectionIndex($0) == nil }
            if !unknown.isEmpty {
                expected = .unknownSections(Self.names(unknown))
            } else if moving == anchor {
                expected = .anchorIsMoved(String(reflecting: anchor))
            } else {
                let section = model.sections.remove(at: model.sectionIndex(moving)!)
                model.sections.insert(section, at: model.sectionIndex(anchor)! + (after ? 1 : 0))
            }
            attempt { after ? try $0.tryMoveSection(moving, afterSection: anchor) : try $0.tryMoveSection(moving, beforeSection: anchor) }
        case 8:
            let items = items(&bytes), reconfigure = bytes.bool()
            let unknown = items.filter { model.location(of: $0) == nil }
            if !unknown.isEmpty {
                expected = .unknownItems(Self.names(unknown))
            } else if reconfigure {
                Self.request(items, into: &reconfigured)
            } else {
                Self.request(items, into: &reloaded)
            }
            attempt { reconfigure ? try $0.tryReconfigureItems(items) : try $0.tryReloadItems(items) }
        case 9:
            let sections = Self.sections(&bytes)
            let unknown = sections.filter { model.sectionIndex($0) == nil }
            if unknown.isEmpty { Self.request(sections, into: &reloadedSections) } else { expected = .unknownSections(Self.names(unknown)) }
            attempt { try $0.tryReloadSections(sections) }
        case 10:
            model.sections = []
            (reloaded, reconfigured, reloadedSections) = ([], [], [])
            snapshot.deleteAllItems()
        case 11:
            checkDifference(flavor: bytes.bool() ? .table : .collection)
        default:
            let rebuilt = try? Snapshot(validating: model.sections.map { ($0.id, $0.items) })
            fuzzCheck(rebuilt == snapshot.withoutPendingUpdates(), "init(validating:) of the model differs from the snapshot")
        }
        func context() -> String { "flat operation \(operation), snapshot \(before) -> \(snapshot)" }
        fuzzCheck(thrown == expected, "\(context()): expected \(String(describing: expected)), thrown \(String(describing: thrown))")
        if thrown != nil { fuzzCheck(snapshot == before, "\(context()): a rejected operation changed the snapshot") }
        fuzzCheck(before.itemIdentifiers == modelBefore.allItems, "\(context()): a copy taken before changed (copy-on-write)")
        let probes = (0..<Self.itemRange).map(makeItem)
        if let problem = disagreement(snapshot, model, probes: probes) {
            fuzzCheck(false, "\(context()): \(problem) differs from the model")
        }
        fuzzCheck(
            snapshot.reloadedItemIdentifiers == reloaded && snapshot.reconfiguredItemIdentifiers == reconfigured
                && snapshot.reloadedSectionIdentifiers == reloadedSections,
            "\(context()): refresh requests differ from the model's \(reloaded), \(reconfigured), \(reloadedSections)")
    }

    /// The difference from the checkpoint must pass the strict simulator, reach this
    /// snapshot exactly and be deterministic; this snapshot becomes the next checkpoint.
    mutating func checkDifference(flavor: ListViewSimulator<Int, Item>.Flavor) {
        let difference = snapshot.difference(from: checkpoint)
        var view = ListViewSimulator<Int, Item>(flavor: flavor)
        view.reloadData(checkpoint)
        do {
            try view.apply(difference)
        } catch {
            fuzzCheck(false, "difference \(checkpoint) -> \(snapshot) rejected by the simulator: \(error)\n\(difference)")
        }
        fuzzCheck(view.visibleSnapshot == snapshot.withoutPendingUpdates(), "difference \(checkpoint) -> \(snapshot) replays wrong")
        fuzzCheck(snapshot.difference(from: checkpoint).batches == difference.batches, "difference not deterministic")
        let plain = snapshot.withoutPendingUpdates()
        fuzzCheck(plain.difference(from: plain).batches.isEmpty, "a difference from itself is not empty")
        checkpoint = snapshot
    }
}
