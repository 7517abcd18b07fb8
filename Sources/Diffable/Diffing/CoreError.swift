internal import CDiffCore

/// A failure reported by the C core, named by its fixed status code.
///
/// Caller bugs (bad arguments) and environmental failures (out of memory) both
/// arrive here; the Swift layer above turns them into traps or ``SnapshotError``s.
struct CoreError: Error, Equatable, CustomStringConvertible {
    /// The `DFC_ERR_*` value from `dfc.h`.
    let status: Int32

    static let nullArgument = CoreError(status: Int32(DFC_ERR_NULL_ARGUMENT))
    static let tooLarge = CoreError(status: Int32(DFC_ERR_TOO_LARGE))
    static let outOfMemory = CoreError(status: Int32(DFC_ERR_OUT_OF_MEMORY))
    static let duplicate = CoreError(status: Int32(DFC_ERR_DUPLICATE))
    static let invalidArgument = CoreError(status: Int32(DFC_ERR_INVALID_ARGUMENT))
    static let inconsistent = CoreError(status: Int32(DFC_ERR_INCONSISTENT))

    /// The core's own text for the status, e.g. "DFC_ERR_DUPLICATE: …".
    /// - Complexity: O(1).
    var description: String { String(cString: dfc_status_string(status)) }

    /// Throws unless `status` is `DFC_OK`.
    /// - Complexity: O(1).
    static func check(_ status: Int32) throws(CoreError) {
        if status != Int32(DFC_OK) { throw CoreError(status: status) }
    }
}
