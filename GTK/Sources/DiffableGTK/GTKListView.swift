import CDiffableGTK
import CGtk4
import Diffable
import Foundation

/// A ``ListView`` shown by a GTK 4 `GtkListView`: the data source's rows live in a custom
/// `GListModel` (one row object per item and per section header), and every batch reaches
/// GTK as few `items-changed` signals that keep moved rows' widgets: the fewest that keep every
/// move inside one signal, then nearby ones joined (``signalMergeSpan``; docs/GTK.md).
///
/// **Sections** are header rows in the same model, drawn by their own widget
/// (`makeHeader`/`bindHeader`), because GTK 4.8 has no section headers (`GtkSectionModel`
/// came in 4.12); one list keeps one scroll position, keyboard navigation across sections, one
/// selection, and a row moved between sections keeps its widget. A section has a header row when
/// the data source's supplementary view of kind `"header"` is non-nil for it.
///
/// **Selection** is a `GtkSingleSelection` or `GtkMultiSelection` over the model: a moved
/// row is the same object inside one signal, so GTK keeps it selected; a deleted row drops
/// out; a reloaded row (a new object) is selected again after the batch.
///
/// **Outline sections** (``showOutlines(of:where:isExpandable:)``), **drag reordering**
/// (``reordersByDrag``), **accessible labels** (``accessibleLabel``) and widget-keeping across
/// a section delete and insert (``rowIdentity``) are set up before the first apply.
///
/// Every method runs on the GTK main context (``GTKMainContext/executor`` for the data source);
/// each model change checks it.
public final class GTKListView<Cell>: ListView, @unchecked Sendable {
    public weak var dataSource: (any ListViewDataSource<Cell>)?

    /// How selection works. - Complexity: n/a.
    public enum SelectionMode: Sendable {
        /// No selection model (`GtkNoSelection`).
        case none
        /// At most one row (`GtkSingleSelection`, no autoselect, can unselect).
        case single
        /// Any rows (`GtkMultiSelection`).
        case multiple
    }

    /// How a batch reaches the model.
    public enum EmissionStrategy: Sendable {
        /// The fewest signals that keep every moved row in one signal, nearby ones joined
        /// (``signalMergeSpan``; the default; see ``Emission``).
        case grouped
        /// One signal per ``ListStep`` (`BatchUpdate.steps`), a move as a removal signal then an
        /// insertion signal: moved rows lose their widget. For comparison and tests.
        case perStep
    }

    /// The `GtkListView`, to put in a `GtkScrolledWindow`. The view holds a reference.
    public let widget: GtkWidgetPointer
    /// The model, as a `GListModel` (the view holds a reference).
    public let model: OpaquePointer
    /// The selection model over ``model`` that the `GtkListView` shows.
    public let selectionModel: OpaquePointer
    /// The selection model's kind, as given to `init`.
    public let selectionMode: SelectionMode
    /// How batches reach the model (default ``EmissionStrategy/grouped``).
    public var emissionStrategy = EmissionStrategy.grouped
    /// Nearby runs of changes at most this many unchanged rows apart share one signal
    /// (``EmissionStrategy/grouped``). GTK 4.8's `GtkListView` spends a few microseconds per
    /// `items-changed` but almost nothing per unchanged row a signal spans (measured: one
    /// signal over 10^5 rows costs it about what 150 separate signals do), so joining runs less
    /// than about 500 rows apart is cheaper; the spanned rows are removed and added back as the
    /// same objects and keep their widgets. Set 0 when other list models are stacked on
    /// ``model`` (a `GtkFilterListModel` re-examines every spanned row). Default 512.
    public var signalMergeSpan = 512
    /// The accessible label of each row (what a screen reader announces when it has focus),
    /// from its cell and whether it is a section header; nil: none. Default: the cell's
    /// description. Set before the rows are shown.
    public var accessibleLabel: ((Cell, _ isHeader: Bool) -> String?)? = { cell, _ in String(describing: cell) } {
        didSet {
            let label = accessibleLabel
            binder.accessibleLabel = { content, header in label?(content as! Cell, header) }
        }
    }
    /// Outline sections: for section `section`, a reader giving each item's ``OutlineRowState``,
    /// or nil for a flat section. When set, item rows get a disclosure button and indentation
    /// (``showOutlines(of:where:)`` sets it from a data source). Asked once per section after
    /// each batch, for the rows GTK shows. Default nil (no disclosure buttons).
    public var outline: ((_ section: Int) -> ((_ item: Int) -> OutlineRowState)?)? {
        didSet {
            binder.outlined = outline != nil
            refreshOutline()
        }
    }
    /// The readers ``outline`` gave since the last batch, by section.
    var outlineReaders: [Int: ((Int) -> OutlineRowState)?] = [:]
    /// What makes two rows the same row for the view, from a cell and whether it is a section
    /// header (nil: unknown). When set, a row the batch deletes and a row it inserts with the
    /// same identity become one row object that moved, so it keeps its widget: a section the
    /// batch moves and changes arrives as a delete and an insert (UIKit's rule), and its rows
    /// would otherwise all get new widgets. The kept row shows the inserted row's cell (the bind
    /// closure runs again on its widget, counted in ``FactoryStatistics/reconfigures``).
    /// Used by ``EmissionStrategy/grouped``. Default nil.
    public var rowIdentity: ((Cell, _ isHeader: Bool) -> AnyHashable?)?

