import ArgumentParser
import Diffable
import DiffableTools
import Foundation

/// `diffable demo`: the engine on built-in examples, printed for people.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Show snapshots, their difference and the list-view check on built-in data.")

    typealias Snapshot = DiffableDataSourceSnapshot<String, String>

    /// The built-in examples are valid, so `init(validating:)` never throws here.
    static func snapshot(_ sections: [(String, [String])]) -> Snapshot {
        try! Snapshot(validating: sections)
    }

    static func show(_ title: String, old: Snapshot, new: Snapshot) {
        let difference = new.difference(from: old)
        print("• \(title)")
        print("  old \(old)")
        print("  new \(new)")
        if !new.reloadedItemIdentifiers.isEmpty { print("      reloading \(new.reloadedItemIdentifiers.joined(separator: ", "))") }
        print(DiffCommand.text(.batches(difference.batches)).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        var view = ListViewSimulator<String, String>(flavor: .table)
        view.reloadData(old)
        do {
            try view.apply(difference)
            print("  UITableView rules (strict simulator): accepted; the view shows the new snapshot\n")
        } catch {
            print("  simulator rejected it: \(error)\n")
        }
    }

    func run() throws {
        print("Diffable demo: Apple's diffable data source API on a C diff core\n")
        Self.show(
            "groceries: one item moves between sections, one is reloaded, one appears",
            old: Self.snapshot([("Fruit", ["apple", "banana", "cherry"]), ("Vegetables", ["kale", "leek"])]),
            new: {
                var s = Self.snapshot([("Fruit", ["cherry", "apple"]), ("Vegetables", ["kale", "banana", "leek", "okra"])])
                s.reloadItems(["apple"])
                return s
            }())
        Self.show(
            "a moved section with item changes becomes delete + insert (RxDataSources' hardest case)",
            old: Self.snapshot([("1", ["1111"]), ("2", ["2222"])]), new: Self.snapshot([("2", ["0"]), ("1", [])]))

        var naive = ListViewSimulator<String, String>(flavor: .table, mode: .compat)
        naive.reloadData(Self.snapshot([("A", ["x"])]))
        let move = BatchUpdate(
            insertSections: [0], moveItems: [.init(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 0, section: 0))])
        do {
            try naive.performBatchUpdates(move, dataSourceAfter: Self.snapshot([("B", ["x"]), ("A", [])]))
        } catch {
            print("• what a naive engine sends for \"x moves into new section B\", and what UIKit says:")
            print("  \(move)\n  NSInternalInconsistencyException: \(error.message)")
            let fixed = Self.snapshot([("B", ["x"]), ("A", [])]).difference(from: Self.snapshot([("A", ["x"])]))
            print("  Diffable sends instead: \(fixed.batches[0])\n")
        }

        do {
            _ = try Snapshot(validating: [("Inbox", ["m1", "m2", "m1"]), ("Archive", ["m2"])])
        } catch {
            print("• untrusted data is rejected with every duplicate and where it is, never a crash:\n  \(error)\n")
        }

        let differ = ListDiffer()
        let flat = try differ.difference(from: ["a", "b", "c", "d", "e"], to: ["b", "c", "d", "e", "a"])
        print("• flat lists: one item from the front to the back is \(flat.moves.count) move (Heckel-style engines report 4)")
        let equivalent = try differ.difference(from: ["caf\u{E9}"], to: ["cafe\u{301}"])
        print("• \"caf\\u{E9}\" and \"cafe\\u{301}\" are one identifier (NFC keys): \(equivalent.isEmpty ? "no change" : "changed")\n")

        let items = 1_000_000, sections = 10_000
        let (oldLayout, newLayout) = SectionedWorkload.churn(itemCount: items, sectionCount: sections, seed: 3)
        let old = SectionedWorkload.snapshot(oldLayout) { $0 }, new = SectionedWorkload.snapshot(newLayout) { $0 }
        let clock = ContinuousClock()
        var difference = new.difference(from: old)
        let elapsed = clock.measure { difference = new.difference(from: old) }
        let batch = difference.structuralBatch ?? BatchUpdate()
        print("• \(items) items in \(sections) sections, 5% deleted, 5% moved across sections, 5% inserted:")
        print(
            "  difference(from:) in \(elapsed.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 1)))): "
                + "\(batch.deleteItems.count) deletes, \(batch.insertItems.count) inserts, \(batch.moveItems.count) moves, one batch")
        var view = ListViewSimulator<Int, Int>()
        view.reloadData(old)
        try view.apply(difference)
        print("  strict simulator: accepted and replayed to the new snapshot")
    }
}
