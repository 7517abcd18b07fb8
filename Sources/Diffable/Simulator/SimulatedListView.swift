import Foundation

/// A headless ``ListView`` with UIKit's strict batch checking: drive it with a
/// ``DiffableDataSource`` (or any ``ListViewDataSource``) and it asks the data source the three
/// questions, checks every batch against ``BatchValidator``'s rules with UIKit's exception texts,
/// replays it, and requires the cells it then shows to equal what the data source answers.
///
/// ```swift
/// let view = SimulatedListView<String>(policy: .record)
/// let dataSource = MyDataSource(view: view)     // sets view.dataSource
/// dataSource.apply(snapshot)
/// #expect(view.violations.isEmpty)
/// #expect(view.mismatch(against: snapshot) == nil)
/// ```
///
/// A rejected batch either traps with UIKit's message (``ViolationPolicy/trap``, the default: UIKit
/// raises `NSInternalInconsistencyException`) or is recorded in ``violations`` and answered with a
/// reload (``ViolationPolicy/record``, for tests that assert on violations).
public final class SimulatedListView<Cell: Equatable>: ListView {
    /// What a rejected batch does.
    public enum ViolationPolicy: Sendable, Hashable {
        /// Stop the process with UIKit's exception text (what UIKit does).
        case trap
        /// Append the violation to ``SimulatedListView/violations``, reload from the data source,
        /// and complete with `false` (what UIKit did before iOS 16.4 for some batches).
        case record
    }
    public typealias Violation = BatchValidator.Violation

    /// Who the view asks; held weakly.
    public weak var dataSource: (any ListViewDataSource<Cell>)?
    /// Who the view tells about reorders and disclosure taps; held weakly.
    public weak var interactionDelegate: (any ListViewInteractionDelegate)?
    /// The rules every batch must pass.
    public let validator: BatchValidator
    /// What a rejected batch does.
    public var policy: ViolationPolicy
    /// Supplementary kinds (e.g. `"header"`) asked for every section after each reload and batch.
    public var supplementaryKinds: [String] = []

    /// The cells shown, section after section.
    public internal(set) var rows: [[Cell]] = []
    /// The supplementary views shown: kind → one per section (nil where the data source has none).
    public private(set) var supplementaryViews: [String: [Cell?]] = [:]
    /// Whether the view has loaded its data (UIKit's rule B3: no batch before that).
    public private(set) var isLoaded = false
    /// Batches accepted.
    public private(set) var batchCount = 0
    /// Calls of ``reloadData()``, plus reloads after a recorded violation.
    public private(set) var reloadCount = 0
    /// The animation of every accepted batch, in order.
    public private(set) var animations: [RowAnimation] = []
    /// Every accepted batch, in order.
    public private(set) var performedBatches: [BatchUpdate] = []
    /// Rejected batches under ``ViolationPolicy/record``.
    public private(set) var violations: [Violation] = []
    private var insideBatch = false

    /// A view with nothing loaded. - Complexity: O(1).
    public init(flavor: BatchValidator.Flavor = .collection, mode: BatchValidator.Mode = .strict, policy: ViolationPolicy = .trap) {
        validator = BatchValidator(flavor: flavor, mode: mode)
        self.policy = policy
    }

    /// Forgets what it showed and asks the data source everything (no data source: nothing shown).
    /// - Complexity: O(n + s) questions.
    public func reloadData() {
        if insideBatch {
            report(Violation(rule: "B2", message: "reloadData() inside a batch's updates closure"))
            return
        }
        reloadCount += 1
        isLoaded = true
        do {
            rows = try answers()
        } catch {
            rows = []
            report(error, reload: false)
        }
        askSupplementaryViews()
    }

    /// Captures the shown counts, calls `updates` once, asks the data source the new counts and
    /// cells, checks `batch` (BATCH_RULES.md, V0–V9), shows the result and calls
    /// `completion(true)`. A rejected batch follows ``policy`` and completes with `false`.
    /// - Complexity: O(n + s) questions plus O(n + s + k log k) checking, k the batch's operations.
    public func performBatchUpdates(
        _ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void
    ) {
        if insideBatch {
            updates()
            report(Violation(rule: "B2", message: "performBatchUpdates inside another batch's updates closure (batches must not nest)"))
            completion(false)
            return
        }
        let oldRows = rows, wasLoaded = isLoaded
        insideBatch = true
        updates()
        insideBatch = false
        do throws(Violation) {
            guard wasLoaded else {
                throw Violation(rule: "B3", message: "batch update before the view loaded its data (reload first)")
            }
            let newRows = try answers()
            let plan = try validator.plan(batch, oldCounts: oldRows.map(\.count), newCounts: newRows.map(\.count))
            rows = try plan.replay(oldRows: oldRows, newRows: newRows, reloadsKeepRow: false).rows
        } catch {
            report(error)
            completion(false)
            return
        }
        batchCount += 1
        animations.append(animation)
        performedBatches.append(batch)
        askSupplementaryViews()
        completion(true)
    }

    /// The data source's answers to the three questions, or V0 for a negative count.
    func answers() throws(Violation) -> [[Cell]] {
        guard let dataSource else { return [] }
        let sections = dataSource.numberOfSections()
        guard sections >= 0 else { throw Violation(rule: "V0", message: "the data source answered \(sections) sections") }
        return try (0..<sections).map { (section) throws(Violation) -> [Cell] in
            let items = dataSource.numberOfItems(inSection: section)
            guard items >= 0 else {
                throw Violation(rule: "V0", message: "the data source answered \(items) items in section \(section)")
            }
            return (0..<items).map { dataSource.cell(at: IndexPath(item: $0, section: section)) }
        }
    }

    private func askSupplementaryViews() {
        guard let dataSource else {
            supplementaryViews = [:]
            return
        }
        for kind in supplementaryKinds {
            supplementaryViews[kind] = rows.indices.map { dataSource.supplementaryView(ofKind: kind, at: IndexPath(item: 0, section: $0)) }
        }
    }

    /// Traps with UIKit's message, or records the violation and shows the data source's state.
    private func report(_ violation: Violation, reload: Bool = true) {
        switch policy {
        case .trap:
            fatalError("NSInternalInconsistencyException: \(violation.message) [\(violation.rule)]")
        case .record:
            violations.append(violation)
            guard reload, !insideBatch else { return }
            reloadCount += 1
            isLoaded = true
            rows = (try? answers()) ?? []
            askSupplementaryViews()
        }
    }
}

@available(*, unavailable)
extension SimulatedListView: Sendable {}