    private let rows: OpaquePointer  // DfgListModel
    let binder: RowBinder
    /// Rows per section (items only) and whether each section has a header row.
    var itemCounts: [Int] = []
    var headers: [Bool] = []
    /// Batches performed, and the signals of the last one.
    public private(set) var batchesPerformed = 0
    public private(set) var lastEmissions: [Emission] = []
    /// The signals of the last batch that was not refresh-only.
    public private(set) var lastEmissionsOfStructuralBatch: [Emission] = []

    /// - Parameters:
    ///   - selection: the selection model (default: single).
    ///   - makeItem: makes an empty widget for item rows (GTK re-uses it for other rows).
    ///   - bindItem: shows a cell in a widget `makeItem` made.
    ///   - makeHeader: makes an empty widget for section header rows (default: a label).
    ///   - bindHeader: shows a header cell (default: the cell's description in the label).
    /// - Complexity: O(1).
    public init(
        selection: SelectionMode = .single,
        makeItem: @escaping () -> GtkWidgetPointer,
        bindItem: @escaping (GtkWidgetPointer, Cell) -> Void,
        makeHeader: (() -> GtkWidgetPointer)? = nil,
        bindHeader: ((GtkWidgetPointer, Cell) -> Void)? = nil
    ) {
        GTKMainContext.assertCurrent("GTKListView.init")
        binder = RowBinder(
            makeItem: makeItem,
            bindItem: { widget, content in bindItem(widget, content as! Cell) },
            makeHeader: makeHeader ?? {
                let label = gtk_label_new(nil)!
                gtk_label_set_xalign(OpaquePointer(label), 0)
                gtk_widget_add_css_class(label, "heading")
                return label
            },
            bindHeader: { widget, content in
                if let bindHeader { bindHeader(widget, content as! Cell) } else {
                    gtk_label_set_text(OpaquePointer(widget), "\(content)")
                }
            })
        rows = dfg_list_model_new()!
        model = rows
        selectionMode = selection
        let listModel = rows
        g_object_ref(raw(listModel))  // the selection model takes one reference
        switch selection {
        case .none: selectionModel = gtk_no_selection_new(listModel)
        case .single:
            let single = gtk_single_selection_new(listModel)!
            gtk_single_selection_set_autoselect(single, 0)
            gtk_single_selection_set_can_unselect(single, 1)
            selectionModel = single
        case .multiple: selectionModel = gtk_multi_selection_new(listModel)
        }
        g_object_ref(raw(selectionModel))  // the list view takes one reference
        let list = gtk_list_view_new(selectionModel, binder.makeFactory())!
        widget = list
        g_object_ref_sink(raw(list))
        connectOutline()
        connectReordering()
    }

