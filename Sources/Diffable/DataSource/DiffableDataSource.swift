import Foundation

/// Drives any ``ListView`` from snapshots: Apple's `UITableViewDiffableDataSource` /
/// `UICollectionViewDiffableDataSource`, without the view framework.
///
/// ```swift
/// let dataSource = DiffableDataSource<Section, Item, Cell>(view: listView) { indexPath, item in
///     Cell(item)
/// }
/// var snapshot = DiffableDataSourceSnapshot<Section, Item>()
/// snapshot.appendSections([.main])
/// snapshot.appendItems(items)
/// await dataSource.apply(snapshot)     // first apply: reloadData(); later ones: one valid batch
/// dataSource.apply(snapshot, completion: nil)   // the same from synchronous code; returns at once
/// ```
///
/// **What the view sees.** The view asks only UIKit's three questions (how many sections,
/// how many items in a section, the cell at an index path) and for supplementary views. The
/// data source answers from the state the view last committed; inside a batch's `updates`
/// closure it switches to the new state (docs/BATCH_UPDATE_RULES.md, B3). The first apply to a view that
/// never loaded is a `reloadData()`; later applies diff against what the view last committed
/// and hand it one structural batch plus, when needed, one refresh batch of reloads and
/// reconfigures, each valid by UIKit's rules. A snapshot equal to the current one, with no
/// pending reloads, performs no batch at all.
///
/// **Outline sections.** ``apply(_:to:animatingDifferences:completion:)`` shows a
/// ``DiffableDataSourceSectionSnapshot`` in one section (its visible items are the rows) and
/// leaves the others; ``snapshot(for:)`` returns it. The view reports the user's disclosure
/// taps (``toggleDisclosure(at:)``), which expand and collapse items through
/// ``sectionSnapshotHandlers``, and drags (``canMoveItem(at:)``, ``moveItem(at:to:)``), which
/// reorder through ``reorderingHandlers`` (see ``ListViewInteractionDelegate``).
///
/// **Threading.** `apply` may be called from any thread or task. Applies are serialized in
/// call order; the view is driven on one serial ``ViewExecutor`` (the main queue unless told
/// otherwise). An apply made on the executor while nothing is queued runs at once, as Apple's
/// main-queue apply does (the diff runs on the caller); an apply from elsewhere is diffed on
/// the calling thread (or, when queued behind others, on a background worker) and performed
/// on the executor. Completion handlers run once on the executor after the view finished, and
/// may call `apply` again. With ``QueuedApplyPolicy/coalesce`` applies queued behind a busy
/// view collapse into one batch to the state performing each would reach; every skipped
/// completion still runs. ``update(animatingDifferences:_:)`` changes the newest snapshot
/// (queued applies included) in one step no other apply can split. Queries (``snapshot()``, ``itemIdentifier(for:)``, …) may be called from any thread:
/// on the executor they take no lock (it alone writes what they read), elsewhere the data
/// source's lock for a moment.
///
/// **Errors.** Where Apple raises, Diffable reports a ``DiffableDiagnostics`` event and then
/// traps with a message naming the problem: a cell provider returning nil, an index path out of
/// range asked by the view, an apply made from inside a view update (Apple:
/// `BUG_IN_CLIENT_OF_DIFFABLE_DATA_SOURCE__APPLYING_SNAPSHOTS_REENTRANTLY…`), an identifier
/// repeated in a snapshot matched by `id` or across a section snapshot and the other sections.
/// docs/DATA_SOURCE.md lists every deliberate difference from Apple.
///
/// In the complexity notes *n* is the number of items, *s* the number of sections.
public final class DiffableDataSource<
    SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable, Cell
