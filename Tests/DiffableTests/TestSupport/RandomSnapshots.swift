@testable import Diffable

/// Random snapshot pairs covering every kind of change: sections inserted, deleted
/// and moved, items moved within and across sections, inserted and deleted,
/// reloads and reconfigures, empty sections and non-ASCII identifiers.
enum RandomSnapshots {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>

    static func pair(
        _ g: inout SeededGenerator, maxSections: Int = 5, maxItems: Int = 8,
        sectionChanges: Bool = true
    ) -> (old: Snapshot, new: Snapshot) {
        var nextItem = 0, nextSection = 0
        func item() -> String {
            defer { nextItem += 1 }
            return Int.random(in: 0..<6, using: &g) == 0 ? "é\(nextItem)-ü" : "i\(nextItem)"
        }
        func sectionName() -> String {
            defer { nextSection += 1 }
            return "S\(nextSection)"
        }
        var old: [(String, [String])] = (0..<Int.random(in: 0...maxSections, using: &g)).map { _ in
            (sectionName(), (0..<Int.random(in: 0...maxItems, using: &g)).map { _ in item() })
        }
        var new = old
        if sectionChanges {
            new.removeAll { _ in Int.random(in: 0..<5, using: &g) == 0 }
            for _ in 0..<Int.random(in: 0...2, using: &g) {
                new.insert(
                    (sectionName(), (0..<Int.random(in: 0...3, using: &g)).map { _ in item() }),
                    at: Int.random(in: 0...new.count, using: &g))
            }
            if new.count > 1 && Bool.random(using: &g) {
                for _ in 0..<Int.random(in: 1...2, using: &g) {
                    let section = new.remove(at: Int.random(in: 0..<new.count, using: &g))
                    new.insert(section, at: Int.random(in: 0...new.count, using: &g))
                }
            }
        }
        // Items: delete some, move some (within and across sections), insert new ones.
        for s in new.indices { new[s].1.removeAll { _ in Int.random(in: 0..<6, using: &g) == 0 } }
        if !new.isEmpty {
            for _ in 0..<Int.random(in: 0...4, using: &g) {
                let from = Int.random(in: 0..<new.count, using: &g)
                guard !new[from].1.isEmpty else { continue }
                let moving = new[from].1.remove(at: Int.random(in: 0..<new[from].1.count, using: &g))
                let to = Int.random(in: 0..<new.count, using: &g)
                new[to].1.insert(moving, at: Int.random(in: 0...new[to].1.count, using: &g))
            }
            for _ in 0..<Int.random(in: 0...3, using: &g) {
                let to = Int.random(in: 0..<new.count, using: &g)
                new[to].1.insert(item(), at: Int.random(in: 0...new[to].1.count, using: &g))
            }
            if Int.random(in: 0..<8, using: &g) == 0 { new[Int.random(in: 0..<new.count, using: &g)].1.shuffle(using: &g) }
        }
        if Int.random(in: 0..<20, using: &g) == 0 { old = [] }
        var newSnapshot = build(new)
        let items = newSnapshot.itemIdentifiers
        if !items.isEmpty {
            newSnapshot.reloadItems(items.filter { _ in Int.random(in: 0..<8, using: &g) == 0 })
            newSnapshot.reconfigureItems(items.filter { _ in Int.random(in: 0..<8, using: &g) == 0 })
        }
        let sections = newSnapshot.sectionIdentifiers
        if !sections.isEmpty && Int.random(in: 0..<6, using: &g) == 0 {
            newSnapshot.reloadSections([sections[Int.random(in: 0..<sections.count, using: &g)]])
        }
        return (build(old), newSnapshot)
    }

    static func build(_ sections: [(String, [String])]) -> Snapshot {
        var snapshot = Snapshot()
        snapshot.appendSections(sections.map(\.0))
        for (section, items) in sections { snapshot.appendItems(items, toSection: section) }
        return snapshot
    }
}