    deinit {
        g_object_unref(raw(widget))
        g_object_unref(raw(selectionModel))
        g_object_unref(raw(rows))
    }

    // MARK: Reading the list

    /// What the factory did so far (binds, unbinds, widgets made, in-place updates).
    public var statistics: FactoryStatistics { binder.statistics }

    /// The number of `items-changed` signals emitted so far. - Complexity: O(1).
    public var emissionCount: Int { Int(dfg_list_model_emissions(rows)) }

    /// The number of rows in the model (items and headers). - Complexity: O(1).
    public var rowCount: Int { Int(dfg_list_model_count(rows)) }

    /// The row at model position `position`: its cell and whether it is a section header.
    /// - Complexity: O(1).
    public func row(at position: Int) -> (cell: Cell, isHeader: Bool)? {
        guard let row = dfg_list_model_peek(rows, UInt32(position)) else { return nil }
        return (content(of: row) as! Cell, row.pointee.kind == 1)
    }

    /// Every row in model order. - Complexity: O(rows).
    public var allRows: [(cell: Cell, isHeader: Bool)] { (0..<rowCount).map { row(at: $0)! } }

    /// The model position of the item at `indexPath`. - Complexity: O(sections).
    public func position(of indexPath: IndexPath) -> Int {
        var position = 0
        for section in 0..<indexPath.section { position += (headers[section] ? 1 : 0) + itemCounts[section] }
        return position + (headers[indexPath.section] ? 1 : 0) + indexPath.item
    }

    /// The index path of the item row at model `position`, nil for a header or out of range.
    /// - Complexity: O(sections).
    public func indexPath(at position: Int) -> IndexPath? {
        var start = 0
        for section in 0..<itemCounts.count {
            let first = start + (headers[section] ? 1 : 0)
            let end = first + itemCounts[section]
            if position < end { return position >= first ? IndexPath(item: position - first, section: section) : nil }
            start = end
        }
        return nil
    }

    /// The widget showing the row at model `position` now, or nil when GTK made none (the row
    /// is far from the visible part). - Complexity: O(1).
    public func boundWidget(at position: Int) -> GtkWidgetPointer? {
        guard let row = dfg_list_model_peek(rows, UInt32(position)), let item = row.pointee.bound,
            let child = gtk_list_item_get_child(item)
        else { return nil }
        return RowBinder.rowWidget(child)
    }

    /// The row widget GTK made around the row at model `position` (the one that takes keyboard
    /// focus and carries the accessible label), or nil. - Complexity: O(1).
    public func rowContainer(at position: Int) -> GtkWidgetPointer? {
        guard let row = dfg_list_model_peek(rows, UInt32(position)), let item = row.pointee.bound else { return nil }
        return gtk_list_item_get_child(item).flatMap { gtk_widget_get_parent($0) }
    }

    /// The model position of the row that has keyboard focus in the list, or nil.
    /// - Complexity: O(1).
    public var focusedPosition: Int? {
        guard let focused = gtk_widget_get_focus_child(widget), let child = gtk_widget_get_first_child(focused),
            let item = g_object_get_data(gobject(child), RowBinder.listItemKey)
        else { return nil }
        let position = gtk_list_item_get_position(OpaquePointer(item))
        return position == GTK_INVALID_LIST_POSITION ? nil : Int(position)
    }

    /// The selected item rows' index paths, ascending. - Complexity: O(selected × sections).
    public var selectedIndexPaths: [IndexPath] {
        var result: [IndexPath] = []
        forEachSelected { position in
            if let path = indexPath(at: position) { result.append(path) }
        }
        return result
    }

    /// Selects the item at `indexPath` (adding to a multiple selection). - Complexity: O(sections).
    public func select(_ indexPath: IndexPath) {
        GTKMainContext.assertCurrent("GTKListView.select")
        gtk_selection_model_select_item(selectionModel, guint(position(of: indexPath)), selectionMode == .single ? 1 : 0)
    }

