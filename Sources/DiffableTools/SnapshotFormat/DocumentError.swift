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
    /// Problems of other kinds found in the same snapshot (duplicate items beside duplicate
    /// sections), for people: the fixture format's error object holds the first kind only, so
    /// they are neither encoded nor compared; ``description`` names them.
    public var further: [DocumentError] = []

    enum CodingKeys: String, CodingKey { case kind, snapshot, identifiers, positions, list }

    /// - Complexity: O(1).
    public init(
        kind: Kind, snapshot: String, identifiers: [String], positions: [[[Int]]], list: String? = nil, further: [DocumentError] = []
    ) {
        self.kind = kind
        self.snapshot = snapshot
        self.identifiers = identifiers
        self.positions = positions
        self.list = list
        self.further = further
    }

    /// Equal error objects (``further`` is not part of the object).
    /// - Complexity: O(identifiers + positions).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.snapshot == rhs.snapshot && lhs.identifiers == rhs.identifiers && lhs.positions == rhs.positions
            && lhs.list == rhs.list
    }

    /// `old snapshot: duplicateItem: "a" at [0, 0], [0, 2]`; problems of other kinds follow,
    /// `; also duplicateItem: …`. - Complexity: O(identifiers + positions).
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
        let this = "\(kind.rawValue)\(list.map { " in \($0)" } ?? ""): " + places.joined(separator: "; ")
        return ([this] + further.map(\.problem)).joined(separator: "; also ")
    }
}
