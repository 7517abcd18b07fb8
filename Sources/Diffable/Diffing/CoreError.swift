internal import CDiffCore

/// A failure reported by the C core, named by its fixed status code.
///
/// Caller bugs (bad arguments) and environmental failures (out of memory) both
/// arrive here; the Swift layer above turns them into traps or ``SnapshotError``s.
struct CoreError: Error, Equatable, CustomStringConvertible {
    /// The `DFC_ERR_*` value from `dfc.h`.
    let status: Int32

    /// The one status callers handle rather than trap on (details in `DiffContext.duplicates`).
    static let duplicate = CoreError(status: Int32(DFC_ERR_DUPLICATE))

    /// The core's own text for the status, e.g. "DFC_ERR_DUPLICATE: …".
    /// - Complexity: O(1).
    var description: String { String(cString: dfc_status_string(status)) }

    /// Throws unless `status` is `DFC_OK`.
    /// - Complexity: O(1).
    static func check(_ status: Int32) throws(CoreError) {
        if status != Int32(DFC_OK) { throw CoreError(status: status) }
    }
}
