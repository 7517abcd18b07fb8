import Diffable
import Foundation

/// A headless ``ListView`` with UIKit's strict batch checking: drive it with a
/// ``DiffableDataSource`` (or any ``ListViewDataSource``) and it asks the data source the three
/// questions, checks every batch against ``BatchValidator``'s rules with UIKit's exception texts,
/// replays it, and requires the cells it then shows to equal what the data source answers.
///
/// ```swift
/// let view = SimulatedListView<String>(policy: .record)
/// let dataSource = MyDataSource(view: view)     // sets view.dataSource
/// await dataSource.apply(snapshot)
/// #expect(view.violations.isEmpty)
/// #expect(view.mismatch(against: snapshot) == nil)
/// ```
///
/// A rejected batch either traps with UIKit's message (``ViolationPolicy/trap``, the default: UIKit
/// raises `NSInternalInconsistencyException`) or is recorded in ``violations`` and answered with a
/// reload (``ViolationPolicy/record``, for tests that assert on violations).
///
/// For tests of a data source it also records every call (``calls``), can hold completions back
/// until ``finishAnimations()`` (an animating view), can require one ``executor``, and, given a
/// ``sectionIdentityKind``, checks section identities across batches as it checks rows.
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

    /// One call a data source made to the view.
    public enum Call: Equatable {
        case reloadData
        /// An accepted batch and its animation.
        case batch(BatchUpdate, RowAnimation)
    }

    /// When the view reports a batch finished.
    public enum CompletionTiming: Sendable, Hashable {
        /// Inside `performBatchUpdates` (a view without animations).
        case immediate
        /// When ``SimulatedListView/finishAnimations()`` is called (an animating view finishes later).
        case deferred
    }

    /// Who the view asks; held weakly.
    public weak var dataSource: (any ListViewDataSource<Cell>)?
    /// Who the view tells about reorders and disclosure taps instead of ``dataSource`` (every
    /// data source is a ``ListViewInteractionDelegate``); held weakly. Nil: the data source is told.
    public weak var interactionDelegate: (any ListViewInteractionDelegate)?
    /// The rules every batch must pass.
    public let validator: BatchValidator
    /// What a rejected batch does.
    public var policy: ViolationPolicy
    /// Supplementary kinds (e.g. `"header"`) asked for every section after each reload and batch.
    public var supplementaryKinds: [String] = []
    /// A supplementary kind whose views name their section (a header showing the section
    /// identifier). When set, it is asked like ``supplementaryKinds`` and every section a batch
    /// keeps must answer the same view afterwards (V9), so a wrong section move is caught as a
    /// wrong item move is by the rows.
    public var sectionIdentityKind: String?
    /// When the view reports accepted batches finished (rejected ones complete at once).
    public var completionTiming = CompletionTiming.immediate
    /// Where the view may be used: when set, a call made elsewhere is a violation (T1; UIKit
    /// views are main-thread only). Nil: not checked.
    public var executor: ViewExecutor?

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
    /// Every ``reloadData()`` call and accepted batch, in order.
    public private(set) var calls: [Call] = []
    /// Rejected batches and other broken rules under ``ViolationPolicy/record``.
    public private(set) var violations: [Violation] = []
    private var insideBatch = false
    /// Completions of accepted batches held back until ``finishAnimations()``.
    private var unfinished: [(Bool) -> Void] = []
    /// Rows left with old content by the last structural batch; the next batch must refresh them.
    public private(set) var staleRows: [IndexPath] = []

    /// The animation of every accepted batch, in order.
    /// - Complexity: O(calls).
    public var animations: [RowAnimation] {
        calls.compactMap {
            guard case .batch(_, let animation) = $0 else { return nil }
            return animation
        }
    }

    /// Every accepted batch, in order.
    /// - Complexity: O(calls).
    public var performedBatches: [BatchUpdate] {
        calls.compactMap {
            guard case .batch(let batch, _) = $0 else { return nil }
            return batch
        }
    }

    /// A view with nothing loaded. - Complexity: O(1).
    public init(flavor: BatchValidator.Flavor = .collection, mode: BatchValidator.Mode = .strict, policy: ViolationPolicy = .trap) {
        validator = BatchValidator(flavor: flavor, mode: mode)
        self.policy = policy
    }

    /// Forgets what it showed and asks the data source everything (no data source: nothing shown).
    /// - Complexity: O(n + s) questions.
    public func reloadData() {
        requireExecutor("reloadData()")
        if insideBatch {
            report(Violation(rule: "B2", message: "reloadData() inside a batch's updates closure"))
            return
        }
        reloadCount += 1
        calls.append(.reloadData)
        isLoaded = true
        staleRows = []
        do {
            rows = try answers()
        } catch {
            rows = []
            report(error, reload: false)
        }
        askSupplementaryViews()
    }

    /// Captures the shown counts, calls `updates` once, asks the data source the new counts and
    /// cells, checks `batch` (docs/BATCH_UPDATE_RULES.md, V0–V9), shows the result and calls
    /// `completion(true)` (at once, or from ``finishAnimations()``). A rejected batch follows
    /// ``policy`` and completes with `false` at once. In ``BatchValidator/Mode/strict`` mode the
    /// data source must still answer the shown rows before `updates` runs (B3).
    /// - Complexity: O(n + s) questions plus O(n + s + k log k) checking, k the batch's operations.
    public func performBatchUpdates(
        _ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void
    ) {
        requireExecutor("performBatchUpdates")
        if insideBatch {
            updates()
            report(Violation(rule: "B2", message: "performBatchUpdates inside another batch's updates closure (batches must not nest)"))
            completion(false)
            return
        }
        let oldRows = rows, wasLoaded = isLoaded
        let oldIdentities = sectionIdentityKind.flatMap { supplementaryViews[$0] }
        let switchedEarly = wasLoaded && validator.mode == .strict && !answersShownState(identities: oldIdentities)
        insideBatch = true
        updates()
        insideBatch = false
        do throws(Violation) {
            guard wasLoaded else {
                throw Violation(rule: "B3", message: "batch update before the view loaded its data (reload first)")
            }
            guard !switchedEarly else {
                throw Violation(rule: "B3", message: "the data source answered its new state before the batch's updates closure ran")
            }
            let newRows = try answers()
            let newIdentities = sectionIdentityKind.map { supplementaryViews(ofKind: $0, sections: newRows.count) }
            let plan = try validator.plan(batch, oldCounts: oldRows.map(\.count), newCounts: newRows.map(\.count))
            func sectionMismatch(_ old: Int, _ new: Int) -> String? {
                guard let oldIdentities, let newIdentities, oldIdentities[old] != newIdentities[new] else { return nil }
                func show(_ view: Cell?) -> String { view.map { String(reflecting: $0) } ?? "nil" }
                return "section \(new) shows the \(sectionIdentityKind!) \(show(oldIdentities[old])) of old section \(old), "
                    + "but the data source answers \(show(newIdentities[new]))"
            }
            try checkStaleRowsRefreshed(by: batch)
            // A structural batch may leave changed values showing old content (the data source
            // refreshes them in the batch that follows); a refresh batch must leave none.
            let replay = try plan.replay(
                oldRows: oldRows, newRows: newRows, reloadsKeepRow: false, staleContent: !batch.isRefreshOnly,
                sectionMismatch: sectionMismatch)
            rows = replay.rows
            staleRows = replay.stalePaths
        } catch {
            report(error)
            completion(false)
            return
        }
        batchCount += 1
        calls.append(.batch(batch, animation))
        askSupplementaryViews()
        switch completionTiming {
        case .immediate: completion(true)
        case .deferred: unfinished.append(completion)
        }
    }

    /// Reports every batch held back by ``CompletionTiming/deferred`` finished, in order.
    /// - Complexity: O(batches held back) plus their completions.
    public func finishAnimations() {
        let finishing = unfinished
        unfinished = []
        for completion in finishing { completion(true) }
    }

    /// Whether the data source still answers the rows shown (apart from rows the last batch left
    /// stale, whose new content it already answers) and the section identities shown.
    /// Asks the same questions as ``answers()``, comparing each answer as it comes instead of
    /// keeping a second copy of every row.
    private func answersShownState(identities: [Cell?]?) -> Bool {
        guard let dataSource else { return rows.isEmpty }
        let sections = dataSource.numberOfSections()
        guard sections >= 0 else { return false }
        let stale = Set(staleRows.lazy.map { RowPath(section: $0.section, item: $0.item) })
        var same = sections == rows.count
        for section in 0..<sections {
            let items = dataSource.numberOfItems(inSection: section)
            guard items >= 0 else { return false }
            same = same && items == rows[section].count
            for item in 0..<items {
                let cell = dataSource.cell(at: IndexPath(item: item, section: section))
                same = same && (cell == rows[section][item] || stale.contains(RowPath(section: section, item: item)))
            }
        }
        guard same else { return false }
        guard let identities, let sectionIdentityKind else { return true }
        return supplementaryViews(ofKind: sectionIdentityKind, sections: rows.count) == identities
    }

    /// V9 for content: rows a structural batch left with old content must be reloaded or
    /// reconfigured by the very next batch, a refresh batch (what a data source's refresh batch
    /// does), itself or through a reload of their section.
    private func checkStaleRowsRefreshed(by batch: BatchUpdate) throws(Violation) {
        guard !staleRows.isEmpty else { return }
        let refreshed = batch.isRefreshOnly ? Set(batch.reloadItems + batch.reconfigureItems) : []
        let reloadedSections = batch.isRefreshOnly ? Set(batch.reloadSections) : []
        let left = staleRows.filter { !refreshed.contains($0) && !reloadedSections.contains($0.section) }
        staleRows = []
        if !left.isEmpty {
            throw Violation(
                rule: "V9",
                message: "cells that do not update: rows \(left.map { "(\($0.section), \($0.item))" }.joined(separator: ", ")) "
                    + "still show old content, and the next batch does not reload or reconfigure them")
        }
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
        guard dataSource != nil else {
            supplementaryViews = [:]
            return
        }
        for kind in supplementaryKinds + (sectionIdentityKind.map { [$0] } ?? []) {
            supplementaryViews[kind] = supplementaryViews(ofKind: kind, sections: rows.count)
        }
    }

    private func supplementaryViews(ofKind kind: String, sections: Int) -> [Cell?] {
        guard let dataSource else { return [] }
        return (0..<sections).map { dataSource.supplementaryView(ofKind: kind, at: IndexPath(item: 0, section: $0)) }
    }

    /// T1: the view is used on ``executor`` (when set).
    func requireExecutor(_ call: String) {
        guard let executor, !executor.isCurrent() else { return }
        report(Violation(rule: "T1", message: "\(call) called off the view's executor (UIKit views are main-thread only)"), reload: false)
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
            staleRows = []
            askSupplementaryViews()
        }
    }
}

@available(*, unavailable)
extension SimulatedListView: Sendable {}