    /// Called after each bind with the model position's row widget (for tests measuring widget identity).
    func setBindObserver(_ observer: ((Cell, Bool, GtkWidgetPointer) -> Void)?) {
        binder.onBind = observer.map { observer in
            { row, widget in observer(content(of: row) as! Cell, row.pointee.kind == 1, widget) }
        }
    }

    /// Called after each bind with the row's cell, whether it is a header, and its widget.
    /// - Complexity: O(1).
    public func onBind(_ observer: ((Cell, _ isHeader: Bool, GtkWidgetPointer) -> Void)?) { setBindObserver(observer) }

    // MARK: ListView

    /// Replaces every row with the data source's (one signal). - Complexity: O(rows) plus the
    /// cell provider for each.
    public func reloadData() {
        GTKMainContext.assertCurrent("GTKListView.reloadData")
        guard let dataSource else { return }
        var made: [RowPointer] = []
        itemCounts = []
        headers = []
        for section in 0..<dataSource.numberOfSections() {
            let block = makeSection(section, of: dataSource)
            made.append(contentsOf: block)
        }
        withCArray(&made) { dfg_list_model_reset(rows, $0, $1) }
        refreshOutline()
    }

    /// Applies a batch: grouped signals (or one per step, ``emissionStrategy``), then in-place
    /// updates of reconfigured rows. `completion(true)` runs before it returns.
    /// - Complexity: grouped: O(rows + k log k) for the plan plus the cell provider for new rows,
    ///   and one signal per run of overlapping changes; per step: O(k · rows).
    public func performBatchUpdates(
        _ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void
    ) {
        GTKMainContext.assertCurrent("GTKListView.performBatchUpdates")
        guard let dataSource else {
            updates()
            return completion(false)
        }
        let oldCounts = itemCounts
        updates()
        let newCounts = (0..<dataSource.numberOfSections()).map(dataSource.numberOfItems(inSection:))
        switch emissionStrategy {
        case .grouped: applyGrouped(batch, oldCounts: oldCounts, newCounts: newCounts, dataSource: dataSource)
        case .perStep: applySteps(batch, oldCounts: oldCounts, newCounts: newCounts, dataSource: dataSource)
        }
        batchesPerformed += 1
        refreshOutline()
        if !batch.isRefreshOnly { lastEmissionsOfStructuralBatch = lastEmissions }
        completion(true)
    }

    // MARK: Building rows

    private func header(of section: Int, from dataSource: any ListViewDataSource<Cell>) -> RowPointer? {
        dataSource.supplementaryView(ofKind: "header", at: IndexPath(item: 0, section: section)).map { makeRow($0, header: true) }
    }

    /// Section `section` of the new state as new rows; appends its count and header flag.
    private func makeSection(_ section: Int, of dataSource: any ListViewDataSource<Cell>) -> [RowPointer] {
        var block: [RowPointer] = []
        let count = dataSource.numberOfItems(inSection: section)
        block.reserveCapacity(count + 1)
        if let header = header(of: section, from: dataSource) { block.append(header) }
        headers.append(!block.isEmpty)
        itemCounts.append(count)
        for item in 0..<count { block.append(makeRow(dataSource.cell(at: IndexPath(item: item, section: section)), header: false)) }
        return block
    }

    // MARK: Grouped signals

