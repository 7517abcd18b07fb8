import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// A value with a `String` `id`: `id` keys that are hashes, read from a value with references.
struct NamedReminder: Identifiable, Hashable, Sendable {
    let id: String
    var title: String
}

/// ``NamedReminder`` keyed by its `id` (`KeyedByID`): the snapshot's own keys are the `id`
/// keys matching needs, so the data source makes none of its own.
struct KeyedNamedReminder: KeyedByID, Hashable, Sendable {
    let id: String
    var title: String
}

/// ``CollidingReminder`` keyed by its `id`, every key the same.
struct KeyedCollidingReminder: KeyedByID, Hashable, Sendable {
    let id: CollidingReminder.ID
    var title: String
}

/// Matching by `id` against its definition: the batches a view performs for values matched by
/// `id` are those a second view performs for the snapshots of their `id`s, matched by identity,
/// with every value that changed behind a kept `id` requested as a reconfigure (or a reload),
/// and the explicit requests carried over (a reload winning over a reconfigure). Random edits:
/// values changed, dropped, added, shuffled within and moved across sections; sections added,
/// dropped and swapped; explicit item and section refresh requests; snapshots built out of slot
/// order; drags between applies.
@Suite struct MatchingByIDReferenceTests {
    /// One model: sections of (`id` number, title).
    typealias Model = [(section: String, items: [(id: Int, title: String)])]

