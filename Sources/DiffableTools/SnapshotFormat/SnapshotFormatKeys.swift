import Foundation

/// The snapshot document's key names: the one table that every reader and writer of the
/// format uses — ``SnapshotDocument``'s decoder, the CLI's simdjson reader (which receives
/// these names from ``SnapshotReader`` and spells none itself), the error-path diagnosis,
/// ``SnapshotFileWriter`` and the error objects that name a refresh list.
///
/// ```json
/// { "sections": [ { "id": "S", "items": ["a", "b"] } ],
///   "reloadItems": [], "reconfigureItems": [], "reloadSections": [] }
/// ```
public enum SnapshotFormatKeys {
    /// The keys of the document object, in the order documents are written.
    public enum Document: String, CaseIterable, CodingKey, Sendable {
        /// Required: the sections, in order.
        case sections
        /// Optional refresh requests (an absent list is an empty one).
        case reloadItems, reconfigureItems, reloadSections

        /// The refresh-request lists, in the order their errors are looked for.
        public static let refreshLists: [Document] = [.reloadItems, .reconfigureItems, .reloadSections]

        /// Whether a document must have this key. - Complexity: O(1).
        public var isRequired: Bool { self == .sections }
    }

    /// The keys of a section object; both are required.
    public enum Section: String, CaseIterable, CodingKey, Sendable {
        case id, items
    }

    /// A `JSONDecoder.userInfo` key: `true` ignores keys the format does not define
    /// (by default they are a decoding error naming the key and the nearest known one).
    public static let lenient = CodingUserInfoKey(rawValue: "diffable.lenient")!
}
