import CDiffableGTK
import CGtk4
import Diffable
import Foundation

/// How an item row sits in an outline section: what its disclosure button and indentation show.
public struct OutlineRowState: Equatable, Sendable {
    /// 0 for a root item.
    public var level: Int
    /// Whether the row has a disclosure button (it has children, or may load some).
    public var isExpandable: Bool
    /// Whether its children are shown.
    public var isExpanded: Bool

    /// - Complexity: O(1).
    public init(level: Int, isExpandable: Bool, isExpanded: Bool) {
        self.level = level
        self.isExpandable = isExpandable
        self.isExpanded = isExpanded
    }
}

// Outline sections: GtkTreeListModel would own the expansion state and make its own
// items-changed signals for each expand, beside the data source's batches; here the data
// source owns the outline (sectionSnapshotHandlers, lazy children) and the list stays one flat
// model of visible rows, each row drawing its level and disclosure button.
extension GTKListView {
    /// Shows the outline sections of `dataSource`: item rows of the sections `isOutline`
    /// accepts get their level's indentation and a disclosure button, which (like the + and −
    /// keys, or Shift+→ and Shift+←, on the focused row) calls the data source's
    /// `toggleDisclosure(at:)`: its `sectionSnapshotHandlers` decide, may load children lazily
    /// (`snapshotForExpandingParent`), and the expanded or collapsed outline comes back as a
    /// batch. `isExpandable` marks items that show a button without children yet (children
    /// loaded on expand); default: items with children.
    /// - Complexity: O(1); after each batch, per outline section shown, O(1) for an outline and
    ///   O(section's items) for a section `isOutline` accepts that holds a flat snapshot.
    public func showOutlines<Section: Hashable & Sendable, Item: Hashable & Sendable>(
        of dataSource: DiffableDataSource<Section, Item, Cell>, where isOutline: @escaping (Section) -> Bool = { _ in true },
        isExpandable: ((Item) -> Bool)? = nil
    ) {
        outline = { [weak dataSource] section in
            guard let dataSource, let identifier = dataSource.sectionIdentifier(for: section), isOutline(identifier) else { return nil }
            let tree = dataSource.snapshot(for: identifier)
            let items = tree.items
            return { item in
                guard let id = dataSource.itemIdentifier(for: IndexPath(item: item, section: section)), let index = tree.index(of: id)
                else { return OutlineRowState(level: 0, isExpandable: false, isExpanded: false) }
                let level = tree.level(of: id)
                let hasChildren = index + 1 < items.count && tree.level(of: items[index + 1]) > level
                let expandable = hasChildren || (isExpandable?(id) ?? false)
                return OutlineRowState(level: level, isExpandable: expandable, isExpanded: expandable && tree.isExpanded(id))
            }
        }
    }

    /// The outline state of the item row at model `position`, nil for a header, a row of a flat
    /// section, or without ``outline``. - Complexity: O(sections) plus the reader.
    public func outlineState(at position: Int) -> OutlineRowState? {
        guard let outline, let path = indexPath(at: position) else { return nil }
        let reader: ((Int) -> OutlineRowState)?
        if let cached = outlineReaders[path.section] {
            reader = cached
        } else {
            reader = outline(path.section)
            outlineReaders[path.section] = .some(reader)
        }
        return reader?(path.item)
    }

    /// The disclosure button of the row at model `position`, nil when GTK shows no widget for
    /// it or it is not an outline row. - Complexity: O(1).
    public func disclosureButton(at position: Int) -> GtkWidgetPointer? {
        guard outline != nil, let container = rowContainer(at: position), let child = gtk_widget_get_first_child(container) else {
            return nil
        }
        return RowBinder.disclosure(child)
    }

    /// Expands or collapses the item at model `position` through the data source
    /// (`toggleDisclosure(at:)`), as its disclosure button does. Does nothing for a header, a
    /// row that cannot expand, or without ``outline``. - Complexity: the data source's.
    public func toggleDisclosure(at position: Int) {
        GTKMainContext.assertCurrent("GTKListView.toggleDisclosure(at:)")
        guard let state = outlineState(at: position), state.isExpandable, let path = indexPath(at: position) else { return }
        dataSource?.toggleDisclosure(at: path)
    }

    /// Forgets the readers and redraws the outline state of every row GTK shows (after a batch
    /// changes expansions or levels). - Complexity: O(rows shown) plus the readers.
    func refreshOutline() {
        outlineReaders = [:]
        guard outline != nil else { return }
        for item in binder.boundItems { binder.decorate(item) }
    }

    /// Wires the factory's disclosure buttons and the list's expand and collapse keys.
    func connectOutline() {
        binder.outlineState = { [weak self] item in
            guard let self else { return nil }
            let position = gtk_list_item_get_position(item)
            return position == GTK_INVALID_LIST_POSITION ? nil : self.outlineState(at: Int(position))
        }
        binder.onToggle = { [weak self] item in
            let position = gtk_list_item_get_position(item)
            if position != GTK_INVALID_LIST_POSITION { self?.toggleDisclosure(at: Int(position)) }
        }
        binder.onDisclosureKey = { [weak self] expanding in self?.toggleFocused(expanding: expanding) ?? false }
        binder.addDisclosureKeys(to: widget)
    }

    /// Expands (or collapses) the focused row when it can; returns whether it did.
    private func toggleFocused(expanding: Bool) -> Bool {
        guard let position = focusedPosition, let state = outlineState(at: position), state.isExpandable,
            state.isExpanded != expanding
        else { return false }
        toggleDisclosure(at: position)
        return true
    }
}
