import Diffable
import Foundation

/// A snapshot document whose identifiers are numbers from an ``IdentifierInterner``: what
/// ``SnapshotReader`` reads, four bytes per item however long the identifiers are.
public struct NumberedSnapshotDocument: Equatable, Sendable {
    /// The sections' identifiers, in order.
    public var sections: [UInt32]
    /// `sectionItemEnds[s]` is the end of section `s`'s items in ``items``.
    public var sectionItemEnds: [Int]
    /// Every section's items, back to back.
    public var items: [UInt32]
    /// Refresh requests carried by the snapshot.
    public var reloadItems: [UInt32]
    public var reconfigureItems: [UInt32]
    public var reloadSections: [UInt32]

    /// Traps unless there is one item end per section, the last one `items.count`.
    /// - Complexity: O(1).
    public init(
        sections: [UInt32], sectionItemEnds: [Int], items: [UInt32], reloadItems: [UInt32] = [], reconfigureItems: [UInt32] = [],
        reloadSections: [UInt32] = []
    ) {
        precondition(sections.count == sectionItemEnds.count && (sectionItemEnds.last ?? 0) == items.count)
        self.sections = sections
        self.sectionItemEnds = sectionItemEnds
        self.items = items
        self.reloadItems = reloadItems
        self.reconfigureItems = reconfigureItems
        self.reloadSections = reloadSections
    }

    /// The refresh list named `key` (``SnapshotFormatKeys/Document/refreshLists``); the
    /// sections' identifiers for `.sections`. - Complexity: O(1).
    public func list(_ key: SnapshotFormatKeys.Document) -> [UInt32] {
        switch key {
        case .sections: sections
        case .reloadItems: reloadItems
        case .reconfigureItems: reconfigureItems
        case .reloadSections: reloadSections
        }
    }

    /// The range of section `section`'s items in ``items``. - Complexity: O(1).
    public func itemRange(ofSection section: Int) -> Range<Int> {
        (section == 0 ? 0 : sectionItemEnds[section - 1])..<sectionItemEnds[section]
    }

    /// The identifier of section `section`, as written; traps when there is no such section.
    /// - Complexity: O(its length).
    public func sectionIdentifier(at section: Int, names: IdentifierInterner) -> String {
        names.string(Int(sections[section]))
    }

    /// The identifier of the item at `path`, as written; traps when there is no such item.
    /// - Complexity: O(its length).
    public func itemIdentifier(at path: IndexPath, names: IdentifierInterner) -> String {
        let range = itemRange(ofSection: path.section)
        precondition(path.item >= 0 && path.item < range.count, "no item at \(path)")
        return names.string(Int(items[range.lowerBound + path.item]))
    }

    /// The document with its identifiers written out (small inputs, tests).
    /// - Complexity: O(n + s + r) plus the identifiers' lengths.
    public func document(names: IdentifierInterner) -> SnapshotDocument {
        func strings(_ numbers: some Sequence<UInt32>) -> [String] { numbers.map { names.string(Int($0)) } }
        return SnapshotDocument(
            sections: sections.indices.map { .init(id: names.string(Int(sections[$0])), items: strings(items[itemRange(ofSection: $0)])) },
            reloadItems: strings(reloadItems), reconfigureItems: strings(reconfigureItems), reloadSections: strings(reloadSections))
    }

    /// Builds the snapshot of canonical numbers (``IdentifierInterner/canonicalNumbers()``, nil
    /// when every number is canonical),
    /// or the error object ``SnapshotDocument/snapshot(side:)`` gives for the same document
    /// written out, its identifiers as written.
    /// - Parameters:
    ///   - side: `"old"` or `"new"`, reported in the error.
    ///   - canonical: the interner's canonical numbers, taken after every document was read.
    /// - Throws: ``DocumentError`` for invalid input (duplicates, unknown refresh requests);
    ///   ``SnapshotInputError`` with no location when the tables cannot be allocated.
    /// - Complexity: O(n + s + r) expected.
    public func snapshot(side: String, canonical: [Int]?, names: IdentifierInterner) throws -> DiffableDataSourceSnapshot<Int, Int> {
        do {
            return try build(side: side, canonical: canonical, names: names)
        } catch {
            throw Self.convert(error, side: side)
        }
    }

    private func build(side: String, canonical: [Int]?, names: IdentifierInterner) throws(DocumentSnapshotBuilder.Failure)
        -> DiffableDataSourceSnapshot<Int, Int>
    {
        func numbers(_ list: some Sequence<UInt32>) -> [Int] {
            guard let canonical else { return list.map { Int($0) } }
            return list.map { canonical[Int($0)] }
        }
        return try DocumentSnapshotBuilder.build(
            sections: zip(numbers(sections), sections.indices).map { ($0, numbers(items[itemRange(ofSection: $1)])) },
            reloadItems: numbers(reloadItems), reconfigureItems: numbers(reconfigureItems), reloadSections: numbers(reloadSections),
            side: side,
            names: .init(
                section: { names.string(Int(sections[$0])) }, item: { names.string(Int(items[itemRange(ofSection: $0).lowerBound + $1])) },
                request: { names.string(Int(list($0)[$1])) }))
    }

    private static func convert(_ failure: DocumentSnapshotBuilder.Failure, side: String) -> any Error {
        switch failure {
        case .rejected(let error): error
        case .outOfMemory: SnapshotInputError(source: side, message: "out of memory building the \(side) snapshot")
        }
    }

    /// The snapshots of two documents read through one interner, or the error object for the
    /// first problem, the old document's first: ``DiffOutcome/of(old:new:)`` on numbers.
    /// - Throws: ``SnapshotInputError`` when the tables cannot be allocated.
    /// - Complexity: O(n + s + r) expected for both, plus O(non-ASCII identifiers' lengths).
    public static func snapshots(old: Self, new: Self, names: IdentifierInterner) throws(SnapshotInputError) -> Result<
        (old: DiffableDataSourceSnapshot<Int, Int>, new: DiffableDataSourceSnapshot<Int, Int>), DocumentError
    > {
        let canonical = names.canonicalNumbers()
        do throws(DocumentSnapshotBuilder.Failure) {
            let oldSnapshot = try old.build(side: "old", canonical: canonical, names: names)
            return .success((oldSnapshot, try new.build(side: "new", canonical: canonical, names: names)))
        } catch {
            switch error {
            case .rejected(let error): return .failure(error)
            case .outOfMemory: throw SnapshotInputError(source: "snapshots", message: "out of memory building the snapshots")
            }
        }
    }
}
