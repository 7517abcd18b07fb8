import Foundation
import Testing

@testable import Diffable

/// The demo's everyday list changes (`diffable demo`), each through the strict simulated view.
@Suite struct DataSourceScenarioTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>

    /// A payment breakdown whose amounts are replaced and whose fees section arrives later:
    /// one batch inserts the section and replaces the changed rows.
    @Test func paymentBreakdownGainsASectionAndNewAmounts() async {
        let harness = DataSourceHarness<String, String>()
        await harness.dataSource.apply(.build(["Breakdown"], [["Subtotal 40.00", "Tax 3.20", "Total 43.20"]]))
        let withFees = Snapshot.build(
            ["Breakdown", "Fees"], [["Subtotal 40.00", "Tax 3.32", "Total 44.82"], ["Service fee 1.50"]])
        await harness.dataSource.apply(withFees)
        let rows = [1, 2].map { IndexPath(item: $0, section: 0) }
        #expect(harness.onView(\.performedBatches) == [BatchUpdate(insertSections: [1], deleteItems: rows, insertItems: rows)])
        #expect(harness.shownItems() == [["Subtotal 40.00", "Tax 3.32", "Total 44.82"], ["Service fee 1.50"]])
        #expect(harness.problem() == nil)
    }

    /// Cities and places shuffled 30 times (sometimes one crosses sections): moves only, the
    /// fewest per section, and the view always shows the new order.
    @Test func citiesAndPlacesShuffled() async {
        let harness = DataSourceHarness<String, String>(flavor: .table)
        var cities = ["Lisbon", "Kyoto", "Quito", "Oslo", "Dakar", "Hanoi", "Lima", "Perth", "Tunis", "Riga"]
        var places = ["Alhambra", "Petra", "Uluru", "Machu Picchu", "Angkor Wat", "Giza"]
        await harness.dataSource.apply(.build(["Cities", "Places"], [cities, places]))
        var generator = SeededGenerator(seed: 17)
        for round in 0..<30 {
            cities.shuffle(using: &generator)
            places.shuffle(using: &generator)
            if round % 5 == 4 { places.insert(cities.removeLast(), at: 0) }
            let before = harness.onView(\.performedBatches).count
            await harness.dataSource.apply(.build(["Cities", "Places"], [cities, places]))
            #expect(harness.problem() == nil, "round \(round)")
            for batch in harness.onView(\.performedBatches).dropFirst(before) {
                #expect(batch.deleteItems.isEmpty && batch.insertItems.isEmpty && batch.deleteSections.isEmpty, "round \(round)")
            }
        }
        #expect(harness.shownItems() == [cities, places])
    }

    /// US states grouped by first letter: a list with "California" twice is rejected by the
    /// validating path with a report naming every position (the data source never sees it);
    /// the corrected list applies.
    @Test func usStatesByFirstLetterRejectTheDuplicateCalifornia() async throws {
        let states = [
            "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "California",
            "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky",
            "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri",
            "Montana", "Nebraska", "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York",
            "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island",
            "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah", "Vermont", "Virginia", "Washington",
            "West Virginia", "Wisconsin", "Wyoming",
        ]
        func grouped(_ names: [String]) -> [(String, [String])] {
            var letters: [String] = [], groups: [String: [String]] = [:]
            for name in names {
                let letter = String(name.prefix(1))
                if groups[letter] == nil { letters.append(letter) }
                groups[letter, default: []].append(name)
            }
            return letters.map { ($0, groups[$0]!) }
        }
        let harness = DataSourceHarness<String, String>()
        await harness.dataSource.apply(Snapshot())
        #expect(throws: SnapshotError.self) { try Snapshot(validating: grouped(states)) }
        do {
            _ = try Snapshot(validating: grouped(states))
        } catch {
            #expect(error.description == "item identifiers are not unique: \"California\" at [1, 0], [1, 3]")
        }
        #expect(harness.dataSource.snapshot() == Snapshot())
        var seen = Set<String>()
        let snapshot = try Snapshot(validating: grouped(states.filter { seen.insert($0).inserted }))
        await harness.dataSource.apply(snapshot)
        #expect(harness.problem() == nil)
        #expect(harness.dataSource.index(for: "N") == 10)
        #expect(harness.dataSource.itemIdentifier(for: IndexPath(item: 3, section: 1)) == nil)
        #expect(harness.dataSource.indexPath(for: "New York") == IndexPath(item: 5, section: 10))
    }

    /// A beer list filtered as the user types (and deletes): deletes and inserts only, and a
    /// tap on the first row finds the beer through `itemIdentifier(for:)`.
    @Test func beerListFilteredAsTheUserTypes() async {
        let beers = [
            "Stone IPA", "Sierra Nevada Pale Ale", "Stella Artois", "Guinness Draught", "Samuel Adams Boston Lager",
            "St. Bernardus Abt 12", "Stiegl Goldbräu", "Founders Breakfast Stout", "Left Hand Milk Stout", "Pilsner Urquell",
            "Stoudt's Pils", "Old Rasputin Stout", "Weihenstephaner Hefeweissbier", "Chimay Blue", "Stone Arrogant Bastard",
        ]
        let harness = DataSourceHarness<String, String>()
        for query in ["", "s", "st", "sto", "ston", "stone", "ston", "st", "stou", "stout", ""] {
            let matching = beers.filter { query.isEmpty || $0.lowercased().contains(query) }
            let before = harness.onView(\.performedBatches).count
            await harness.dataSource.apply(.build(["Beers"], [matching]))
            #expect(harness.problem() == nil, "query \(query)")
            #expect(harness.dataSource.itemIdentifier(for: IndexPath(item: 0, section: 0)) == matching.first, "query \(query)")
            for batch in harness.onView(\.performedBatches).dropFirst(before) { #expect(batch.moveItems.isEmpty, "query \(query)") }
        }
        #expect(harness.shownItems() == [beers])
    }
}
