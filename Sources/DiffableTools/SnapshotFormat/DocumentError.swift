/// The error object of FIXTURES.md / ALGORITHM.md "Errors": what kind of bad
/// input, in which snapshot, every identifier of that kind (first occurrence
/// order, as first written) and, per identifier, all its positions
/// (`[section, item]` for items, `[section]` for sections, `[index]` in the
/// request list named by `list` for unknown identifiers). In an outline
/// (docs/FIXTURES.md) positions are `[entry index]`, and the kinds are
/// `duplicateItem`, `unknownParent` (the parents named) and `cycle` (the items
/// on a loop of parents, in entry order).
public struct DocumentError: Error, Codable, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable { case duplicateSection, duplicateItem, unknownIdentifier, unknownParent, cycle }
    public var kind: Kind
    public var snapshot: String
    public var identifiers: [String]
    public var positions: [[[Int]]]
    public var list: String?

    /// - Complexity: O(1).
    public init(kind: Kind, snapshot: String, identifiers: [String], positions: [[[Int]]], list: String? = nil) {
        self.kind = kind
        self.snapshot = snapshot
        self.identifiers = identifiers
        self.positions = positions
        self.list = list
    }

    /// `old snapshot: duplicateItem: "a" at [0, 0], [0, 2]`. - Complexity: O(identifiers + positions).
    public var description: String { "\(snapshot) snapshot: \(problem)" }

    /// The message with the file the rejected snapshot was read from:
    /// `'dup.json' (old snapshot): duplicateItem: "a" at [0, 0], [0, 2]`.
    /// - Parameters: oldSource, newSource: where the old and the new snapshot came from (a path, `stdin`).
    /// - Complexity: O(identifiers + positions).
    public func description(oldSource: String, newSource: String) -> String {
        "'\(snapshot == "new" ? newSource : oldSource)' (\(snapshot) snapshot): \(problem)"
    }

    /// The kind, the list and every identifier with its positions.
    private var problem: String {
        let places = zip(identifiers, positions).map { identifier, positions in
            "\(identifier.debugDescription) at "
                + positions.map { "[" + $0.map(String.init).joined(separator: ", ") + "]" }.joined(separator: ", ")
        }
        return "\(kind.rawValue)\(list.map { " in \($0)" } ?? ""): " + places.joined(separator: "; ")
    }
}
