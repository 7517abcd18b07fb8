@testable import Diffable

/// The naive tree model of a section snapshot: root nodes, each with an array of
/// children, and every query answered by walking the tree. Mutations mirror the
/// API and say which problems the API must report (in its documented order); an
/// operation with problems leaves the model unchanged.
struct OutlineModel<Item: Hashable>: Equatable {
    typealias Problem = SectionSnapshotError.Problem

    struct Node: Equatable {
        var item: Item
        var isExpanded = false
        var children: [Node] = []

        /// The node and its descendants, depth-first.
        var allItems: [Item] {
            var result: [Item] = []
            collect(into: &result)
            return result
        }

        func collect(into result: inout [Item]) {
            result.append(item)
            for child in children { child.collect(into: &result) }
        }
    }

    /// One item of the outline in depth-first order, with what the queries answer.
    struct Row {
        var item: Item
        var level: Int
        var parent: Item?
        var isExpanded: Bool
        var isVisible: Bool
    }

    var roots: [Node] = []

    // MARK: Queries

    var rows: [Row] {
        var result: [Row] = []
        func walk(_ nodes: [Node], level: Int, parent: Item?, visible: Bool) {
            for node in nodes {
                result.append(Row(item: node.item, level: level, parent: parent, isExpanded: node.isExpanded, isVisible: visible))
                walk(node.children, level: level + 1, parent: node.item, visible: visible && node.isExpanded)
            }
        }
        walk(roots, level: 0, parent: nil, visible: true)
        return result
    }

    var items: [Item] {
        var result: [Item] = []
        for root in roots { root.collect(into: &result) }
        return result
    }
    var rootItems: [Item] { roots.map(\.item) }
    var visibleItems: [Item] { rows.filter(\.isVisible).map(\.item) }
    var expandedItems: [Item] { rows.filter(\.isExpanded).map(\.item) }
    func contains(_ item: Item) -> Bool { items.contains(item) }

    /// Child indices from the roots down to `item`.
    func path(of item: Item) -> [Int]? {
        var path: [Int] = []
        func search(_ nodes: [Node]) -> Bool {
            for (index, node) in nodes.enumerated() {
                path.append(index)
                if node.item == item || search(node.children) { return true }
                path.removeLast()
            }
            return false
        }
        return search(roots) ? path : nil
    }

    func node(at path: [Int]) -> Node {
        var node = roots[path[0]]
        for index in path.dropFirst() { node = node.children[index] }
        return node
    }

    /// The children array that holds the node at `path` (the roots for a one-element path).
    private mutating func withSiblings<R>(of path: [Int], _ body: (inout [Node]) -> R) -> R {
        func descend(_ nodes: inout [Node], _ rest: ArraySlice<Int>) -> R {
            if rest.count == 1 { return body(&nodes) }
            return descend(&nodes[rest.first!].children, rest.dropFirst())
        }
        return descend(&roots, path[...])
    }

    /// The children of `parent` (the roots when nil).
    private mutating func withChildren<R>(of parent: Item?, _ body: (inout [Node]) -> R) -> R {
        guard let parent else { return body(&roots) }
        let path = path(of: parent)!
        return withSiblings(of: path) { body(&$0[path.last!].children) }
    }

    // MARK: Mutations

    /// `append(_:to:)` of new items, or of subtrees (`nodes`).
    mutating func append(_ nodes: [Node], to parent: Item?) -> [Problem] {
        let problems =
            (parent.map { contains($0) ? [] : [Problem.notInSnapshot(String(reflecting: $0))] } ?? [])
            + additionProblems(nodes.flatMap(\.allItems), anchor: parent)
        if problems.isEmpty { withChildren(of: parent) { $0 += nodes } }
        return problems
    }

    /// `insert(_:before:)` / `insert(_:after:)` of new items or subtrees.
    mutating func insert(_ nodes: [Node], next anchor: Item, after: Bool) -> [Problem] {
        let anchorPath = path(of: anchor)
        let problems =
            (anchorPath == nil ? [Problem.notInSnapshot(String(reflecting: anchor))] : [])
            + additionProblems(nodes.flatMap(\.allItems), anchor: anchor)
        if problems.isEmpty, let anchorPath {
            withSiblings(of: anchorPath) { $0.insert(contentsOf: nodes, at: anchorPath.last! + (after ? 1 : 0)) }
        }
        return problems
    }

