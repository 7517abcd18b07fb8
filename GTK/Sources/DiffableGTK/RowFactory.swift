import CDiffableGTK
import CGtk4

/// Counts of what the list's factory did, for tests and benchmarks.
public struct FactoryStatistics: Sendable, Equatable {
    /// Row widgets made by `setup` or when a list item switched between header and item.
    public var widgetsCreated = 0
    /// `bind` of item rows (a row's content put into a widget).
    public var itemBinds = 0
    /// `bind` of section header rows.
    public var headerBinds = 0
    /// `unbind` of any row.
    public var unbinds = 0
    /// Rows whose widget was updated in place (reconfigures), without a bind.
    public var reconfigures = 0
    /// `bind` signals that GTK 4.8 emits for a widget keeping its row, only because the row's
    /// position changed (every widget after a signal's position gets unbind + bind): the
    /// bind closure is not called for them.
    public var positionUpdates = 0
    /// All binds that put a row's content into a widget (the bind closure ran).
    public var binds: Int { itemBinds + headerBinds }
}

/// The factory's callbacks, kept alive by the factory itself (GObject data), so a widget
/// outliving its ``GTKListView`` never calls into freed memory.
final class RowBinder {
    let makeItem: () -> GtkWidgetPointer
    let bindItem: (GtkWidgetPointer, Any) -> Void
    let makeHeader: () -> GtkWidgetPointer
    let bindHeader: (GtkWidgetPointer, Any) -> Void
    var statistics = FactoryStatistics()
    /// Called after every bind with the row and its widget (tests record widget identity).
    var onBind: ((RowPointer, GtkWidgetPointer) -> Void)?
    /// The accessible label of a row from its content and whether it is a header (nil: none).
    var accessibleLabel: (Any, Bool) -> String? = { content, _ in String(describing: content) }
    /// Whether item rows get a disclosure button and indentation (``OutlineRowState``).
    var outlined = false
    /// The outline state of the row a list item shows (nil: a row of a flat section).
    var outlineState: (OpaquePointer) -> OutlineRowState? = { _ in nil }
    /// The user pressed the disclosure button of a list item's row.
    var onToggle: (OpaquePointer) -> Void = { _ in }
    /// The user pressed an expand (true) or collapse key in the list; returns whether it acted.
    var onDisclosureKey: (Bool) -> Bool = { _ in false }
    /// Whether row widgets are drag sources and drop targets (made after it is set).
    var reorderable = false
    /// A drag starts on a list item's row: the position to carry, or -1 to refuse.
    var onDragPrepare: (OpaquePointer) -> Int = { _ in -1 }
    /// A row from position `from` was dropped on a list item's row, in its lower half or not.
    var onDrop: (_ target: OpaquePointer, _ from: Int, _ lowerHalf: Bool) -> Bool = { _, _, _ in false }
    /// The list items that show a row now.
    private(set) var boundItems = Set<OpaquePointer>()

    init(
        makeItem: @escaping () -> GtkWidgetPointer, bindItem: @escaping (GtkWidgetPointer, Any) -> Void,
        makeHeader: @escaping () -> GtkWidgetPointer, bindHeader: @escaping (GtkWidgetPointer, Any) -> Void
    ) {
        self.makeItem = makeItem
        self.bindItem = bindItem
        self.makeHeader = makeHeader
        self.bindHeader = bindHeader
    }

    /// A GtkSignalListItemFactory calling this binder; the factory holds the binder.
    func makeFactory() -> OpaquePointer {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let factory = dfg_factory_new(nil, { item, user in
            Unmanaged<RowBinder>.fromOpaque(user!).takeUnretainedValue().bind(item!)
        }, { item, user in
            Unmanaged<RowBinder>.fromOpaque(user!).takeUnretainedValue().unbind(item!)
        }, { item, user in
            Unmanaged<RowBinder>.fromOpaque(user!).takeUnretainedValue().forget(item!)
        }, me)!
        g_object_set_data_full(gobject(factory), "dfg-binder", Unmanaged.passRetained(self).toOpaque()) { pointer in
            Unmanaged<RowBinder>.fromOpaque(pointer!).release()
        }
        return factory
    }

