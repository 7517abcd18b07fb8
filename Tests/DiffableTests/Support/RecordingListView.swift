import Foundation

@testable import Diffable

/// What the recording view shows: a row's cell (the item it displays) or a section header.
enum TestCell<Section: Hashable & Sendable, Item: Hashable & Sendable>: Hashable, Sendable {
    case row(Item)
    case header(Section)
}

/// A headless ``ListView`` for the data-source tests, strict like UIKit.
///
/// It learns everything through the data source's questions (sections from `"header"`
/// supplementary views, rows from cells). `performBatchUpdates` checks that the data source
/// still reports the old state, calls `updates()` once, asks for the new state, and validates
/// the batch with ``ListViewSimulator`` (the strict UIKit rules) on the identities it now shows.
/// Every call is recorded; every broken rule is recorded in ``violations`` (a real view would
/// raise). The view must be touched only on its executor (`isOnExecutor`).
final class RecordingListView<Section: Hashable & Sendable, Item: Hashable & Sendable, ID: Hashable & Sendable>: ListView {
    typealias Cell = TestCell<Section, Item>

    enum Call: Equatable {
        case reloadData
        case batch(BatchUpdate, RowAnimation)
    }

    /// When the view reports a batch finished: inside `performBatchUpdates` (a headless view),
    /// or only when ``finishAnimations()`` is called (an animating view).
    enum CompletionTiming { case immediate, deferred }

    weak var dataSource: (any ListViewDataSource<Cell>)?
    var completionTiming = CompletionTiming.immediate
    private(set) var calls: [Call] = []
    private(set) var violations: [String] = []
    /// The sections and rows shown, as the data source's cells and headers made them.
    private(set) var headers: [Section] = []
    private(set) var rows: [[Item]] = []
    private(set) var simulator: ListViewSimulator<Section, ID>
    private var loaded = false
    private var unfinished: [(Bool) -> Void] = []
    private let identity: (Item) -> ID
    private let isOnExecutor: () -> Bool

    init(flavor: ListViewSimulator<Section, ID>.Flavor = .collection, identity: @escaping (Item) -> ID, isOnExecutor: @escaping () -> Bool)
    {
        simulator = ListViewSimulator(flavor: flavor)
        self.identity = identity
        self.isOnExecutor = isOnExecutor
    }

    /// The batches performed so far. - Complexity: O(calls).
    var batches: [BatchUpdate] {
        calls.compactMap {
            if case .batch(let batch, _) = $0 { return batch }
            return nil
        }
    }

    /// What the view shows, keyed by identity (as the simulator sees it).
    var shownIdentities: DiffableDataSourceSnapshot<Section, ID> { .build(headers, rows.map { $0.map(identity) }) }

    func reloadData() {
        check("reloadData()")
        calls.append(.reloadData)
        guard let state = ask() else { return }
        (headers, rows) = state
        simulator.reloadData(shownIdentities)
        loaded = true
    }

    func performBatchUpdates(_ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void) {
        check("performBatchUpdates")
        calls.append(.batch(batch, animation))
        if !loaded { violations.append("B3: batch update before the view loaded its data") }
        // B3: until `updates` runs the data source must still describe what the view shows.
        if let before = ask(), before.headers != headers || before.rows != rows {
            violations.append("B3: the data source switched state before the updates closure ran")
        }
        updates()
        if let after = ask() {
            do {
                try simulator.performBatchUpdates(batch, dataSourceAfter: .build(after.headers, after.rows.map { $0.map(identity) }))
            } catch {
                violations.append("\(error) in \(batch)")
            }
            (headers, rows) = after
        }
        switch completionTiming {
        case .immediate: completion(true)
        case .deferred: unfinished.append(completion)
        }
    }

    /// Reports every deferred batch finished, in order.
    func finishAnimations() {
        let finishing = unfinished
        unfinished = []
        for completion in finishing { completion(true) }
    }

    /// Plays the user dragging the row at `source` to `destination` (UIKit's interactive move):
    /// the view moves the row itself, then tells the data source. Returns false when the data
    /// source does not allow dragging that row.
    @discardableResult
    func simulateReorder(from source: IndexPath, to destination: IndexPath) -> Bool {
        check("simulateReorder")
        guard let dataSource, dataSource.canMoveItem(at: source) else { return false }
        let item = rows[source.section].remove(at: source.item)
        rows[destination.section].insert(item, at: destination.item)
        simulator.reloadData(shownIdentities)
        dataSource.moveItem(at: source, to: destination)
        return true
    }