    private func additionProblems(_ items: [Item], anchor: Item?) -> [Problem] {
        var problems: [Problem] = []
        if let anchor, items.contains(anchor) { problems.append(.anchorIsInserted(String(reflecting: anchor))) }
        var seen: [Item] = []
        for item in items where !seen.contains(item) {
            seen.append(item)
            let positions = items.indices.filter { items[$0] == item }
            if positions.count > 1 { problems.append(.duplicate(String(reflecting: item), positions: positions)) }
        }
        for item in seen where item != anchor && contains(item) { problems.append(.alreadyInSnapshot(String(reflecting: item))) }
        return problems
    }

    mutating func delete(_ items: [Item]) {
        func prune(_ nodes: [Node]) -> [Node] {
            nodes.filter { !items.contains($0.item) }.map { Node(item: $0.item, isExpanded: $0.isExpanded, children: prune($0.children)) }
        }
        roots = prune(roots)
    }

    mutating func setExpanded(_ items: [Item], _ value: Bool) {
        func visit(_ nodes: inout [Node]) {
            for index in nodes.indices {
                if items.contains(nodes[index].item) { nodes[index].isExpanded = value }
                visit(&nodes[index].children)
            }
        }
        visit(&roots)
    }

    /// `snapshot(of:includingParent:)`; nil when `parent` is missing.
    func subtree(of parent: Item, includingParent: Bool) -> [Node]? {
        guard let path = path(of: parent) else { return nil }
        let node = node(at: path)
        return includingParent ? [node] : node.children
    }

    /// `replace(childrenOf:using:)`: kept descendants stay expanded.
    mutating func replaceChildren(of parent: Item, with nodes: [Node]) -> [Problem] {
        guard let parentPath = path(of: parent) else {
            let inserted = nodes.flatMap(\.allItems)
            return [.notInSnapshot(String(reflecting: parent))]
                + (inserted.contains(parent) ? [.anchorIsInserted(String(reflecting: parent))] : [])
        }
        let old = node(at: parentPath)
        let oldDescendants = old.children.flatMap(\.allItems)
        let wasExpanded = Set(OutlineModel(roots: old.children).expandedItems)
        var problems: [Problem] = []
        let inserted = nodes.flatMap(\.allItems)
        if inserted.contains(parent) { problems.append(.anchorIsInserted(String(reflecting: parent))) }
        for item in inserted where item != parent && contains(item) && !oldDescendants.contains(item) {
            problems.append(.alreadyInSnapshot(String(reflecting: item)))
        }
        guard problems.isEmpty else { return problems }
        func merge(_ nodes: [Node]) -> [Node] {
            nodes.map { Node(item: $0.item, isExpanded: $0.isExpanded || wasExpanded.contains($0.item), children: merge($0.children)) }
        }
        withChildren(of: parent) { $0 = merge(nodes) }
        return []
    }

    // MARK: Conversions

    /// The same outline built through the API in pre-order (appends at the end only).
    func makeSnapshot() -> DiffableDataSourceSectionSnapshot<Item> {
        var snapshot = DiffableDataSourceSectionSnapshot<Item>()
        func add(_ nodes: [Node], to parent: Item?) {
            for node in nodes {
                snapshot.append([node.item], to: parent)
                if node.isExpanded { snapshot.expand([node.item]) }
                add(node.children, to: node.item)
            }
        }
        add(roots, to: nil)
        return snapshot
    }

    /// `(item, parent, isExpanded)` entries, children before parents (siblings keep their order).
    var entriesChildrenFirst: [(item: Item, parent: Item?, isExpanded: Bool)] {
        let rows = rows
        let deepest = rows.map(\.level).max() ?? 0
        return stride(from: deepest, through: 0, by: -1).flatMap { level in
            rows.filter { $0.level == level }.map { ($0.item, $0.parent, $0.isExpanded) }
        }
    }
}