>: @unchecked Sendable {
    public typealias Snapshot = DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    /// Makes the cell for an item at an index path. Returning nil is a programming error (Apple raises).
    public typealias CellProvider = (IndexPath, ItemIdentifierType) -> Cell?
    /// Makes a supplementary view of a kind (e.g. `"header"`) for an index path, or nil for none.
    public typealias SupplementaryViewProvider = (String, IndexPath) -> Cell?
    typealias State = CommittedState<SectionIdentifierType, ItemIdentifierType>

    // Fixed at creation.
    let view: any ListView<Cell>
    /// The serial context the view is driven on (given at creation): every call into the view,
    /// every cell request and completion handler runs there, and the view must report the
    /// user's taps and drags (``ListViewInteractionDelegate``) there too. Code elsewhere (a
    /// test, a worker) that plays the user hops onto it first:
    ///
    /// ```swift
    /// dataSource.executor.runAndWait { view.userTappedDisclosure(at: IndexPath(item: 0, section: 0)) }
    /// await dataSource.waitForApplies()   // the apply the tap started has reached the view
    /// ```
    public let executor: ViewExecutor
    /// Makes the cell of the item at a slot of a storage: the cell provider, with the item's
    /// read and the nil check compiled where the data source is created (``makeCell(_:)``).
    @usableFromInline
    typealias CellMaker = (IndexPath, SnapshotStorage<SectionIdentifierType, ItemIdentifierType>, Int32) -> Cell
    /// The cell provider behind the item's read (``CellMaker``).
    let cells: CellMaker
    /// Whether the library keys the item identifiers itself (integers, `String`, `UUID`,
    /// `[UInt8]`): then their `==` and hashing cannot reach the data source, and
    /// `indexPath(for:)` may look them up in place. Asked once: the data source's code is not
    /// specialized for its types, so the check would run on every query.
    let itemsKeyedByLibrary = KeyStrategy.builtIn(ItemIdentifierType.self) != nil
    /// `indexPath(for:)`'s lookup in a storage, specialized for the library's identifier pairs.
    let indexPathLookup = SnapshotStorage<SectionIdentifierType, ItemIdentifierType>.indexPathLookup()
    /// Plans the batches; holds the apply queue and its own state beside `published` and
    /// `shown` (guarded as they are).
    let matcher: any ItemMatcher<SectionIdentifierType, ItemIdentifierType>

    // Shared between threads, guarded by `lock`. Never held while calling out (the view, the
    // providers, handlers, completions, an app's identifier type's `==` and `hash(into:)`);
    // `indexPath(for:)` runs only the standard library's and Foundation's under it.
    let lock = Lock()
    /// What ``snapshot()`` and the queries report: the state the view last committed. Written
    /// only on the executor, right after `shown` (``commit(_:matchState:matcher:)``): code on
    /// the executor reads `shown` instead, without the lock (`committedSnapshot()`).
    /// Unchecked, as `settings`: the lock makes every access exclusive, and the runtime's
    /// check of each (about 80 instructions) ran on every apply.
    @exclusivity(unchecked) var published: State
    @exclusivity(unchecked) var settings = Settings()

    // Confined to the executor (read and written only there, so never locked).
    /// The state the view's questions are answered from, and the executor's queries; equal to
    /// `published` outside a commit. Unchecked (no run-time exclusivity check): one context
    /// touches it, every access is a whole read or a whole assignment, and a checked read
    /// registered with the runtime on every `cell(at:)` and `indexPath(for:)` (about 70
    /// instructions each).
    @exclusivity(unchecked) var shown: State
    /// Whether the data source is inside a call to the view (reloadData, performBatchUpdates).
    /// Unchecked like `shown`, and as the next: whole reads and assignments on the executor.
    @exclusivity(unchecked) var insideViewUpdate = false
    /// Completion handlers whose view finished while the data source was inside a view call.
    @exclusivity(unchecked) var deferredCompletions: [@Sendable () -> Void] = []

    /// Options that may change at any time, read under `lock`.
    struct Settings {
        var defaultRowAnimation = RowAnimation.automatic
        var supplementaryViewProvider: SupplementaryViewProvider?
        var reorderingHandlers = ReorderingHandlers()
        var sectionSnapshotHandlers = SectionSnapshotHandlers()
        var queuedApplyPolicy = QueuedApplyPolicy.performEach
    }

    /// Creates a data source that matches items by identity (Apple's behaviour) and makes
    /// itself `view`'s data source.
    ///
    /// Create it where `view` may be touched (Apple: on the main queue): the initializer sets
    /// `view.dataSource`. Nothing is shown until the first apply.
    /// - Parameters:
    ///   - view: the view to drive; it holds the data source weakly.
    ///   - executor: where the view is driven (default: the main queue).
    ///   - cellProvider: called on the executor for every cell the view asks for.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(view: some ListView<Cell>, executor: ViewExecutor = .main, cellProvider: @escaping CellProvider) {
        self.init(view: view, executor: executor, cells: Self.makeCell(cellProvider))
    }

    /// ``init(view:executor:cellProvider:)`` with the cell provider wrapped.
    @usableFromInline
    init(view: some ListView<Cell>, executor: ViewExecutor, cells: @escaping CellMaker) {
        self.view = view
        self.executor = executor
        self.cells = cells
        matcher = IdentityMatcher()
        published = State()
        shown = published
        view.dataSource = self
    }

    /// Creates a data source that matches items by `id` (beyond Apple): an item whose `id`
    /// stays while its value changes keeps its cell, and the cell is reconfigured (or reloaded,
    /// per `updates`) instead of animating as a delete and an insert.
    ///
    /// Snapshots hold the values; two values with one `id` in a snapshot trap (with a report
    /// of every repeated `id` and its positions) when the data source diffs or loads that
    /// snapshot: on the thread that calls `apply`, or on a worker when the apply waited in the
    /// queue behind a busy view (a snapshot that a later one replaced in the queue included).
    ///
    /// Values that adopt ``KeyedByID`` cost least: their snapshots are keyed by their `id`s
    /// already, so matching keys no `id` again. Other values are keyed by their own
    /// `identifierKey` or their `hashValue` (every field hashed), and have their `id`s keyed
    /// once more on each apply.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(
        view: some ListView<Cell>, executor: ViewExecutor = .main, matchingItemsByID updates: ItemContentUpdate,
        cellProvider: @escaping CellProvider
    ) where ItemIdentifierType: Identifiable, ItemIdentifierType.ID: Sendable {
        // The values' `id` and `!=` made here, in the caller's module, where the item type is known.
        self.init(
            view: view, executor: executor, matchingItemsByID: updates, values: IdentifiableValues(), cells: Self.makeCell(cellProvider))
    }

    /// ``init(view:executor:matchingItemsByID:cellProvider:)`` with the values' operations made.
    @usableFromInline
    init(
        view: some ListView<Cell>, executor: ViewExecutor, matchingItemsByID updates: ItemContentUpdate,
        values: IdentifiableValues<ItemIdentifierType>, cells: @escaping CellMaker
    ) where ItemIdentifierType: Identifiable, ItemIdentifierType.ID: Sendable {
        self.view = view
        self.executor = executor
        self.cells = cells
        matcher = IdentifiableItemMatcher(updates: updates, values: values)
        published = State()
        shown = published
        view.dataSource = self
    }

    /// The animation of animated applies (UIKit's default: `.automatic`).
    /// - Complexity: O(1).
    public var defaultRowAnimation: RowAnimation {
        get { lock.withLock { settings.defaultRowAnimation } }
        set { lock.withLock { settings.defaultRowAnimation = newValue } }
    }

    /// Makes supplementary views (section headers, footers) when the view asks for them.
    /// - Complexity: O(1).
    public var supplementaryViewProvider: SupplementaryViewProvider? {
        get { lock.withLock { settings.supplementaryViewProvider } }
        set { lock.withLock { settings.supplementaryViewProvider = newValue } }
    }

    /// What happens to applies queued behind a busy view (default: each gets its own batch).
    /// - Complexity: O(1).
    public var queuedApplyPolicy: QueuedApplyPolicy {
        get { lock.withLock { settings.queuedApplyPolicy } }
        set { lock.withLock { settings.queuedApplyPolicy = newValue } }
    }
}

/// What a data source that matches items by `id` does with an item whose value changed.
public enum ItemContentUpdate: Sendable, Hashable {
    /// Update the existing cell in place (iOS 15's `reconfigureItems`; the default choice).
    case reconfigure
    /// Replace the cell (`reloadItems`).
    case reload
}

/// What happens to applies that arrive while earlier ones still wait for the view.
public enum QueuedApplyPolicy: Sendable, Hashable {
    /// Every apply gets its own batch, in call order (Apple's behaviour).
    case performEach
    /// Applies waiting behind a busy view collapse into one batch (Android's `AsyncListDiffer`
    /// does likewise) to exactly the state performing each would reach: their flat applies,
    /// outline applies and updates are made in call order, then diffed once. Every completion
    /// still runs, in call order, and refresh requests of skipped snapshots carry over to
    /// items still present.
    case coalesce
}
