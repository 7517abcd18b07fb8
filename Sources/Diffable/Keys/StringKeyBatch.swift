internal import CDiffCore

/// The keys of many strings made in batches, one core call per batch
/// (`dfc_hash_if_nfc_many`): Swift only gathers where each string's UTF-8 lies, and
/// the core checks for NFC and hashes with no call per string.
enum StringKeyBatch {
    /// Strings per core call: the batch's pointers, lengths, misses, keys and short-string
    /// copies (48 bytes a string) fit the 1 KiB that a temporary allocation is sure to take
    /// from the stack (above it, the standard library may call malloc once per call).
    static let size = 21

    /// The longest UTF-8 a string stored inline in its `String` value can have. Such a
    /// string's bytes are copied out for the call; `utf8.withContiguousStorageIfAvailable`
    /// would hand over a temporary copy that ends with its closure.
    static let longestInlineUTF8 = 15

    /// The key of each string (``IdentifierKey/string(_:)``), in order.
    ///
    /// Each batch's keys are appended to the result, reserved once: an array made at its full
    /// count would be zeroed first, or allocated through the standard library's unspecialized
    /// path (about 400 instructions a call).
    /// - Complexity: O(count + total UTF-8 length); strings the quick check does not
    ///   find in NFC are normalized first, as ``IdentifierKey/string(_:)`` does.
    static func keys(_ strings: UnsafeBufferPointer<String>) -> [UInt64] {
        var keys: [UInt64] = []
        keys.reserveCapacity(strings.count)
        forEachBatch(of: strings, count: strings.count, position: { $0 }, deliver: { _, batchKeys in keys.append(contentsOf: batchKeys) })
        return keys
    }

    /// Writes the key of each string to `keys[0..<strings.count]` (initializing that memory), in order.
    /// - Complexity: O(count + total UTF-8 length).
    static func writeKeys(of strings: UnsafeBufferPointer<String>, to keys: UnsafeMutablePointer<UInt64>) {
        forEachBatch(
            of: strings, count: strings.count, position: { $0 },
            deliver: { first, batchKeys in (keys + first).initialize(from: batchKeys.baseAddress!, count: batchKeys.count) })
    }

    /// Writes the key of `strings[p]` to `keys[p]` for every position `p` in `positions`
    /// (the other keys are left as they are).
    /// - Complexity: O(positions.count + their UTF-8 length), as `keys(_:)`.
    static func writeKeys(
        of strings: UnsafeBufferPointer<String>, at positions: UnsafeBufferPointer<Int32>, to keys: UnsafeMutablePointer<UInt64>
    ) {
        forEachBatch(
            of: strings, count: positions.count, position: { Int(positions[$0]) },
            deliver: { first, batchKeys in
                for (offset, key) in batchKeys.enumerated() { keys[Int(positions[first &+ offset])] = key }
            })
    }

    /// Keys `strings[position(i)]` for `i` in `0..<count`, a batch at a time, and hands each
    /// batch's keys to `deliver` with the `i` of its first string.
    ///
    /// A longer string's bytes are read in place after its closure returns: they are in the
    /// string's own storage object (or static memory), which the caller's array keeps alive
    /// and unchanged for the call.
    /// - Complexity: O(count + total UTF-8 length).
    @inline(__always)
    private static func forEachBatch(
        of strings: UnsafeBufferPointer<String>, count total: Int, position: (Int) -> Int,
        deliver: (Int, UnsafeBufferPointer<UInt64>) -> Void
    ) {
        let batch = size, copyStride = longestInlineUTF8 + 1, wordStride = MemoryLayout<UInt64>.stride
        withUnsafeTemporaryAllocation(byteCount: batch * (4 * wordStride + copyStride), alignment: 16) { scratch in
            let base = scratch.baseAddress!
            let starts = base.bindMemory(to: UnsafeRawPointer?.self, capacity: batch)
            let lengths = (base + batch * wordStride).bindMemory(to: Int.self, capacity: batch)
            let misses = (base + batch * 2 * wordStride).bindMemory(to: Int.self, capacity: batch)
            let batchKeys = (base + batch * 3 * wordStride).bindMemory(to: UInt64.self, capacity: batch)
            let copies = base + batch * 4 * wordStride
            var first = 0
            while first < total {
                let count = min(batch, total &- first)
                for slot in 0..<count {
                    let gathered: Void? = strings[position(first &+ slot)].utf8.withContiguousStorageIfAvailable { utf8 in
                        lengths[slot] = utf8.count
                        guard let bytes = utf8.baseAddress, utf8.count <= longestInlineUTF8 else {
                            starts[slot] = UnsafeRawPointer(utf8.baseAddress)
                            return
                        }
                        let copy = copies + slot &* copyStride
                        copy.copyMemory(from: bytes, byteCount: utf8.count)
                        starts[slot] = UnsafeRawPointer(copy)
                    }
                    // Not contiguous (a bridged string): reported unhashed, keyed below.
                    if gathered == nil { (starts[slot], lengths[slot]) = (nil, 1) }
                }
                var missCount = 0
                CoreError.require(
                    dfc_hash_if_nfc_many(starts, lengths, count, 0, batchKeys, misses, &missCount), "keying \(count) strings")
                for miss in 0..<missCount {
                    batchKeys[misses[miss]] = IdentifierKey.string(strings[position(first &+ misses[miss])])
                }
                deliver(first, UnsafeBufferPointer(start: batchKeys, count: count))
                first &+= count
            }
        }
    }
}
