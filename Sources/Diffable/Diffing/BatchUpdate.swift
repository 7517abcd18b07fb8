import Foundation

/// One `performBatchUpdates` worth of operations, in UIKit's index spaces:
/// deletes, section reloads and move sources address the state *before* the
/// batch; inserts and move targets the state *after* it. A refresh batch (only
/// reloads and reconfigures) has nothing else, so both spaces coincide.
///
/// Every list is ascending; moves are ordered by destination. Encodes to the
/// fixture format (FIXTURES.md): index paths as `[section, item]`, moves as `[from, to]`.
public struct BatchUpdate: Equatable, Hashable, Sendable, Codable {
    /// A section move: old index → new index.
    public struct SectionMove: Equatable, Hashable, Sendable, Codable, CustomStringConvertible {
        public var from: Int
        public var to: Int
        /// - Complexity: O(1).
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
        /// - Complexity: O(size of the decoded value).
        public init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            from = try container.decode(Int.self)
            to = try container.decode(Int.self)
        }
        /// - Complexity: O(size of the encoded value).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(from)
            try container.encode(to)
        }
        public var description: String { "\(from)→\(to)" }
    }

    /// An item move: old index path → new index path.
    public struct ItemMove: Equatable, Hashable, Sendable, Codable, CustomStringConvertible {
        public var from: IndexPath
        public var to: IndexPath
        /// - Complexity: O(1).
        public init(from: IndexPath, to: IndexPath) {
            self.from = from
            self.to = to
        }
        /// - Complexity: O(size of the decoded value).
        public init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            from = try container.decode(PathCoding.self).path
            to = try container.decode(PathCoding.self).path
        }
        /// - Complexity: O(size of the encoded value).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(PathCoding(from))
            try container.encode(PathCoding(to))
        }
        public var description: String { "\(BatchUpdate.show(from))→\(BatchUpdate.show(to))" }
    }

    /// The nine lists, in one object: copying a batch (a `for` loop over ``SnapshotDifference/batches``,
    /// ``SnapshotDifference/structuralBatch``) retains one reference instead of nine. Writes
    /// copy the object first when another batch shares it.
    ///
    /// `@unchecked Sendable`, and fields without the runtime's exclusivity checks (two calls
    /// on every read of a class's field, a tenth of what reading a small diff's lists cost):
    /// fields are written only through ``writableLists``, on an object no other batch holds,
    /// so no read or other write of the same object can overlap a write.
    final class Lists: @unchecked Sendable {
        @exclusivity(unchecked) var deleteSections: [Int]
        @exclusivity(unchecked) var insertSections: [Int]
        @exclusivity(unchecked) var moveSections: [SectionMove]
        @exclusivity(unchecked) var reloadSections: [Int]
        // Item lists made by a diff stay packed (8 bytes a path) until read; see PackedIndexPaths.
        @exclusivity(unchecked) var deleteItems: ItemPathList
        @exclusivity(unchecked) var insertItems: ItemPathList
        @exclusivity(unchecked) var moveItems: ItemMoveList
        @exclusivity(unchecked) var reloadItems: ItemPathList
        @exclusivity(unchecked) var reconfigureItems: ItemPathList

        /// - Complexity: O(1).
        init(
            deleteSections: [Int], insertSections: [Int], moveSections: [SectionMove], reloadSections: [Int],
            deleteItems: ItemPathList, insertItems: ItemPathList, moveItems: ItemMoveList, reloadItems: ItemPathList,
            reconfigureItems: ItemPathList
        ) {
            (self.deleteSections, self.insertSections, self.moveSections, self.reloadSections) = (
                deleteSections, insertSections, moveSections, reloadSections
            )
            (self.deleteItems, self.insertItems, self.moveItems, self.reloadItems, self.reconfigureItems) = (
                deleteItems, insertItems, moveItems, reloadItems, reconfigureItems
            )
        }

        /// A copy sharing the lists themselves (arrays are copied on write).
        /// - Complexity: O(1).
        func copy() -> Lists {
            Lists(
                deleteSections: deleteSections, insertSections: insertSections, moveSections: moveSections,
                reloadSections: reloadSections, deleteItems: deleteItems, insertItems: insertItems, moveItems: moveItems,
                reloadItems: reloadItems, reconfigureItems: reconfigureItems)
        }
    }

    private var lists: Lists

    /// The lists, made this batch's own before a write.
    /// - Complexity: O(1).
    private var writableLists: Lists {
        mutating get {
            if !isKnownUniquelyReferenced(&lists) { lists = lists.copy() }
            return lists
        }
    }

    // The section lists; `_modify` (a setter is made from it) appends in place, as to a stored array.
    // - Complexity: O(1) each.
    public var deleteSections: [Int] {
        get { lists.deleteSections }
        _modify { yield &writableLists.deleteSections }
    }
    public var insertSections: [Int] {
        get { lists.insertSections }
        _modify { yield &writableLists.insertSections }
    }
    public var moveSections: [SectionMove] {
        get { lists.moveSections }
        _modify { yield &writableLists.moveSections }
    }
    public var reloadSections: [Int] {
        get { lists.reloadSections }
        _modify { yield &writableLists.reloadSections }
    }

    // The item lists as the diff left them (packed or not); written through the public lists.
    var deleteItemList: ItemPathList { lists.deleteItems }
    var insertItemList: ItemPathList { lists.insertItems }
    var moveItemList: ItemMoveList { lists.moveItems }
    var reloadItemList: ItemPathList { lists.reloadItems }
    var reconfigureItemList: ItemPathList { lists.reconfigureItems }

    /// - Complexity: O(1), or O(count) on the first read of a list a diff made (on every read
    ///   of one of up to 32 paths, which is not kept).
    public var deleteItems: [IndexPath] {
        get { deleteItemList.indexPaths }
        set { writableLists.deleteItems = .indexPaths(newValue) }
    }
    /// - Complexity: O(1), or O(count) on the first read of a list a diff made (on every read
    ///   of one of up to 32 paths, which is not kept).
    public var insertItems: [IndexPath] {
        get { insertItemList.indexPaths }
        set { writableLists.insertItems = .indexPaths(newValue) }
    }
    /// - Complexity: O(1), or O(count) on the first read of a list a diff made (on every read
    ///   of one of up to 32 paths, which is not kept).
    public var moveItems: [ItemMove] {
        get { moveItemList.moves }
        set { writableLists.moveItems = .moves(newValue) }
    }
    /// - Complexity: O(1), or O(count) on the first read of a list a diff made (on every read
    ///   of one of up to 32 paths, which is not kept).
    public var reloadItems: [IndexPath] {
        get { reloadItemList.indexPaths }
        set { writableLists.reloadItems = .indexPaths(newValue) }
    }
    /// - Complexity: O(1), or O(count) on the first read of a list a diff made (on every read
    ///   of one of up to 32 paths, which is not kept).
    public var reconfigureItems: [IndexPath] {
        get { reconfigureItemList.indexPaths }
        set { writableLists.reconfigureItems = .indexPaths(newValue) }
    }

    /// - Complexity: O(operations passed).
    public init(
        deleteSections: [Int] = [], insertSections: [Int] = [], moveSections: [SectionMove] = [],
        reloadSections: [Int] = [], deleteItems: [IndexPath] = [], insertItems: [IndexPath] = [],
        moveItems: [ItemMove] = [], reloadItems: [IndexPath] = [], reconfigureItems: [IndexPath] = []
    ) {
        self.init(
            deleteSections: deleteSections, insertSections: insertSections, moveSections: moveSections,
            reloadSections: reloadSections, deleteItems: .indexPaths(deleteItems), insertItems: .indexPaths(insertItems),
            moveItems: .moves(moveItems), reloadItems: .indexPaths(reloadItems), reconfigureItems: .indexPaths(reconfigureItems))
    }

    /// A batch whose item lists are ranges of a diff's packed paths (section lists as given).
    /// - Complexity: O(operations in the section lists).
    init(
        deleteSections: [Int], insertSections: [Int], moveSections: [SectionMove], reloadSections: [Int],
        deleteItems: ItemPathList, insertItems: ItemPathList, moveItems: ItemMoveList, reloadItems: ItemPathList,
        reconfigureItems: ItemPathList
    ) {
        lists = Lists(
            deleteSections: deleteSections, insertSections: insertSections, moveSections: moveSections,
            reloadSections: reloadSections, deleteItems: deleteItems, insertItems: insertItems, moveItems: moveItems,
            reloadItems: reloadItems, reconfigureItems: reconfigureItems)
    }

    /// Whether the batch has no operation at all.
    /// - Complexity: O(1).
    public var isEmpty: Bool { operationCount == 0 }

    /// Total number of operations. - Complexity: O(1).
    public var operationCount: Int {
        deleteSections.count + insertSections.count + moveSections.count + reloadSections.count + deleteItemList.count
            + insertItemList.count + moveItemList.count + reloadItemList.count + reconfigureItemList.count
    }

    /// Whether the batch only refreshes content (reloads and reconfigures).
    /// - Complexity: O(1).
    public var isRefreshOnly: Bool {
        deleteSections.isEmpty && insertSections.isEmpty && moveSections.isEmpty && deleteItemList.count == 0
            && insertItemList.count == 0 && moveItemList.count == 0
    }

    /// Equal operation lists, in order. Lists a diff made compare without becoming `IndexPath`s.
    /// - Complexity: O(operations).
    public static func == (lhs: BatchUpdate, rhs: BatchUpdate) -> Bool {
        lhs.deleteSections == rhs.deleteSections && lhs.insertSections == rhs.insertSections
            && lhs.moveSections == rhs.moveSections && lhs.reloadSections == rhs.reloadSections
            && ItemPathList.same(lhs.deleteItemList, rhs.deleteItemList)
            && ItemPathList.same(lhs.insertItemList, rhs.insertItemList)
            && ItemMoveList.same(lhs.moveItemList, rhs.moveItemList)
            && ItemPathList.same(lhs.reloadItemList, rhs.reloadItemList)
            && ItemPathList.same(lhs.reconfigureItemList, rhs.reconfigureItemList)
    }

    /// Hashes every operation list (item lists as `IndexPath`s, so equal batches hash alike
    /// however they were made).
    /// - Complexity: O(operations).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(deleteSections)
        hasher.combine(insertSections)
        hasher.combine(moveSections)
        hasher.combine(reloadSections)
        hasher.combine(deleteItems)
        hasher.combine(insertItems)
        hasher.combine(moveItems)
        hasher.combine(reloadItems)
        hasher.combine(reconfigureItems)
    }

    enum CodingKeys: String, CodingKey {
        case deleteSections, insertSections, moveSections, reloadSections
        case deleteItems, insertItems, moveItems, reloadItems, reconfigureItems
    }

    /// - Complexity: O(size of the decoded value).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func paths(_ key: CodingKeys) throws -> [IndexPath] {
            try (container.decodeIfPresent([PathCoding].self, forKey: key) ?? []).map(\.path)
        }
        self.init(
            deleteSections: try container.decodeIfPresent([Int].self, forKey: .deleteSections) ?? [],
            insertSections: try container.decodeIfPresent([Int].self, forKey: .insertSections) ?? [],
            moveSections: try container.decodeIfPresent([SectionMove].self, forKey: .moveSections) ?? [],
            reloadSections: try container.decodeIfPresent([Int].self, forKey: .reloadSections) ?? [],
            deleteItems: .indexPaths(try paths(.deleteItems)), insertItems: .indexPaths(try paths(.insertItems)),
            moveItems: .moves(try container.decodeIfPresent([ItemMove].self, forKey: .moveItems) ?? []),
            reloadItems: .indexPaths(try paths(.reloadItems)), reconfigureItems: .indexPaths(try paths(.reconfigureItems)))
    }

    /// - Complexity: O(size of the encoded value).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deleteSections, forKey: .deleteSections)
        try container.encode(insertSections, forKey: .insertSections)
        try container.encode(moveSections, forKey: .moveSections)
        try container.encode(reloadSections, forKey: .reloadSections)
        try container.encode(deleteItems.map(PathCoding.init), forKey: .deleteItems)
        try container.encode(insertItems.map(PathCoding.init), forKey: .insertItems)
        try container.encode(moveItems, forKey: .moveItems)
        try container.encode(reloadItems.map(PathCoding.init), forKey: .reloadItems)
        try container.encode(reconfigureItems.map(PathCoding.init), forKey: .reconfigureItems)
    }

    /// `(section, item)`; any length, so describing a malformed batch never traps.
    static func show(_ path: IndexPath) -> String { "(\(path.map(String.init).joined(separator: ", ")))" }
}

