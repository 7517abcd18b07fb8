import Foundation
import Testing

@testable import Diffable

/// A reminder: its `id` stays, its content changes.
struct Reminder: Identifiable, Hashable, Sendable {
    let id: Int
    var title: String
    var isFavourite = false
}

/// ``Reminder`` with an `id` whose hash value is the same for every `id` (a collision per key).
struct CollidingReminder: Identifiable, Hashable, Sendable {
    struct ID: Hashable, Sendable {
        let value: Int
        func hash(into hasher: inout Hasher) { hasher.combine(0) }
    }
    let id: ID
    var title: String
    var isFavourite: Bool

    init(_ reminder: Reminder) { (id, title, isFavourite) = (ID(value: reminder.id), reminder.title, reminder.isFavourite) }
}

/// Content changes for `Identifiable` items (docs/DATA_SOURCE.md): matched by `id`, a changed
/// value is a reconfigure (or reload), never a delete and an insert.
@Suite struct DataSourceContentTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, Reminder>

    static let reminders = ["Milk", "Call Ana", "Taxes", "Gym"].enumerated().map { Reminder(id: $0.offset, title: $0.element) }

    /// The demo's reminders: toggling a favourite reconfigures that one cell in place.
    @Test func togglingAFavouriteReconfiguresTheCell() async {
        let harness = DataSourceHarness<String, Reminder>(matchingByID: .reconfigure)
        var reminders = Self.reminders
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        reminders[2].isFavourite = true
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        #expect(harness.onView(\.performedBatches) == [BatchUpdate(reconfigureItems: [IndexPath(item: 2, section: 0)])])
        #expect(harness.shownItems() == [reminders])
        #expect(harness.dataSource.itemIdentifier(for: IndexPath(item: 2, section: 0))?.isFavourite == true)
        #expect(harness.dataSource.indexPath(for: reminders[2]) == IndexPath(item: 2, section: 0))
        #expect(harness.problem() == nil)
    }

    /// Matched by identity (Apple), the same toggle is a delete and an insert: the common UIKit complaint.
    @Test func identityMatchingDeletesAndInserts() async {
        let harness = DataSourceHarness<String, Reminder>()
        var reminders = Self.reminders
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        reminders[2].isFavourite = true
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        let path = [IndexPath(item: 2, section: 0)]
        #expect(harness.onView(\.performedBatches) == [BatchUpdate(deleteItems: path, insertItems: path)])
        #expect(harness.problem() == nil)
    }

    /// `.reload` asks for a new cell instead; an explicit reload wins over a reconfigure.
    @Test func reloadPolicyAndExplicitRequests() async {
        let harness = DataSourceHarness<String, Reminder>(matchingByID: .reload)
        var reminders = Self.reminders
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        reminders[1].title = "Call Ana back"
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        #expect(harness.onView(\.performedBatches).last == BatchUpdate(reloadItems: [IndexPath(item: 1, section: 0)]))

        let reconfiguring = DataSourceHarness<String, Reminder>(matchingByID: .reconfigure)
        await reconfiguring.dataSource.apply(.build(["Today"], [reminders]))
        reminders[0].isFavourite = true
        var next = Snapshot.build(["Today"], [reminders])
        next.reloadItems([reminders[0]])
        next.reconfigureItems([reminders[3]])
        await reconfiguring.dataSource.apply(next)
        #expect(
            reconfiguring.onView(\.performedBatches)
                == [BatchUpdate(reloadItems: [IndexPath(item: 0, section: 0)], reconfigureItems: [IndexPath(item: 3, section: 0)])])
        #expect(reconfiguring.dataSource.snapshot().reloadedItemIdentifiers.isEmpty)
        #expect(reconfiguring.problem() == nil)
    }

    /// Seeded random edits (moves, deletes, inserts, section changes, changed values): the view
    /// always shows the new values, and exactly the changed items that stay are refreshed.
    @Test func randomEditsRefreshExactlyTheChangedItems() async {
        await Self.applyRandomEdits(rounds: 150, seed: 5) { sections, _ in .build(sections.map(\.0), sections.map(\.1)) }
    }

    /// The same with every third snapshot built out of slot order (each section's items
    /// inserted last to first), so that the values are reached through slots that do not
    /// follow display order as well as through slots that do (built by appends).
    @Test func changedValuesAreFoundWhateverTheSlotOrder() async {
        await Self.applyRandomEdits(rounds: 80, seed: 11) { sections, round in
            guard round % 3 == 1 else { return .build(sections.map(\.0), sections.map(\.1)) }
            var snapshot = Snapshot()
            snapshot.appendSections(sections.map(\.0))
            for (section, items) in sections {
                guard let last = items.last else { continue }
                snapshot.appendItems([last], toSection: section)
                for item in items.dropLast().reversed() {
                    snapshot.insertItems([item], beforeItem: snapshot.itemIdentifiers(inSection: section)[0])
                }
            }
            #expect(snapshot.itemIdentifiers == sections.flatMap(\.1))
            return snapshot
        }
    }

    /// `id`s that all share one hash value, so every `id` key collides: keys alone never
    /// decide, the diff is run again confirming each key match by `id`, after the `id`s are
    /// checked through a snapshot of them built by `init(validating:)`. The same edits give
    /// the same batches as with `Int` ids.
    @Test func collidingIDsGiveTheSameBatches() async {
        let plain = DataSourceHarness<String, Reminder>(matchingByID: .reconfigure)
        let colliding = DataSourceHarness<String, CollidingReminder>(matchingByID: .reconfigure)
        var generator = SeededGenerator(seed: 23)
        var reminders = (0..<12).map { Reminder(id: $0, title: "r\($0)") }
        for round in 0..<6 {
            reminders.shuffle(using: &generator)
            for index in reminders.indices where Int.random(in: 0..<4, using: &generator) == 0 { reminders[index].title += "!" }
            if round % 2 == 1 { reminders.removeLast() }
            let split = reminders.count / 2
            let sections = [Array(reminders[..<split]), Array(reminders[split...])]
            await plain.dataSource.apply(.build(["A", "B"], sections))
            await colliding.dataSource.apply(.build(["A", "B"], sections.map { $0.map(CollidingReminder.init) }))
            #expect(colliding.problem() == nil, "round \(round)")
            #expect(colliding.shownItems() == sections.map { $0.map(CollidingReminder.init) }, "round \(round)")
        }
        #expect(plain.onView(\.performedBatches).count > 1)
        #expect(colliding.onView(\.performedBatches) == plain.onView(\.performedBatches))
    }

    /// After a user's drag the slots of the shown values no longer follow display order and
    /// the kept `id` keys are dropped: the next apply keys the shown values again, finds its
    /// changed values, and refreshes the moved item at its new place.
    @Test func changedValuesAreFoundAfterADrag() async throws {
        let harness = DataSourceHarness<String, Reminder>(matchingByID: .reconfigure)
        harness.dataSource.reorderingHandlers = .init(canReorderItem: { _ in true })
        var reminders = Self.reminders
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        let moved = try harness.onView { try $0.simulateReorder(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 3, section: 0)) }
        #expect(moved)
        reminders.append(reminders.removeFirst())
        #expect(harness.dataSource.snapshot().itemIdentifiers == reminders)
        reminders[3].title = "Milk and eggs"
        reminders[1].isFavourite = true
        await harness.dataSource.apply(.build(["Today"], [reminders]))
        #expect(
            harness.onView(\.performedBatches).last
                == BatchUpdate(reconfigureItems: [IndexPath(item: 1, section: 0), IndexPath(item: 3, section: 0)]))
        #expect(harness.shownItems() == [reminders])
        #expect(harness.problem() == nil)
    }

    /// Applies `rounds` seeded random edits, each snapshot made by `build` (from the sections
    /// and the round), and checks what each apply refreshed.
    private static func applyRandomEdits(
        rounds: Int, seed: UInt64, build: ([(String, [Reminder])], Int) -> Snapshot
    ) async {
        let harness = DataSourceHarness<String, Reminder>(matchingByID: .reconfigure)
        var generator = SeededGenerator(seed: seed)
        var current: [(String, [Reminder])] = []
        var nextID = 0
        for round in 0..<rounds {
            var next = current
            for index in next.indices {
                next[index].1.removeAll { _ in Int.random(in: 0..<8, using: &generator) == 0 }
                for position in next[index].1.indices where Int.random(in: 0..<5, using: &generator) == 0 {
                    next[index].1[position].title += "!"
                }
                next[index].1.shuffle(using: &generator)
            }
            if next.count < 4 { next.append(("S\(round)", [])) }
            if next.count > 1 && Int.random(in: 0..<6, using: &generator) == 0 { next.remove(at: 0) }
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                next[Int.random(in: 0..<next.count, using: &generator)].1.append(Reminder(id: nextID, title: "r\(nextID)"))
                nextID += 1
            }
            let old = Dictionary(uniqueKeysWithValues: current.flatMap(\.1).map { ($0.id, $0) })
            let changed = Set(next.flatMap(\.1).filter { item in old[item.id].map { $0 != item } ?? false }.map(\.id))
            let before = harness.onView(\.performedBatches).count
            await harness.dataSource.apply(build(next, round))
            #expect(harness.problem() == nil, "round \(round)")
            #expect(harness.shownItems() == next.map(\.1), "round \(round)")
            // Every changed item gets a reconfigure, unless the batch gives it a fresh cell anyway.
            let (refreshed, fresh) = harness.onView { view in
                let batches = view.performedBatches.dropFirst(before)
                let rows = DataSourceHarness<String, Reminder>.items(view)
                let insertedSections = Set(batches.flatMap(\.insertSections))
                let ids = { (paths: [IndexPath]) in Set(paths.map { rows[$0.section][$0.item].id }) }
                let inserted = rows.indices.filter(insertedSections.contains).flatMap { section in
                    rows[section].indices.map { IndexPath(item: $0, section: section) }
                }
                return (ids(batches.flatMap(\.reconfigureItems)), ids(batches.flatMap(\.insertItems) + inserted))
            }
            #expect(refreshed.isSubset(of: changed), "round \(round)")
            #expect(changed.subtracting(refreshed).isSubset(of: fresh), "round \(round)")
            current = next
        }
    }
}
