/// A byte of flags per row of one state (its section counts): what a batch does to each row,
/// without hashing `IndexPath`s. Rows are numbered flat (section starts are prefix sums of the
/// counts) and the flags kept in one array when the batch is large next to the rows (1 byte a
/// row), in a dictionary otherwise, so a small batch on 10^7 rows costs O(batch), not O(rows).
struct RowFlags {
    private let counts: [Int]
    /// Where each section's rows start in `dense`; empty when the flags are sparse.
    private let starts: [Int]
    private var dense: [UInt8]
    private var sparse: [RowPath: UInt8] = [:]

    /// Flags for rows counted by `counts` (none negative), for a batch of about `entries` operations.
    /// - Complexity: O(s + rows) when dense, O(s) otherwise.
    init(counts: [Int], entries: Int) {
        self.counts = counts
        var starts: [Int] = []
        starts.reserveCapacity(counts.count)
        var total = 0, fits = true
        for count in counts {
            starts.append(total)
            let (sum, overflow) = total.addingReportingOverflow(count)
            if overflow {
                fits = false
                break
            }
            total = sum
        }
        if fits && total <= 8 * entries + 4096 {
            self.starts = starts
            dense = [UInt8](repeating: 0, count: total)
        } else {
            self.starts = []
            dense = []
        }
    }

    /// Whether `path` names a row. - Complexity: O(1).
    func contains(_ path: RowPath) -> Bool {
        path.section >= 0 && path.section < counts.count && path.item >= 0 && path.item < counts[path.section]
    }

    /// The flags of the row `path` (which ``contains(_:)``). - Complexity: O(1) (expected, when sparse).
    subscript(path: RowPath) -> UInt8 {
        get { starts.isEmpty ? sparse[path, default: 0] : dense[starts[path.section] + path.item] }
        set {
            if starts.isEmpty { sparse[path] = newValue } else { dense[starts[path.section] + path.item] = newValue }
        }
    }

    /// Sets `flag` on the row `path` (which ``contains(_:)``); whether it was set before.
    /// - Complexity: O(1) (expected, when sparse).
    mutating func insert(_ flag: UInt8, at path: RowPath) -> Bool {
        let flags = self[path]
        if flags & flag != 0 { return true }
        self[path] = flags | flag
        return false
    }
}
