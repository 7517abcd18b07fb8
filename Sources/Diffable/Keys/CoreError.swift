internal import CDiffCore

/// A failure reported by the C core: one value per `DFC_ERR_*` status of `dfc.h`,
/// whose numbers are fixed and never reused.
///
/// Caller bugs (bad arguments) and environmental failures (out of memory) both
/// arrive here; the Swift layer above turns bugs into traps and environmental
/// failures into thrown errors (``SnapshotError/outOfMemory``) wherever the public
/// API promises not to trap.
struct CoreError: Error, RawRepresentable, Hashable, CustomStringConvertible {
    /// The `DFC_ERR_*` value from `dfc.h`.
    let rawValue: Int32

    /// - Complexity: O(1).
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// A required pointer was NULL (`DFC_ERR_NULL_ARGUMENT`): a bug in Diffable.
    static let nullArgument = CoreError(rawValue: Int32(DFC_ERR_NULL_ARGUMENT))
    /// A count above `DFC_MAX_COUNT` or a size that overflows (`DFC_ERR_TOO_LARGE`).
    static let tooLarge = CoreError(rawValue: Int32(DFC_ERR_TOO_LARGE))
    /// The allocator returned NULL (`DFC_ERR_OUT_OF_MEMORY`); nothing was changed.
    static let outOfMemory = CoreError(rawValue: Int32(DFC_ERR_OUT_OF_MEMORY))
    /// An identifier occurs twice (`DFC_ERR_DUPLICATE`); details in `DiffContext.duplicates`.
    static let duplicate = CoreError(rawValue: Int32(DFC_ERR_DUPLICATE))
    /// An enum or flag value out of range (`DFC_ERR_INVALID_ARGUMENT`): a bug in Diffable.
    static let invalidArgument = CoreError(rawValue: Int32(DFC_ERR_INVALID_ARGUMENT))
    /// Arrays that disagree, e.g. section starts not ascending (`DFC_ERR_INCONSISTENT`).
    static let inconsistent = CoreError(rawValue: Int32(DFC_ERR_INCONSISTENT))
    /// An index that names no element of its list (`DFC_ERR_UNKNOWN_IDENTIFIER`).
    static let unknownIdentifier = CoreError(rawValue: Int32(DFC_ERR_UNKNOWN_IDENTIFIER))
    /// A table with no room for an insert (`DFC_ERR_NO_ROOM`): a bug in Diffable, which
    /// reserves before inserting.
    static let noRoom = CoreError(rawValue: Int32(DFC_ERR_NO_ROOM))
    /// Keys alone could not match the lists, two elements of one sharing a key
    /// (`DFC_ERR_SHARED_KEY`, `DFC_MATCH_DEFERRED` only): the diff runs again confirming.
    static let sharedKey = CoreError(rawValue: Int32(DFC_ERR_SHARED_KEY))

    /// The error for a C status, nil for `DFC_OK`: the one place statuses are mapped.
    /// - Complexity: O(1).
    init?(status: Int32) {
        switch status {
        case Int32(DFC_OK): return nil
        case Int32(DFC_ERR_NULL_ARGUMENT): self = .nullArgument
        case Int32(DFC_ERR_TOO_LARGE): self = .tooLarge
        case Int32(DFC_ERR_OUT_OF_MEMORY): self = .outOfMemory
        case Int32(DFC_ERR_DUPLICATE): self = .duplicate
        case Int32(DFC_ERR_INVALID_ARGUMENT): self = .invalidArgument
        case Int32(DFC_ERR_INCONSISTENT): self = .inconsistent
        case Int32(DFC_ERR_UNKNOWN_IDENTIFIER): self = .unknownIdentifier
        case Int32(DFC_ERR_NO_ROOM): self = .noRoom
        case Int32(DFC_ERR_SHARED_KEY): self = .sharedKey
        default: self.init(rawValue: status)  // a status newer than this file: still reported by number
        }
    }

    /// The core's own text for the status, e.g. "DFC_ERR_DUPLICATE: …".
    /// - Complexity: O(1).
    var description: String { String(cString: dfc_status_string(rawValue)) }

    /// Throws unless `status` is `DFC_OK`.
    /// - Complexity: O(1).
    static func check(_ status: Int32) throws(CoreError) {
        if let error = CoreError(status: status) { throw error }
    }

    /// Traps unless `status` is `DFC_OK`: for calls whose only possible failure is a
    /// bug in Diffable or exhausted memory on a path that is documented to trap on it.
    /// - Complexity: O(1).
    static func require(_ status: Int32, _ operation: @autoclosure () -> String) {
        if let error = CoreError(status: status) { fatalError("Diffable: \(operation()): \(error)") }
    }
}