    /// Asks the data source for everything it would show.
    private func ask() -> (headers: [Section], rows: [[Item]])? {
        guard let dataSource else {
            violations.append("the view has no data source")
            return nil
        }
        var headers: [Section] = [], rows: [[Item]] = []
        for section in 0..<dataSource.numberOfSections() {
            guard case .header(let header) = dataSource.supplementaryView(ofKind: "header", at: IndexPath(item: 0, section: section))
            else {
                violations.append("section \(section) has no header")
                return nil
            }
            headers.append(header)
            rows.append(
                (0..<dataSource.numberOfItems(inSection: section)).compactMap { item in
                    guard case .row(let value) = dataSource.cell(at: IndexPath(item: item, section: section)) else { return nil }
                    return value
                })
        }
        return (headers, rows)
    }

    private func check(_ call: String) {
        if !isOnExecutor() { violations.append("\(call) called off the view executor") }
    }

}

/// A data source driving a ``RecordingListView`` on a private serial queue (the headless executor).
struct DataSourceHarness<Section: Hashable & Sendable, Item: Hashable & Sendable, ID: Hashable & Sendable>: @unchecked Sendable {
    typealias View = RecordingListView<Section, Item, ID>
    typealias DataSource = DiffableDataSource<Section, Item, TestCell<Section, Item>>

    let queue: DispatchQueue
    let view: View
    let dataSource: DataSource
    private let identity: (Item) -> ID

    /// - Parameter make: builds the data source for the view and executor (identity or `id` matching).
    init(
        flavor: ListViewSimulator<Section, ID>.Flavor = .collection, identity: @escaping (Item) -> ID,
        make: (View, ViewExecutor) -> DataSource
    ) {
        let queue = DispatchQueue(label: "view")
        let executor = ViewExecutor.queue(queue)
        let view = View(flavor: flavor, identity: identity, isOnExecutor: executor.isCurrent)
        let dataSource = make(view, executor)
        // Headers name their section, asked the Apple way: sectionIdentifier(for:).
        dataSource.supplementaryViewProvider = { [weak dataSource] _, indexPath in
            dataSource?.sectionIdentifier(for: indexPath.section).map { .header($0) }
        }
        self.queue = queue
        self.view = view
        self.dataSource = dataSource
        self.identity = identity
    }

    /// Runs `body` with the view, on the view's queue.
    func onView<R>(_ body: (View) -> R) -> R { queue.sync { body(view) } }

    /// A problem with what the view shows, or nil: a broken UIKit rule, or rows other than
    /// the data source's snapshot.
    func problem() -> String? { queue.sync(execute: problemOnView) }

    /// ``problem()`` for code already on the view's queue (a completion handler).
    func problemOnView() -> String? {
        if let violation = view.violations.first { return violation }
        let expected = dataSource.snapshot()
        let shown = DiffableDataSourceSnapshot<Section, Item>.build(view.headers, view.rows)
        return shown == expected ? nil : "the view shows \(shown), the data source has \(expected)"
    }
}

extension DataSourceHarness where ID == Item {
    /// A harness whose data source matches items by identity (Apple's behaviour).
    init(flavor: ListViewSimulator<Section, ID>.Flavor = .collection) {
        self.init(
            flavor: flavor, identity: { $0 },
            make: { view, executor in DiffableDataSource(view: view, executor: executor) { _, item in .row(item) } })
    }
}

extension DataSourceHarness where Item: Identifiable, ID == Item.ID, Item.ID: Sendable {
    /// A harness whose data source matches items by `id`.
    init(matchingByID updates: ItemContentUpdate) {
        self.init(identity: \.id) { view, executor in
            DiffableDataSource(view: view, executor: executor, matchingItemsByID: updates) { _, item in .row(item) }
        }
    }
}

extension DiffableDataSourceSnapshot {
    /// A snapshot of the given sections and items. Traps on duplicates (test data).
    static func build(_ sections: [SectionIdentifierType], _ items: [[ItemIdentifierType]]) -> Self {
        var snapshot = Self()
        snapshot.appendSections(sections)
        for (section, sectionItems) in zip(sections, items) { snapshot.appendItems(sectionItems, toSection: section) }
        return snapshot
    }
}