    func applyGrouped(
        _ batch: BatchUpdate, oldCounts: [Int], newCounts: [Int], dataSource: any ListViewDataSource<Cell>
    ) {
        if batch.operationCount == batch.reconfigureItems.count {
            // Reconfigures only: no signal.
            lastEmissions = []
            for path in batch.reconfigureItems { reconfigure(path, dataSource: dataSource) }
            return
        }
        var oldCount: guint = 0
        let oldRows = UnsafePointer(dfg_list_model_rows(rows, &oldCount)!)
        var selected: [Int] = []
        if selectionMode != .none { forEachSelected { selected.append($0) } }

        var plan = BatchRows(
            batch: batch, oldCounts: oldCounts, oldHeaders: headers, newCounts: newCounts,
            freshHeader: { header(of: $0, from: dataSource) },
            freshItem: { makeRow(dataSource.cell(at: $0), header: false) })
        if let rowIdentity {
            plan.reviveByIdentity(oldRows: oldRows) { row in rowIdentity(content(of: row) as! Cell, row.pointee.kind == 1) }
        }
        let oldHoles = RowHoles(plan.taken)
        let newHoles = RowHoles(plan.fills.map { $0.start..<($0.start + $0.count) })
        let emissions = EmissionPlanner.plan(
            oldCount: Int(oldCount), newCount: plan.newCount, oldHoles: oldHoles, newHoles: newHoles, moves: plan.moves,
            mergeSpan: signalMergeSpan)
        let selectedNow = selected.compactMap { plan.newPosition(ofOld: $0, oldHoles: oldHoles, newHoles: newHoles) }
        let next = plan.composeNewRows(oldRows: oldRows, oldCount: Int(oldCount), oldHoles: oldHoles)
        var released = plan.releasedRows(oldRows: oldRows)
        for revived in plan.revived { setContent(revived.content, of: revived.row) }
        headers = plan.newHeaders
        itemCounts = newCounts
        withCArray(&released) { gone, goneCount in dfg_list_model_begin(rows, next, guint(plan.newCount), gone, goneCount) }
        for emission in emissions {
            dfg_list_model_emit(
                rows, guint(emission.oldRange.lowerBound), guint(emission.oldRange.upperBound),
                guint(emission.newRange.lowerBound), guint(emission.newRange.upperBound))
        }
        dfg_list_model_end(rows)
        lastEmissions = emissions
        if !selected.isEmpty { restoreSelection(selectedNow) }
        for revived in plan.revived { binder.rebind(revived.row) }
        for path in batch.reconfigureItems { reconfigure(path, dataSource: dataSource) }
    }
    /// Calls `body` with each selected model position, ascending. - Complexity: O(selected).
    private func forEachSelected(_ body: (Int) -> Void) {
        let bitset = gtk_selection_model_get_selection(selectionModel)!
        defer { gtk_bitset_unref(bitset) }
        var iter = GtkBitsetIter()
        var value: guint = 0
        var more = gtk_bitset_iter_init_first(&iter, bitset, &value)
        while more != 0 {
            body(Int(value))
            more = gtk_bitset_iter_next(&iter, &value)
        }
    }

    /// Makes `positions` the selection when GTK's differs (GtkSingleSelection drops a row
    /// removed and added back in one signal; a reloaded row is a new object).
    /// - Complexity: O(selected) plus GTK's bitset work.
    private func restoreSelection(_ positions: [Int]) {
        var current: [Int] = []
        forEachSelected { current.append($0) }
        let wanted = positions.sorted()
        guard current != wanted else { return }
        if selectionMode == .single {
            if let first = wanted.first {
                gtk_selection_model_select_item(selectionModel, guint(first), 1)
            } else {
                gtk_selection_model_unselect_all(selectionModel)
            }
            return
        }
        let selected = gtk_bitset_new_empty()!
        for position in wanted { gtk_bitset_add(selected, guint(position)) }
        let mask = gtk_bitset_new_range(0, guint(rowCount))!
        gtk_selection_model_set_selection(selectionModel, selected, mask)
        gtk_bitset_unref(selected)
        gtk_bitset_unref(mask)
    }

    private func reconfigure(_ path: IndexPath, dataSource: any ListViewDataSource<Cell>) {
        guard let row = dfg_list_model_peek(rows, guint(position(of: path))) else { return }
        setContent(dataSource.cell(at: path), of: row)
        binder.rebind(row)
    }

    // MARK: One signal per step

