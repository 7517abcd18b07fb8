import Diffable
import Foundation

/// The batches for people (`diffable diff --format text`): one line per kind of change in
/// each batch, every position with the identifier found there, as the demo names its rows.
///
/// ```
/// batch 1:
///   delete sections: "T" 1
///   insert sections: "T" 0
///   delete items: "a" (0, 0)
///   move items: "c" (0, 2)→(1, 0)
/// batch 2 (refresh):
///   reload items: "b" (1, 1)
/// ```
///
/// Deletes and the starts of moves are positions in the old snapshot; inserts, the ends of
/// moves and every refresh (a refresh batch holds final positions) are in the new one.
public enum BatchText {
    /// The identifier at a position of each snapshot, as written in its document.
    public struct Names {
        public var oldSection: (Int) -> String
        public var newSection: (Int) -> String
        public var oldItem: (IndexPath) -> String
        public var newItem: (IndexPath) -> String

        /// - Complexity: O(1).
        public init(
            oldSection: @escaping (Int) -> String, newSection: @escaping (Int) -> String, oldItem: @escaping (IndexPath) -> String,
            newItem: @escaping (IndexPath) -> String
        ) {
            self.oldSection = oldSection
            self.newSection = newSection
            self.oldItem = oldItem
            self.newItem = newItem
        }
    }

    /// `no changes` when there are no batches.
    /// - Complexity: O(operations) calls of `names`.
    public static func render(_ batches: [BatchUpdate], names: Names) -> String {
        if batches.isEmpty { return "no changes" }
        return batches.enumerated().map { index, batch in
            var lines = ["batch \(index + 1)\(batch.isRefreshOnly ? " (refresh)" : ""):"]
            func add(_ kind: String, _ values: [String]) {
                if !values.isEmpty { lines.append("  \(kind): \(values.joined(separator: ", "))") }
            }
            func quoted(_ identifier: String) -> String { identifier.debugDescription }
            func path(_ p: IndexPath) -> String { "(\(p.section), \(p.item))" }
            add("delete sections", batch.deleteSections.map { "\(quoted(names.oldSection($0))) \($0)" })
            add("insert sections", batch.insertSections.map { "\(quoted(names.newSection($0))) \($0)" })
            add("move sections", batch.moveSections.map { "\(quoted(names.oldSection($0.from))) \($0.from)→\($0.to)" })
            add("reload sections", batch.reloadSections.map { "\(quoted(names.newSection($0))) \($0)" })
            add("delete items", batch.deleteItems.map { "\(quoted(names.oldItem($0))) \(path($0))" })
            add("insert items", batch.insertItems.map { "\(quoted(names.newItem($0))) \(path($0))" })
            add("move items", batch.moveItems.map { "\(quoted(names.oldItem($0.from))) \(path($0.from))→\(path($0.to))" })
            add("reload items", batch.reloadItems.map { "\(quoted(names.newItem($0))) \(path($0))" })
            add("reconfigure items", batch.reconfigureItems.map { "\(quoted(names.newItem($0))) \(path($0))" })
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
