import DiffableTesting
import Foundation

@testable import Diffable

/// What the test view shows: a row's cell (the item it displays) or a section header.
enum TestCell<Section: Hashable & Sendable, Item: Hashable & Sendable>: Hashable, Sendable {
    case row(Item)
    case header(Section)
}

/// A data source driving the strict ``SimulatedListView`` on a private serial queue (the
/// headless executor), for the data-source tests.
///
/// The view learns everything through the data source's questions: rows from cells, section
/// identities from `"header"` supplementary views (``SimulatedListView/sectionIdentityKind``),
/// so it checks section moves as it checks item moves; a cell left stale by a missing refresh
/// shows in ``problem()`` as content other than the data source's. It records every broken rule (including
/// a call off the executor and a state switched before the updates closure) in `violations`,
/// where a real view would raise.
struct DataSourceHarness<Section: Hashable & Sendable, Item: Hashable & Sendable>: @unchecked Sendable {
    typealias Cell = TestCell<Section, Item>
    typealias View = SimulatedListView<Cell>
    typealias DataSource = DiffableDataSource<Section, Item, Cell>

    let queue: DispatchQueue
    let view: View
    let dataSource: DataSource

    /// - Parameter make: builds the data source for the view and executor (identity or `id` matching).
    init(flavor: BatchValidator.Flavor = .collection, make: (View, ViewExecutor) -> DataSource) {
        let queue = DispatchQueue(label: "view")
        let executor = ViewExecutor.queue(queue)
        let view = Self.makeView(flavor: flavor, executor: executor)
        let dataSource = make(view, executor)
        Self.provideHeaders(dataSource)
        self.queue = queue
        self.view = view
        self.dataSource = dataSource
    }

    /// A strict recording view that names sections by their `"header"` and must be used on `executor`.
    static func makeView(flavor: BatchValidator.Flavor = .collection, executor: ViewExecutor) -> View {
        let view = View(flavor: flavor, policy: .record)
        view.sectionIdentityKind = "header"
        view.executor = executor
        return view
    }

    /// Headers name their section, asked the Apple way: `sectionIdentifier(for:)`.
    static func provideHeaders(_ dataSource: DataSource) {
        dataSource.supplementaryViewProvider = { [weak dataSource] _, indexPath in
            dataSource?.sectionIdentifier(for: indexPath.section).map { .header($0) }
        }
    }

    /// Runs `body` with the view, on the view's queue.
    func onView<R>(_ body: (View) throws -> R) rethrows -> R { try queue.sync { try body(view) } }

    /// The items the view shows, section after section.
    func shownItems() -> [[Item]] { queue.sync { Self.items(view) } }

    /// A problem with what the view shows, or nil: a broken UIKit rule, or rows other than
    /// the data source's snapshot.
    func problem() -> String? { queue.sync(execute: problemOnView) }

    /// ``problem()`` for code already on the view's queue (a completion handler).
    func problemOnView() -> String? { Self.problem(view, showing: dataSource.snapshot()) }

    /// A problem with what `view` shows, or nil when it broke no rule and shows `expected`.
    static func problem(_ view: View, showing expected: DiffableDataSourceSnapshot<Section, Item>) -> String? {
        if let violation = view.violations.first { return "\(violation)" }
        let headers = (view.supplementaryViews["header"] ?? []).map { cell -> Section? in
            guard case .header(let section) = cell else { return nil }
            return section
        }
        let sections = headers.compactMap { $0 }
        guard view.isLoaded, sections.count == view.rows.count else {
            return "the view shows headers \(headers) for \(view.rows.count) sections"
        }
        let shown = DiffableDataSourceSnapshot<Section, Item>.build(sections, items(view))
        return shown == expected ? nil : "the view shows \(shown), the data source has \(expected)"
    }

    /// The items `view` shows (non-row cells are left out).
    static func items(_ view: View) -> [[Item]] {
        view.rows.map { section in
            section.compactMap {
                guard case .row(let item) = $0 else { return nil }
                return item
            }
        }
    }
}

extension DataSourceHarness {
    /// A harness whose data source matches items by identity (Apple's behaviour).
    init(flavor: BatchValidator.Flavor = .collection) {
        self.init(
            flavor: flavor, make: { view, executor in DiffableDataSource(view: view, executor: executor) { _, item in .row(item) } })
    }
}

extension DataSourceHarness where Item: Identifiable, Item.ID: Sendable {
    /// A harness whose data source matches items by `id`.
    init(matchingByID updates: ItemContentUpdate) {
        self.init { view, executor in
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