    private static let kindKey = "dfg-kind"
    /// On every row widget the binder makes: the GtkListItem it belongs to.
    static let listItemKey = "dfg-list-item"
    /// On an outline row's box: the item widget inside it, and its disclosure button.
    private static let innerKey = "dfg-inner"
    private static let disclosureKey = "dfg-disclosure"
    /// The row (uid) and content version each list item showed at its last bind.
    private var shownBy: [OpaquePointer: (uid: guint64, version: guint32)] = [:]

    private func bind(_ item: OpaquePointer) {
        guard let object = gtk_list_item_get_item(item) else { return }
        let row = RowPointer(OpaquePointer(object))
        let header = row.pointee.kind == 1
        var child = gtk_list_item_get_child(item)
        var madeWidget = false
        // 1: item widget, 2: header widget, 3: outline box (disclosure + item widget); 0: none yet.
        let wanted = header ? 2 : (outlined ? 3 : 1)
        if child == nil || Int(bitPattern: g_object_get_data(gobject(child!), Self.kindKey)) != wanted {
            let made = header ? makeHeader() : (outlined ? makeOutlineBox(for: item) : makeItem())
            g_object_set_data(gobject(made), Self.kindKey, UnsafeMutableRawPointer(bitPattern: wanted))
            g_object_set_data(gobject(made), Self.listItemKey, UnsafeMutableRawPointer(item))
            if reorderable { addDrag(to: made) }
            gtk_list_item_set_child(item, made)
            child = made
            madeWidget = true
            statistics.widgetsCreated += 1
        }
        gtk_list_item_set_selectable(item, header ? 0 : 1)
        gtk_list_item_set_activatable(item, header ? 0 : 1)
        row.pointee.bound = item
        boundItems.insert(item)
        if outlined && !header { decorate(item) }
        if !madeWidget, let shown = shownBy[item], shown.uid == row.pointee.uid, shown.version == row.pointee.version {
            statistics.positionUpdates += 1
            return
        }
        shownBy[item] = (row.pointee.uid, row.pointee.version)
        let widget = Self.rowWidget(child!)
        if header {
            bindHeader(widget, content(of: row))
            statistics.headerBinds += 1
        } else {
            bindItem(widget, content(of: row))
            statistics.itemBinds += 1
        }
        labelRow(child!, row)
        onBind?(row, widget)
    }

    /// The widget the app made for a list item's child (inside an outline box, the item widget).
    /// - Complexity: O(1).
    static func rowWidget(_ child: GtkWidgetPointer) -> GtkWidgetPointer {
        g_object_get_data(gobject(child), innerKey).map { $0.assumingMemoryBound(to: GtkWidget.self) } ?? child
    }

    /// The disclosure button of an outline row's child, or nil. - Complexity: O(1).
    static func disclosure(_ child: GtkWidgetPointer) -> GtkWidgetPointer? {
        g_object_get_data(gobject(child), disclosureKey).map { $0.assumingMemoryBound(to: GtkWidget.self) }
    }

    /// The accessible label of the row's list item widget (what a screen reader announces for
    /// the focused row). - Complexity: the label closure.
    private func labelRow(_ child: GtkWidgetPointer, _ row: RowPointer) {
        guard let rowWidget = gtk_widget_get_parent(child) else { return }
        dfg_accessible_set_label(rowWidget, accessibleLabel(content(of: row), row.pointee.kind == 1))
    }

    /// A box with a disclosure button (indented by level) and the app's item widget.
    private func makeOutlineBox(for item: OpaquePointer) -> GtkWidgetPointer {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        let button = gtk_button_new_from_icon_name("pan-end-symbolic")!
        gtk_widget_add_css_class(button, "flat")
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_widget_set_focusable(button, 0)  // rows take focus; + and − expand and collapse
        g_object_set_data(gobject(button), Self.listItemKey, UnsafeMutableRawPointer(item))
        dfg_connect(button, "clicked", { button, binder in
            let item = OpaquePointer(g_object_get_data(gobject(button!.assumingMemoryBound(to: GtkWidget.self)), RowBinder.listItemKey)!)
            Unmanaged<RowBinder>.fromOpaque(binder!).takeUnretainedValue().onToggle(item)
        }, Unmanaged.passUnretained(self).toOpaque())
        let inner = makeItem()
        gtk_widget_set_hexpand(inner, 1)
        gtk_box_append(gtkCast(box, to: GtkBox.self), button)
        gtk_box_append(gtkCast(box, to: GtkBox.self), inner)
        g_object_set_data(gobject(box), Self.innerKey, UnsafeMutableRawPointer(inner))
        g_object_set_data(gobject(box), Self.disclosureKey, UnsafeMutableRawPointer(button))
        return box
    }

