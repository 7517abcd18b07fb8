import Diffable

/// What the browser shows for one row or one section header: markup that is safe to insert,
/// plus, for a row of an outline section, its depth and disclosure state.
///
/// Make rows with ``text(_:expandable:)``, which escapes everything, so an item whose text is
/// `<script>` shows that text and runs nothing. ``rawHTML(_:expandable:)`` is the explicit
/// opt-in for markup the app itself produced from trusted parts.
public struct RemoteRow: Sendable, Hashable {
    /// The row's markup, already escaped (or trusted, for ``rawHTML(_:expandable:)``).
    public var html: String
    /// Whether the row shows a disclosure control in an outline section; nil lets the list
    /// decide from the outline (the item has children or is expanded).
    public var expandable: Bool?
    /// Depth in an outline section (0 for a root item); nil for a row of a flat section.
    /// Filled in by ``LiveList`` from the section's outline.
    public var level: Int?
    /// Whether the row's item is expanded; meaningful only with ``level``.
    public var isExpanded = false

    /// A row showing `text` as text: `&`, `<`, `>`, `"` and `'` are escaped.
    /// - Complexity: O(length of `text`).
    public static func text(_ text: String, expandable: Bool? = nil) -> RemoteRow {
        RemoteRow(html: HTMLEscaping.escape(text), expandable: expandable)
    }

    /// A row showing `html` as markup, unescaped: only for markup built from trusted parts
    /// (escape every user-supplied piece with ``HTMLEscaping/escape(_:)``).
    /// - Complexity: O(1).
    public static func rawHTML(_ html: String, expandable: Bool? = nil) -> RemoteRow {
        RemoteRow(html: html, expandable: expandable)
    }
}
