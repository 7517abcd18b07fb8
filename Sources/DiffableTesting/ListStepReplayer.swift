import Diffable
import Foundation

/// A headless view that applies ``ListStep``s one at a time, as a GTK list store, an Android
/// `ListUpdateCallback` or a DOM list would, checking every index at the moment it is used.
///
/// It proves that a list of steps (``SnapshotDifference/steps``) is sound: every index valid
/// in the state the earlier steps left, every insert naming a position whose content the new
/// state has there, and the last step leaving exactly the new state.
///
/// ```swift
/// var view = ListStepReplayer(old)
/// try view.apply(new.difference(from: old).steps, reaching: new)   // throws an L1 Violation
/// assert(view.snapshot == new.withoutPendingUpdates())
/// ```
public struct ListStepReplayer<Section, Row> {
    public typealias Violation = BatchValidator.Violation

    /// The sections shown, in order.
    public private(set) var sections: [Section]
    /// The rows shown, section after section.
    public private(set) var rows: [[Row]]
    /// Rows that arrived fresh: inserted, or part of an inserted or reloaded section.
    public private(set) var insertedRows: [Row] = []
    /// Rows replaced by ``ListStep/reloadItem(_:)``.
    public private(set) var reloadedRows: [Row] = []
    /// Rows updated by ``ListStep/reconfigureItem(_:)``.
    public private(set) var reconfiguredRows: [Row] = []
    /// Sections replaced by ``ListStep/reloadSection(_:)``.
    public private(set) var reloadedSections: [Section] = []
    /// Steps applied so far.
    public private(set) var stepCount = 0

    /// A view showing `rows` in `sections` (`rows.count == sections.count`).
    /// - Complexity: O(1).
    public init(sections: [Section], rows: [[Row]]) {
        precondition(sections.count == rows.count, "ListStepReplayer: \(sections.count) sections but \(rows.count) row lists")
        self.sections = sections
        self.rows = rows
    }

    /// Applies `step`; inserts and reloads take their content from the new state:
    /// `newSection(i)` is section `i` of the new state with its rows, `newRow(path)` the row at
    /// `path` (nil: the new state has nothing there).
    /// - Throws: an L1 ``Violation`` naming the step and the index that is out of range; the view
    ///   is then unchanged.
    /// - Complexity: O(rows of the section it touches), or O(sections) for section steps.
    public mutating func apply(
        _ step: ListStep, newSection: (Int) -> (Section, [Row])?, newRow: (IndexPath) -> Row?
    ) throws(Violation) {
        let count = sections.count
        func fail(_ problem: String) -> Violation { Violation(rule: "L1", message: "step \(stepCount) \(step): \(problem)") }
        func sectionIndex(_ index: Int, upTo limit: Int) throws(Violation) {
            guard index >= 0, index < limit else { throw fail("section \(index) is out of range (\(count) sections)") }
        }
        func row(_ path: IndexPath, insertion: Bool = false) throws(Violation) {
            guard path.count == 2 else { throw fail("malformed index path: \(path.count) indices instead of 2") }
            try sectionIndex(path.section, upTo: count)
            let limit = rows[path.section].count + (insertion ? 1 : 0)
            guard path.item >= 0, path.item < limit else {
                throw fail("item \(path.item) is out of range (section \(path.section) has \(rows[path.section].count) rows)")
            }
        }
        func fresh(_ index: Int) throws(Violation) -> (Section, [Row]) {
            guard let content = newSection(index) else { throw fail("the new state has no section \(index)") }
            return content
        }
        func fresh(_ path: IndexPath) throws(Violation) -> Row {
            guard let content = newRow(path) else { throw fail("the new state has no row at \(path)") }
            return content
        }
        switch step {
        case .deleteSection(let index):
            try sectionIndex(index, upTo: count)
            sections.remove(at: index)
            rows.remove(at: index)
        case .insertSection(let index):
            try sectionIndex(index, upTo: count + 1)
            let (section, content) = try fresh(index)
            sections.insert(section, at: index)
            rows.insert(content, at: index)
            insertedRows += content
        case .moveSection(let from, let to):
            try sectionIndex(from, upTo: count)
            try sectionIndex(to, upTo: count)
            sections.insert(sections.remove(at: from), at: to)
            rows.insert(rows.remove(at: from), at: to)
        case .deleteItem(let path):
            try row(path)
            rows[path.section].remove(at: path.item)
        case .insertItem(let path):
            try row(path, insertion: true)
            let content = try fresh(path)
            rows[path.section].insert(content, at: path.item)
            insertedRows.append(content)
        case .moveItem(let from, let to):
            try row(from)
            let moving = rows[from.section].remove(at: from.item)
            do {
                try row(to, insertion: true)
            } catch {
                rows[from.section].insert(moving, at: from.item)
                throw error
            }
            rows[to.section].insert(moving, at: to.item)
        case .reloadSection(let index):
            try sectionIndex(index, upTo: count)
            let (section, content) = try fresh(index)
            sections[index] = section
            rows[index] = content
            reloadedSections.append(section)
            insertedRows += content
        case .reloadItem(let path):
            try row(path)
            rows[path.section][path.item] = try fresh(path)
            reloadedRows.append(rows[path.section][path.item])
        case .reconfigureItem(let path):
            try row(path)
            rows[path.section][path.item] = try fresh(path)
            reconfiguredRows.append(rows[path.section][path.item])
        }
        stepCount += 1
    }
}

extension ListStepReplayer where Section: Hashable, Row: Hashable {
    public typealias Snapshot = DiffableDataSourceSnapshot<Section, Row>

    /// A view showing `snapshot`. - Complexity: O(n + s).
    public init(_ snapshot: Snapshot) {
        let sections = snapshot.sectionIdentifiers
        self.init(sections: sections, rows: sections.map { snapshot.itemIdentifiers(inSection: $0) })
    }

    /// What the view shows. - Complexity: O(n + s).
    public var snapshot: Snapshot {
        var snapshot = Snapshot()
        snapshot.appendSections(sections)
        for (section, items) in zip(sections, rows) { snapshot.appendItems(items, toSection: section) }
        return snapshot
    }

    /// Applies `steps` in order, taking inserted content from `target`, then requires that the
    /// view shows `target` exactly.
    /// - Throws: the first L1 ``Violation`` (the steps before it stay applied), or V9 when the
    ///   last step leaves a state other than `target`.
    /// - Complexity: O(n + s) plus O(rows of the touched section) per step.
    public mutating func apply(_ steps: [ListStep], reaching target: Snapshot) throws(Violation) {
        let targetSections = target.sectionIdentifiers
        let targetRows = targetSections.map { target.itemIdentifiers(inSection: $0) }
        for step in steps {
            try apply(
                step,
                newSection: { targetSections.indices.contains($0) ? (targetSections[$0], targetRows[$0]) : nil },
                newRow: { path in
                    guard path.count == 2, targetRows.indices.contains(path.section) else { return nil }
                    return targetRows[path.section].indices.contains(path.item) ? targetRows[path.section][path.item] : nil
                })
        }
        if sections != targetSections || rows != targetRows {
            throw Violation(rule: "V9", message: "after \(steps.count) steps the view does not show the new snapshot")
        }
    }
}