    /// Shows a list item's outline state: indentation, the disclosure button (hidden in a flat
    /// section, transparent and inert on a leaf) and its icon, and the row's accessible expanded
    /// state and level. - Complexity: O(1) plus ``outlineState``.
    func decorate(_ item: OpaquePointer) {
        guard let child = gtk_list_item_get_child(item), let button = Self.disclosure(child) else { return }
        let state = outlineState(item)
        let rowWidget = gtk_widget_get_parent(child)
        gtk_widget_set_visible(button, state == nil ? 0 : 1)
        let expandable = state?.isExpandable ?? false
        gtk_widget_set_opacity(button, expandable ? 1 : 0)
        gtk_widget_set_sensitive(button, expandable ? 1 : 0)
        gtk_widget_set_margin_start(button, Int32(16 * (state?.level ?? 0)))
        let expanded = expandable && state!.isExpanded
        gtk_button_set_icon_name(gtkCast(button, to: GtkButton.self), expanded ? "pan-down-symbolic" : "pan-end-symbolic")
        dfg_accessible_set_label(button, expanded ? "Collapse" : "Expand")
        if let rowWidget {
            dfg_accessible_set_expanded(rowWidget, expandable ? (expanded ? 1 : 0) : -1)
            dfg_accessible_set_level(rowWidget, Int32(state.map { $0.level + 1 } ?? 0))
        }
    }

    private func unbind(_ item: OpaquePointer) {
        statistics.unbinds += 1
        boundItems.remove(item)
        guard let object = gtk_list_item_get_item(item) else { return }
        let row = RowPointer(OpaquePointer(object))
        if row.pointee.bound == item { row.pointee.bound = nil }
    }

    /// Adds the expand (+, Shift+→) and collapse (−, Shift+←) keys to the list widget.
    func addDisclosureKeys(to list: GtkWidgetPointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        for key in ["plus", "KP_Add", "<Shift>Right"] {
            dfg_add_shortcut(list, key, { _, binder in
                Unmanaged<RowBinder>.fromOpaque(binder!).takeUnretainedValue().onDisclosureKey(true) ? 1 : 0
            }, me)
        }
        for key in ["minus", "KP_Subtract", "<Shift>Left"] {
            dfg_add_shortcut(list, key, { _, binder in
                Unmanaged<RowBinder>.fromOpaque(binder!).takeUnretainedValue().onDisclosureKey(false) ? 1 : 0
            }, me)
        }
    }

    /// Makes a row widget a drag source and a drop target, reporting to ``onDragPrepare`` and
    /// ``onDrop`` with the list item it belongs to.
    private func addDrag(to widget: GtkWidgetPointer) {
        dfg_add_row_drag(widget, { widget, binder in
            guard let item = g_object_get_data(gobject(widget!), RowBinder.listItemKey) else { return -1 }
            return Int32(Unmanaged<RowBinder>.fromOpaque(binder!).takeUnretainedValue().onDragPrepare(OpaquePointer(item)))
        }, { widget, from, y, binder in
            guard let item = g_object_get_data(gobject(widget!), RowBinder.listItemKey) else { return 0 }
            let lowerHalf = y > Double(gtk_widget_get_height(widget)) / 2
            return Unmanaged<RowBinder>.fromOpaque(binder!).takeUnretainedValue().onDrop(OpaquePointer(item), Int(from), lowerHalf) ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// A list item is destroyed: its address may come back for another one.
    private func forget(_ item: OpaquePointer) {
        shownBy[item] = nil
        boundItems.remove(item)
    }

    /// Updates a bound row's widget in place (a reconfigure). - Complexity: the bind closure.
    func rebind(_ row: RowPointer) {
        row.pointee.version &+= 1  // a widget bound later runs the bind closure
        guard let item = row.pointee.bound, let child = gtk_list_item_get_child(item) else { return }
        shownBy[item] = (row.pointee.uid, row.pointee.version)
        let widget = Self.rowWidget(child)
        if row.pointee.kind == 1 { bindHeader(widget, content(of: row)) } else { bindItem(widget, content(of: row)) }
        labelRow(child, row)
        statistics.reconfigures += 1
    }

}
