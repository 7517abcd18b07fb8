import Diffable

/// A snapshot document's parts built into a snapshot, with the ALGORITHM.md error for the
/// first kind of problem: duplicate sections, then duplicate items, then unknown identifiers
/// in the refresh requests (each with every identifier of that kind and all its positions).
/// Duplicate items found beside duplicate sections ride along in the error's
/// ``DocumentError/further`` (named in its description, not in the error object).
///
/// Shared by ``SnapshotDocument`` (String identifiers) and ``NumberedSnapshotDocument``
/// (interned numbers): errors name identifiers as written, through `names`.
enum DocumentSnapshotBuilder {
    /// How to write the identifier found at a position of the document.
    struct Names {
        /// The identifier of section `section`.
        var section: (_ section: Int) -> String
        /// The identifier of item `item` of section `section`.
        var item: (_ section: Int, _ item: Int) -> String
        /// The identifier at `index` of the refresh list `list` (``SnapshotFormatKeys/Document/refreshLists``).
        var request: (_ list: SnapshotFormatKeys.Document, _ index: Int) -> String
    }

    /// Why no snapshot was built.
    enum Failure: Error {
        /// Invalid input: the fixture error object.
        case rejected(DocumentError)
        /// The snapshot's tables could not be allocated.
        case outOfMemory
    }

    /// - Parameter side: `"old"` or `"new"`, reported in the error.
    /// - Complexity: O(n + s + r) expected, r the refresh requests.
    static func build<ID: Hashable>(
        sections: [(ID, [ID])], reloadItems: [ID], reconfigureItems: [ID], reloadSections: [ID], side: String, names: Names
    ) throws(Failure) -> DiffableDataSourceSnapshot<ID, ID> {
        var snapshot: DiffableDataSourceSnapshot<ID, ID>
        do {
            snapshot = try DiffableDataSourceSnapshot(validating: sections)
        } catch {
            func duplicateItems(_ duplicates: [SnapshotError.Duplicate]) -> DocumentError {
                DocumentError(
                    kind: .duplicateItem, snapshot: side,
                    identifiers: duplicates.map { names.item($0.positions[0][0], $0.positions[0][1]) },
                    positions: duplicates.map(\.positions))
            }
            switch error {
            case .duplicateSections(let duplicates), .duplicateSectionsAndItems(let duplicates, _):
                // The fixture format reports the first kind of problem (ALGORITHM.md "Errors");
                // the duplicate items go along for the message.
                var further: [DocumentError] = []
                if case .duplicateSectionsAndItems(_, let items) = error { further = [duplicateItems(items)] }
                throw .rejected(
                    DocumentError(
                        kind: .duplicateSection, snapshot: side, identifiers: duplicates.map { names.section($0.positions[0][0]) },
                        positions: duplicates.map(\.positions), further: further))
            case .duplicateItems(let duplicates):
                throw .rejected(duplicateItems(duplicates))
            default:
                throw .outOfMemory
            }
        }
        let requests = SnapshotFormatKeys.Document.refreshLists.map {
            list -> (list: SnapshotFormatKeys.Document, values: [ID], known: (ID) -> Bool) in
            switch list {
            case .reloadItems: (list, reloadItems, { [snapshot] in snapshot.contains(item: $0) })
            case .reconfigureItems: (list, reconfigureItems, { [snapshot] in snapshot.contains(item: $0) })
            case .reloadSections: (list, reloadSections, { [snapshot] in snapshot.contains(section: $0) })
            case .sections: preconditionFailure("sections is not a refresh list")
            }
        }
        for request in requests {
            let unknown = Occurrences.group(request.values.enumerated().lazy.filter { !request.known($1) }.map { ($1, [$0]) })
            if !unknown.isEmpty {
                throw .rejected(
                    DocumentError(
                        kind: .unknownIdentifier, snapshot: side,
                        identifiers: unknown.map { names.request(request.list, $0.positions[0][0]) },
                        positions: unknown.map(\.positions), list: request.list.rawValue))
            }
        }
        snapshot.reloadItems(reloadItems)
        snapshot.reconfigureItems(reconfigureItems)
        snapshot.reloadSections(reloadSections)
        return snapshot
    }
}