extension BatchUpdate: CustomStringConvertible {
    /// The non-empty operation lists, e.g. `BatchUpdate(deleteItems: [(0, 1)], moveItems: [(0, 3)→(0, 0)])`.
    public var description: String {
        var parts: [String] = []
        func add<T>(_ name: String, _ values: [T], _ show: (T) -> String) {
            if !values.isEmpty { parts.append("\(name): [\(values.map(show).joined(separator: ", "))]") }
        }
        add("deleteSections", deleteSections) { "\($0)" }
        add("insertSections", insertSections) { "\($0)" }
        add("moveSections", moveSections) { $0.description }
        add("reloadSections", reloadSections) { "\($0)" }
        add("deleteItems", deleteItems, Self.show)
        add("insertItems", insertItems, Self.show)
        add("moveItems", moveItems) { $0.description }
        add("reloadItems", reloadItems, Self.show)
        add("reconfigureItems", reconfigureItems, Self.show)
        return "BatchUpdate(\(parts.joined(separator: ", ")))"
    }
}

extension BatchUpdate {
    /// This batch of one section's item operations with every item path in section `section`.
    /// - Complexity: O(operations).
    func movingItems(toSection section: Int) -> BatchUpdate {
        func moved(_ paths: [IndexPath]) -> [IndexPath] { paths.map { IndexPath(item: $0.item, section: section) } }
        var batch = self
        batch.deleteItems = moved(deleteItems)
        batch.insertItems = moved(insertItems)
        batch.moveItems = moveItems.map {
            ItemMove(from: IndexPath(item: $0.from.item, section: section), to: IndexPath(item: $0.to.item, section: section))
        }
        batch.reloadItems = moved(reloadItems)
        batch.reconfigureItems = moved(reconfigureItems)
        return batch
    }
}

