extension DiffableDataSourceSectionSnapshot: CustomStringConvertible, CustomDebugStringConvertible {
    /// The outline on one line, children in brackets after their parent and `+` after an
    /// expanded item, e.g. `SectionSnapshot(4 items, 3 visible) [Food+ [Apple, Pear], Drinks [Water]]`.
    /// Long outlines are shortened. - Complexity: O(min(n, 100)) plus O(visible items) to count them.
    public var description: String { render(limit: 100, reflecting: false) }

    /// Like ``description`` with identifiers written by `String(reflecting:)`.
    /// - Complexity: as ``description``.
    public var debugDescription: String { render(limit: 100, reflecting: true) }

    /// The whole tree, one item per line in outline order: a `*` column for visible items,
    /// two spaces of indentation per level, then `+` (expanded) or `-` (collapsed) and the
    /// item, after a header line with the counts:
    ///
    /// ```
    /// DiffableDataSourceSectionSnapshot: 4 items, 3 visible, 1 expanded
    /// * + Food
    /// *   - Apple
    /// *   - Pear
    /// * - Drinks
    ///     - Water
    /// ```
    /// - Complexity: O(n · depth).
    public func visualDescription() -> String {
        var lines = [
            "DiffableDataSourceSectionSnapshot: \(storage.count) items, \(storage.visibleCount) visible, "
                + "\(storage.expanded.setCount) expanded"
        ]
        lines.reserveCapacity(storage.count + 1)
        for position in 0..<storage.count {
            let indentation = String(repeating: "  ", count: Int(storage.levels[position]))
            lines.append(
                (storage.isVisible(at: position) ? "* " : "  ") + indentation + (storage.expanded[position] ? "+ " : "- ")
                    + "\(storage.id(at: position))")
        }
        return lines.joined(separator: "\n")
    }

    private func render(limit: Int, reflecting: Bool) -> String {
        let shown = min(storage.count, limit)
        var text = ""
        for position in 0..<shown {
            let level = Int(storage.levels[position])
            if position > 0 {
                let previous = Int(storage.levels[position - 1])
                text += level > previous ? " [" : String(repeating: "]", count: previous - level) + ", "
            }
            let item = storage.id(at: position)
            text += (reflecting ? String(reflecting: item) : "\(item)") + (storage.expanded[position] ? "+" : "")
        }
        if shown < storage.count { text += ", … \(storage.count - shown) more" }
        if shown > 0 { text += String(repeating: "]", count: Int(storage.levels[shown - 1])) }
        return "SectionSnapshot(\(storage.count) items, \(storage.visibleCount) visible) [\(text)]"
    }
}
