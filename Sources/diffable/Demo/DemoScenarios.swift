import Diffable
import DiffableTesting
import Foundation

/// Everyday list changes (states, cities, payments, filter, favourite, outline): before, after, the batch between.
enum DemoScenarios {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>

    /// Every scenario by the name `--only` takes, in the order the demo shows them.
    static let all: [(name: String, title: String, run: @Sendable (DemoPrinter) -> Void)] = [
        ("states", "US states by first letter; the feed repeats \"California\"", states),
        ("cities", "cities shuffled, one place moves to another country", cities),
        ("payments", "a payment breakdown whose discount section arrives later", payments),
        ("filter", "a beer list filtered as the user types \"st\", then clears it", filter),
        ("favourite", "a reminder marked as favourite (matched by id: reconfigured, not replaced)", favourite),
        ("outline", "a file browser outline expanded and collapsed", outline),
    ]

    static func snapshot(_ sections: [(String, [String])]) -> Snapshot {
        var snapshot = Snapshot()
        for (section, items) in sections {
            snapshot.appendSections([section])
            snapshot.appendItems(items, toSection: section)
        }
        return snapshot
    }

    static func states(_ printer: DemoPrinter) {
        let feed = ["Alabama", "Alaska", "California", "Colorado", "California", "Kansas", "Kentucky"]
        let grouped = Dictionary(grouping: feed) { String($0.prefix(1)) }.sorted { $0.key < $1.key }
            .map { ($0.key, $0.value) }
        do {
            _ = try Snapshot(validating: grouped)
        } catch {
            print(
                "  " + printer.bold("▸ DiffableDataSourceSnapshot(validating:) on the feed") + "\n  " + printer.paint("\(error)", .deleted))
            print("  (UIKit: \"Supplied item identifiers are not unique\" and a crash, without saying which)\n")
        }
        let list = DemoList<String>(printer: printer) { $0 }
        var seen = Set<String>()
        list.apply("the feed with the repeat dropped", snapshot(grouped.map { ($0.0, $0.1.filter { seen.insert($0).inserted }) }))
        list.apply(
            "Texas arrives, Alaska goes",
            snapshot([("A", ["Alabama"]), ("C", ["California", "Colorado"]), ("K", ["Kansas", "Kentucky"]), ("T", ["Texas"])]))
    }

    static func cities(_ printer: DemoPrinter) {
        let list = DemoList<String>(printer: printer) { $0 }
        list.apply(
            "cities", snapshot([("France", ["Paris", "Lyon", "Nice"]), ("Peru", ["Lima", "Cusco"]), ("Japan", ["Tokyo", "Kyoto"])]))
        list.apply(
            "shuffled, and Nice is listed under Japan by mistake",
            snapshot([("France", ["Lyon", "Paris"]), ("Peru", ["Cusco", "Lima"]), ("Japan", ["Kyoto", "Nice", "Tokyo"])]))
    }

    static func payments(_ printer: DemoPrinter) {
        let list = DemoList<String>(printer: printer) { $0 }
        list.apply("the breakdown", snapshot([("Order", ["Subtotal 40.00", "Shipping 5.00"]), ("Total", ["Total 45.00"])]))
        list.apply(
            "a discount code: a section appears, the totals are replaced",
            snapshot([
                ("Order", ["Subtotal 40.00", "Shipping 5.00"]), ("Discounts", ["SPRING −4.00"]), ("Total", ["Total 41.00"]),
            ]))
    }

    static func filter(_ printer: DemoPrinter) {
        let beers = ["Amber Ale", "Pale Ale", "Pilsner", "Porter", "Stout", "Imperial Stout", "Saison", "Lager"]
        let list = DemoList<String>(printer: printer) { $0 }
        for query in ["", "s", "st", ""] {
            let shown = query.isEmpty ? beers : beers.filter { $0.lowercased().contains(query) }
            list.apply(query.isEmpty ? "no filter" : "filter \"\(query)\"", snapshot([("Beers", shown)]))
        }
        if let path = list.dataSource.indexPath(for: "Stout") {
            print("  tap at \(path) → itemIdentifier(for:) = \(list.dataSource.itemIdentifier(for: path) ?? "nil")\n")
        }
    }

    struct Reminder: Identifiable, Hashable, Sendable {
        var id: Int
        var title: String
        var isFavourite = false
    }

    static func favourite(_ printer: DemoPrinter) {
        let list = DemoList<Reminder>(printer: printer, matchingByID: ()) { ($0.isFavourite ? "★ " : "") + $0.title }
        var reminders = [Reminder(id: 1, title: "Buy milk"), Reminder(id: 2, title: "Call Ana"), Reminder(id: 3, title: "Pay rent")]
        func snapshot() -> DiffableDataSourceSnapshot<String, Reminder> {
            var snapshot = DiffableDataSourceSnapshot<String, Reminder>()
            snapshot.appendSections(["Today"])
            snapshot.appendItems(reminders, toSection: "Today")
            return snapshot
        }
        list.apply("reminders", snapshot())
        reminders[1].isFavourite = true
        list.apply("\"Call Ana\" starred: same id, new value", snapshot())
    }

    static func outline(_ printer: DemoPrinter) {
        var files = DiffableDataSourceSectionSnapshot<String>()
        files.append(["Sources", "Tests", "README.md"])
        files.append(["Diffable", "diffable"], to: "Sources")
        files.append(["Snapshot.swift", "Diff.swift"], to: "Diffable")
        files.append(["SnapshotTests.swift"], to: "Tests")
        var view = ListViewSimulator<String, String>(flavor: .table)
        var shown = files
        view.reloadData(shown.visibleRows(titled: "Files"))
        func show(_ step: String, _ next: DiffableDataSourceSectionSnapshot<String>) {
            let difference = next.difference(from: shown, inSection: "Files")
            print("  " + printer.bold("▸ " + step))
            printer.update(
                titlesBefore: ["Files"], before: [shown.visibleItems], titlesAfter: ["Files"], after: [next.visibleItems],
                batches: difference.batches)
            do { try view.apply(difference) } catch { print("  simulator: \(error)") }
            shown = next
        }
        print(
            "  " + printer.bold("▸ the outline, collapsed") + "\n  "
                + files.visualDescription().split(separator: "\n").joined(separator: "\n  ") + "\n")
        files.expand(["Sources"])
        show("expand Sources", files)
        files.expand(["Diffable"])
        show("expand Diffable", files)
        files.collapse(["Sources"])
        show("collapse Sources (Diffable stays expanded inside)", files)
        files.expand(["Sources", "Tests"])
        show("expand Sources and Tests", files)
    }
}

extension DiffableDataSourceSectionSnapshot where ItemIdentifierType == String {
    /// The visible rows as a one-section flat snapshot.
    func visibleRows(titled title: String) -> DiffableDataSourceSnapshot<String, String> {
        var snapshot = DiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections([title])
        snapshot.appendItems(visibleItems, toSection: title)
        return snapshot
    }
}