/// An index path coded as `[section, item]`.
struct PathCoding: Codable {
    var path: IndexPath
    init(_ path: IndexPath) { self.path = path }
    init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let section = try container.decode(Int.self)
        let item = try container.decode(Int.self)
        path = IndexPath(item: item, section: section)
    }
    func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(path.section)
        try container.encode(path.item)
    }
}

#if canImport(UIKit)
    import UIKit  // IndexPath(item:section:), .item and .section
#elseif canImport(AppKit)
    import AppKit  // IndexPath(item:section:), .item and .section
#else
    /// Foundation off Apple's platforms lacks UIKit's `item`/`section` accessors; these match them.
    ///
    /// Guarded twice: they only exist where no UIKit or AppKit provides them, and they are
    /// disfavoured, so a package that defines the same members (or an app's own copy) wins
    /// overload resolution instead of making every call ambiguous.
    extension IndexPath {
        /// The path `[section, item]`. - Complexity: O(1).
        @_disfavoredOverload
        public init(item: Int, section: Int) {
            // The one-index form and an append build Foundation's inline two-index form without
            // allocating the array that `init(indexes:)` would (2× faster per path; a batch can
            // hold 10^6), in two calls where an empty path and two appends take three.
            self.init(index: section)
            append(item)
        }
        /// The section index (the first index). - Complexity: O(1).
        @_disfavoredOverload
        public var section: Int { self[0] }
        /// The item index (the second index). - Complexity: O(1).
        @_disfavoredOverload
        public var item: Int { self[1] }
    }
#endif
