import Diffable
import Foundation

extension SimulatedListView {
    /// Nil when the view shows exactly `expected`; otherwise the first difference, in words
    /// (for a test's failure message).
    /// - Complexity: O(n + s).
    public func mismatch(against expected: [[Cell]]) -> String? {
        guard isLoaded else { return "the view has not loaded its data" }
        guard rows.count == expected.count else { return "the view shows \(rows.count) sections, expected \(expected.count)" }
        for (section, (shown, wanted)) in zip(rows, expected).enumerated() where shown != wanted {
            return "section \(section) shows \(String(reflecting: shown)), expected \(String(reflecting: wanted))"
        }
        return nil
    }

    /// Nil when the view shows `snapshot`'s items, each cell equal to its item identifier (the
    /// usual test cell provider); otherwise the first difference, in words.
    /// - Complexity: O(n + s).
    public func mismatch<Section>(against snapshot: DiffableDataSourceSnapshot<Section, Cell>) -> String? where Cell: Hashable {
        mismatch(against: snapshot.sectionIdentifiers.map { snapshot.itemIdentifiers(inSection: $0) })
    }
}
