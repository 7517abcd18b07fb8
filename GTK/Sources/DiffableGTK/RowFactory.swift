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
        }, nil, me)!
        g_object_set_data_full(gobject(factory), "dfg-binder", Unmanaged.passRetained(self).toOpaque()) { pointer in
            Unmanaged<RowBinder>.fromOpaque(pointer!).release()
        }
        return factory
    }

    private static let kindKey = "dfg-kind"
    /// The row (uid) and content version each list item showed at its last bind.
    private var shownBy: [OpaquePointer: (uid: guint64, version: guint32)] = [:]

    private func bind(_ item: OpaquePointer) {
        guard let object = gtk_list_item_get_item(item) else { return }
        let row = RowPointer(OpaquePointer(object))
        let header = row.pointee.kind == 1
        var child = gtk_list_item_get_child(item)
        var madeWidget = false
        // 1: item widget, 2: header widget (0: none yet).
        let wanted = header ? 2 : 1
        if child == nil || Int(bitPattern: g_object_get_data(gobject(child!), Self.kindKey)) != wanted {
            let made = header ? makeHeader() : makeItem()
            g_object_set_data(gobject(made), Self.kindKey, UnsafeMutableRawPointer(bitPattern: wanted))
            gtk_list_item_set_child(item, made)
            child = made
            madeWidget = true
            statistics.widgetsCreated += 1
        }
        gtk_list_item_set_selectable(item, header ? 0 : 1)
        gtk_list_item_set_activatable(item, header ? 0 : 1)
        row.pointee.bound = item
        if !madeWidget, let shown = shownBy[item], shown.uid == row.pointee.uid, shown.version == row.pointee.version {
            statistics.positionUpdates += 1
            return
        }
        shownBy[item] = (row.pointee.uid, row.pointee.version)
        if header {
            bindHeader(child!, content(of: row))
            statistics.headerBinds += 1
        } else {
            bindItem(child!, content(of: row))
            statistics.itemBinds += 1
        }
        onBind?(row, child!)
    }

    private func unbind(_ item: OpaquePointer) {
        statistics.unbinds += 1
        guard let object = gtk_list_item_get_item(item) else { return }
        let row = RowPointer(OpaquePointer(object))
        if row.pointee.bound == item { row.pointee.bound = nil }
    }

    /// Updates a bound row's widget in place (a reconfigure). - Complexity: the bind closure.
    func rebind(_ row: RowPointer) {
        row.pointee.version &+= 1  // a widget bound later runs the bind closure
        guard let item = row.pointee.bound, let child = gtk_list_item_get_child(item) else { return }
        shownBy[item] = (row.pointee.uid, row.pointee.version)
        if row.pointee.kind == 1 { bindHeader(child, content(of: row)) } else { bindItem(child, content(of: row)) }
        statistics.reconfigures += 1
    }

}