    /// The next model: `current` edited at random (`nextID` numbers the added items).
    static func edit(_ current: Model, round: Int, nextID: inout Int, _ generator: inout SeededGenerator) -> Model {
        var next = current
        for index in next.indices {
            next[index].items.removeAll { _ in Int.random(in: 0..<8, using: &generator) == 0 }
            for position in next[index].items.indices where Int.random(in: 0..<5, using: &generator) == 0 {
                next[index].items[position].title += "!"
            }
            if Int.random(in: 0..<3, using: &generator) == 0 { next[index].items.shuffle(using: &generator) }
        }
        if next.count > 1, Int.random(in: 0..<3, using: &generator) == 0 {
            let from = Int.random(in: 0..<next.count, using: &generator)
            if let moved = next[from].items.popLast() { next[(from + 1) % next.count].items.insert(moved, at: 0) }
        }
        if next.count < 4 { next.append(("S\(round)", [])) }
        if next.count > 1, Int.random(in: 0..<6, using: &generator) == 0 { next.remove(at: 0) }
        if next.count > 1, Int.random(in: 0..<4, using: &generator) == 0 { next.swapAt(0, next.count - 1) }
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            next[Int.random(in: 0..<next.count, using: &generator)].items.append((nextID, "r\(nextID)"))
            nextID += 1
        }
        return next
    }

    /// Compares `rounds` applies of random edits through a data source matching `Value`s by
    /// `id` with the same applies of their `id`s through one matching by identity.
    static func compare<Value: Identifiable & Hashable & Sendable>(
        seed: UInt64, rounds: Int, updates: ItemContentUpdate, value: @escaping (Int, String) -> Value
    ) async where Value.ID: Sendable {
        let byID = DataSourceHarness<String, Value>(matchingByID: updates)
        let reference = DataSourceHarness<String, Value.ID>()
        byID.dataSource.reorderingHandlers = .init(canReorderItem: { _ in true })
        reference.dataSource.reorderingHandlers = .init(canReorderItem: { _ in true })
        var generator = SeededGenerator(seed: seed)
        var current: Model = [], nextID = 0
        for round in 0..<rounds {
            let next = edit(current, round: round, nextID: &nextID, &generator)
            let titles = Dictionary(uniqueKeysWithValues: current.flatMap(\.items).map { ($0.id, $0.title) })
            let changed = next.flatMap(\.items).filter { item in titles[item.id].map { $0 != item.title } ?? false }.map(\.id)
            let all = next.flatMap(\.items)
            let valueOf = Dictionary(uniqueKeysWithValues: all.map { ($0.id, value($0.id, $0.title)) })

            // The values, every third snapshot out of slot order (each section built last to first).
            var values = DiffableDataSourceSnapshot<String, Value>()
            values.appendSections(next.map(\.section))
            for (section, items) in next {
                let sectionValues = items.map { valueOf[$0.id]! }
                guard round % 3 == 1, let last = sectionValues.last else {
                    values.appendItems(sectionValues, toSection: section)
                    continue
                }
                values.appendItems([last], toSection: section)
                for item in sectionValues.dropLast().reversed() {
                    values.insertItems([item], beforeItem: values.itemIdentifiers(inSection: section)[0])
                }
            }
            // Explicit requests, now and then.
            var reloads: Set<Int> = [], reconfigures: Set<Int> = [], reloadedSections: [String] = []
            if !all.isEmpty, Bool.random(using: &generator) {
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let pick = all[Int.random(in: 0..<all.count, using: &generator)].id
                    if Bool.random(using: &generator) { reloads.insert(pick) } else { reconfigures.insert(pick) }
                }
            }
            if Int.random(in: 0..<5, using: &generator) == 0 {
                reloadedSections.append(next[Int.random(in: 0..<next.count, using: &generator)].section)
            }
            if !reloads.isEmpty { values.reloadItems(reloads.sorted().map { valueOf[$0]! }) }
            if !reconfigures.isEmpty { values.reconfigureItems(reconfigures.sorted().map { valueOf[$0]! }) }
            if !reloadedSections.isEmpty { values.reloadSections(reloadedSections) }

            // The definition: the `id`s, the changed ones refreshed as `updates` asks (once shown).
            var ids = DiffableDataSourceSnapshot<String, Value.ID>()
            ids.appendSections(next.map(\.section))
            for (section, items) in next { ids.appendItems(items.map { valueOf[$0.id]!.id }, toSection: section) }
            if round > 0 {
                switch updates {
                case .reload: reloads.formUnion(changed)
                case .reconfigure: reconfigures.formUnion(changed)
                }
            }
            reconfigures.subtract(reloads)
            if !reloads.isEmpty { ids.reloadItems(reloads.sorted().map { valueOf[$0]!.id }) }
            if !reconfigures.isEmpty { ids.reconfigureItems(reconfigures.sorted().map { valueOf[$0]!.id }) }
            if !reloadedSections.isEmpty { ids.reloadSections(reloadedSections) }

            let performed = byID.onView(\.performedBatches).count, expected = reference.onView(\.performedBatches).count
            await byID.dataSource.apply(values)
            await reference.dataSource.apply(ids)
            let got = Array(byID.onView(\.performedBatches).dropFirst(performed))
            let want = Array(reference.onView(\.performedBatches).dropFirst(expected))
            #expect(got == want, "seed \(seed), round \(round)")
            #expect(byID.problem() == nil, "seed \(seed), round \(round)")
            guard got == want else { return }
            current = next

            // A drag, now and then: the first item of a section to its end, in both.
            guard Int.random(in: 0..<4, using: &generator) == 0,
                let section = current.indices.first(where: { current[$0].items.count > 1 })
            else { continue }
            let last = current[section].items.count - 1
            let from = IndexPath(item: 0, section: section), to = IndexPath(item: last, section: section)
            let moved = try? byID.onView { try $0.simulateReorder(from: from, to: to) }
            let movedToo = try? reference.onView { try $0.simulateReorder(from: from, to: to) }
            #expect(moved == true && movedToo == true)
            current[section].items.append(current[section].items.removeFirst())
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func integerIDs(seed: UInt64) async {
        await Self.compare(seed: seed, rounds: 120, updates: seed % 2 == 0 ? .reload : .reconfigure) {
            Reminder(id: $0, title: $1)
        }
    }

    @Test(arguments: [5, 6] as [UInt64])
    func stringIDs(seed: UInt64) async {
        await Self.compare(seed: seed, rounds: 120, updates: seed % 2 == 0 ? .reload : .reconfigure) {
            NamedReminder(id: "id-\($0)", title: $1)
        }
    }

    /// Every `id` key the same: keys never decide, every diff is the confirmed one.
    @Test(arguments: [7, 8] as [UInt64])
    func collidingIDs(seed: UInt64) async {
        await Self.compare(seed: seed, rounds: 60, updates: seed % 2 == 0 ? .reload : .reconfigure) {
            CollidingReminder(Reminder(id: $0, title: $1))
        }
    }

    /// Values keyed by their `id`s: the matcher diffs the snapshots' own keys.
    @Test(arguments: [9, 10] as [UInt64])
    func valuesKeyedByTheirIDs(seed: UInt64) async {
        await Self.compare(seed: seed, rounds: 120, updates: seed % 2 == 0 ? .reload : .reconfigure) {
            KeyedNamedReminder(id: "id-\($0)", title: $1)
        }
    }

    /// Values keyed by their `id`s, every key the same.
    @Test(arguments: [11, 12] as [UInt64])
    func valuesKeyedByCollidingIDs(seed: UInt64) async {
        await Self.compare(seed: seed, rounds: 60, updates: seed % 2 == 0 ? .reload : .reconfigure) {
            KeyedCollidingReminder(id: CollidingReminder.ID(value: $0), title: $1)
        }
    }
}