    private func applySteps(
        _ batch: BatchUpdate, oldCounts: [Int], newCounts: [Int], dataSource: any ListViewDataSource<Cell>
    ) {
        let steps: [ListStep]
        do {
            steps = try batch.steps(oldCounts: batch.isRefreshOnly ? newCounts : oldCounts, newCounts: newCounts)
        } catch {
            preconditionFailure("DiffableGTK: the data source handed GTKListView an invalid batch: \(error)")
        }
        let before = emissionCount
        var emissions: [Emission] = []
        func splice(_ position: Int, _ removing: Int, _ adding: [RowPointer]) {
            var adding = adding
            withCArray(&adding) { dfg_list_model_splice(rows, guint(position), guint(removing), $0, $1) }
            emissions.append(Emission(oldRange: position..<(position + removing), newRange: position..<(position + adding.count)))
        }
        func sectionStart(_ section: Int) -> Int {
            (0..<section).reduce(0) { $0 + (headers[$1] ? 1 : 0) + itemCounts[$1] }
        }
        func blockSize(_ section: Int) -> Int { (headers[section] ? 1 : 0) + itemCounts[section] }
        func takeBlock(_ section: Int) -> [RowPointer] {
            let start = sectionStart(section)
            return (start..<(start + blockSize(section))).map { g_object_ref(raw(dfg_list_model_peek(rows, guint($0))!)); return dfg_list_model_peek(rows, guint($0))! }
        }
        func newBlock(_ section: Int) -> (rows: [RowPointer], header: Bool) {
            var block: [RowPointer] = []
            if let header = header(of: section, from: dataSource) { block.append(header) }
            let hasHeader = !block.isEmpty
            for item in 0..<newCounts[section] {
                block.append(makeRow(dataSource.cell(at: IndexPath(item: item, section: section)), header: false))
            }
            return (block, hasHeader)
        }
        for step in steps {
            switch step {
            case .deleteItem(let path):
                splice(position(of: path), 1, [])
                itemCounts[path.section] -= 1
            case .insertItem(let path):
                let row = makeRow(dataSource.cell(at: path), header: false)
                itemCounts[path.section] += 1
                splice(position(of: path), 0, [row])
            case .moveItem(let from, let to):
                let source = position(of: from)
                let row = dfg_list_model_peek(rows, guint(source))!
                g_object_ref(raw(row))
                splice(source, 1, [])
                itemCounts[from.section] -= 1
                itemCounts[to.section] += 1
                splice(position(of: to), 0, [row])
            case .reloadItem(let path):
                let selected = gtk_selection_model_is_selected(selectionModel, guint(position(of: path))) != 0
                splice(position(of: path), 1, [makeRow(dataSource.cell(at: path), header: false)])
                if selected { gtk_selection_model_select_item(selectionModel, guint(position(of: path)), 0) }
            case .reconfigureItem(let path):
                reconfigure(path, dataSource: dataSource)
            case .deleteSection(let section):
                splice(sectionStart(section), blockSize(section), [])
                headers.remove(at: section)
                itemCounts.remove(at: section)
            case .insertSection(let section):
                let block = newBlock(section)
                headers.insert(block.header, at: section)
                itemCounts.insert(newCounts[section], at: section)
                splice(sectionStart(section), 0, block.rows)
            case .moveSection(let from, let to):
                let block = takeBlock(from)
                splice(sectionStart(from), block.count, [])
                let header = headers.remove(at: from)
                let count = itemCounts.remove(at: from)
                headers.insert(header, at: to)
                itemCounts.insert(count, at: to)
                splice(sectionStart(to), 0, block)
            case .reloadSection(let section):
                let start = sectionStart(section)
                let size = blockSize(section)
                let block = newBlock(section)
                headers[section] = block.header
                itemCounts[section] = newCounts[section]
                splice(start, size, block.rows)
            }
        }
        precondition(itemCounts == newCounts, "DiffableGTK: the steps did not reach the new counts")
        precondition(emissionCount - before == emissions.count)
        lastEmissions = emissions
    }
}
