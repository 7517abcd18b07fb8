import Diffable
import Foundation

/// A ListView that keeps its rows in an array and logs every change it applies.
final class ArrayListView: ListView {
    weak var dataSource: (any ListViewDataSource<String>)?
    private(set) var rows: [[String]] = []
    private(set) var log: [String] = []

    func reloadData() {
        let sections = dataSource?.numberOfSections() ?? 0
        rows = (0..<sections).map(cells(inSection:))
        log.append("reloadData")
    }

    func performBatchUpdates(
        _ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void
    ) {
        let oldCounts = rows.map(\.count)
        updates()  // the data source now answers the new state
        guard let dataSource else { return completion(false) }
        let newCounts = (0..<dataSource.numberOfSections()).map(dataSource.numberOfItems(inSection:))
        let steps: [ListStep]
        do { steps = try BatchValidator().steps(for: batch, oldCounts: oldCounts, newCounts: newCounts) } catch {
            preconditionFailure("rejected batch: \(error)")
        }
        for step in steps {  // each index is valid in the rows as they are now
            switch step {
            case .deleteSection(let section): rows.remove(at: section)
            case .insertSection(let section): rows.insert(cells(inSection: section), at: section)
            case .moveSection(let from, let to): rows.insert(rows.remove(at: from), at: to)
            case .reloadSection(let section): rows[section] = cells(inSection: section)
            case .deleteItem(let path): rows[path.section].remove(at: path.item)
            case .insertItem(let path): rows[path.section].insert(dataSource.cell(at: path), at: path.item)
            case .moveItem(let from, let to):
                let row = rows[from.section].remove(at: from.item)
                rows[to.section].insert(row, at: to.item)
            case .reloadItem(let path), .reconfigureItem(let path): rows[path.section][path.item] = dataSource.cell(at: path)
            }
            log.append("\(step)")
        }
        completion(true)
    }

    /// The user dropped the row at `source` on `destination`; false when it may not move.
    /// Called on the executor that drives the view, as every call into it.
    func userDragged(from source: IndexPath, to destination: IndexPath) -> Bool {
        guard let dataSource, dataSource.canMoveItem(at: source) else { return false }
        let row = rows[source.section].remove(at: source.item)
        rows[destination.section].insert(row, at: destination.item)
        dataSource.moveItem(at: source, to: destination)  // no batch follows: the view shows it
        return true
    }

    /// The user tapped the disclosure control of the row at `indexPath` (on the view's executor).
    func userTappedDisclosure(at indexPath: IndexPath) { dataSource?.toggleDisclosure(at: indexPath) }

    private func cells(inSection section: Int) -> [String] {
        let count = dataSource?.numberOfItems(inSection: section) ?? 0
        return (0..<count).compactMap { dataSource?.cell(at: IndexPath(item: $0, section: section)) }
    }
}
