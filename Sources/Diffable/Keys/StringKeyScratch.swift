/// The key buffers a ``ListDiffer`` keeps for its `[String]` diffs, and room for the walk's
/// lists of unpaired positions (`StringPairKeys`): grown to the longest lists so far and
/// reused, each diff writing the prefix it needs.
struct StringKeyScratch {
    var old: [UInt64] = []
    var new: [UInt64] = []
    var oldUnpaired: [Int32] = []
    var newUnpaired: [Int32] = []
    /// The table of the old strings' bits that pairs strings moved far.
    var table: [UInt64] = []

    /// Bytes held.
    /// - Complexity: O(1).
    var byteCount: Int {
        (old.capacity + new.capacity + table.capacity) * MemoryLayout<UInt64>.stride
            + (oldUnpaired.capacity + newUnpaired.capacity) * MemoryLayout<Int32>.stride
    }

    /// Makes the buffers at least `n` (old side) and `m` (new side) long (their contents are
    /// then overwritten).
    /// Never empty, so that their buffers always have an address.
    /// - Complexity: O(growth).
    mutating func reserve(old n: Int, new m: Int) {
        let n = Swift.max(n, 1), m = Swift.max(m, 1)
        if old.count < n { old.append(contentsOf: repeatElement(0, count: n &- old.count)) }
        if new.count < m { new.append(contentsOf: repeatElement(0, count: m &- new.count)) }
        if oldUnpaired.count < n { oldUnpaired.append(contentsOf: repeatElement(0, count: n &- oldUnpaired.count)) }
        if newUnpaired.count < m { newUnpaired.append(contentsOf: repeatElement(0, count: m &- newUnpaired.count)) }
    }

    /// Writes every string's canonical key (``IdentifierKey/string(_:)``) to
    /// `old[0..<oldStrings.count]` and `new[0..<newStrings.count]`.
    /// - Complexity: O(total UTF-8 length).
    mutating func writeCanonicalKeys(old oldStrings: UnsafeBufferPointer<String>, new newStrings: UnsafeBufferPointer<String>) {
        reserve(old: oldStrings.count, new: newStrings.count)
        old.withUnsafeMutableBufferPointer { StringKeyBatch.writeKeys(of: oldStrings, to: $0.baseAddress!) }
        new.withUnsafeMutableBufferPointer { StringKeyBatch.writeKeys(of: newStrings, to: $0.baseAddress!) }
    }

    /// Runs `body` with the first `n` old keys and `m` new keys.
    /// - Complexity: O(1) plus `body`.
    func withKeys<R>(old n: Int, new m: Int, _ body: (UnsafeBufferPointer<UInt64>, UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        try old.withUnsafeBufferPointer { old in
            try new.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: old[..<n]), UnsafeBufferPointer(rebasing: $0[..<m])) }
        }
    }
}
