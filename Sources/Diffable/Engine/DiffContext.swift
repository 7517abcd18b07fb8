internal import CDiffCore

/// Owns one C `dfc_context`: the reusable workspace of every diff.
///
/// Not `Sendable`: a context serves one thread at a time. Results borrowed
/// from it are valid only inside the closure that receives them.
final class DiffContext {
    let raw: OpaquePointer
    /// The context's memory, through allocator hooks that let it hand result arrays over.
    let allocations: ContextAllocations

    /// When set, a snapshot diff that leaves the context holding more than this many bytes
    /// hands its item maps and packed index paths over to the difference instead of copying
    /// them (the owner would not keep so large a context anyway); the context then releases
    /// all its buffers before its next diff. Nil (the default): results are always copied.
    var handOverAbove: Int?

    /// Creates a context (malloc/free, huge pages for large blocks, as the core's default
    /// allocator). Traps only when the system cannot allocate a few hundred bytes.
    /// - Complexity: O(1).
    init() {
        allocations = ContextAllocations()
        var allocator = allocations.allocator()
        guard let context = dfc_context_create(&allocator) else {
            fatalError("Diffable: out of memory creating a diff context")
        }
        raw = context
    }

    // `allocations` outlives this call: stored properties are released after deinit's body.
    deinit { dfc_context_free(raw) }

    /// Releases every buffer when some were handed over, so that the next diff cannot write
    /// into memory a difference owns. Called before each diff.
    /// - Complexity: O(1).
    func releaseHandedOverBuffers() {
        guard allocations.hasHandedOver else { return }
        dfc_context_shrink(raw)
        assert(!allocations.hasHandedOver, "Diffable: a handed-over block is not among the context's buffers")
    }

    /// Whether the results of the diff just made should be handed over rather than copied.
    /// - Complexity: O(1).
    var handsOverResults: Bool { handOverAbove.map { byteCount > $0 } ?? false }

    /// Allocations made by the context so far (a warm context makes none per diff).
    /// - Complexity: O(1).
    var allocationCount: UInt64 { dfc_context_allocation_count(raw) }

    /// Bytes held by the context.
    /// - Complexity: O(1).
    var byteCount: Int { dfc_context_sizeof(raw) }

    /// How identifiers behind equal keys are confirmed to be equal.
    enum Identity {
        /// Keys are the identifiers themselves (integers): no confirmation.
        case injective
        /// Keys are hashes of byte strings; the core compares the bytes.
        case bytes(old: ByteList, new: ByteList)
    }

    /// Identifiers as one byte buffer plus `count + 1` offsets.
    struct ByteList {
        var bytes: [UInt8]
        var offsets: [UInt64]

        /// Packs strings as UTF-8 (callers normalize first when they need to).
        /// - Complexity: O(total UTF-8 length).
        init<S: Sequence>(strings: S) where S.Element == String {
            bytes = []
            offsets = [0]
            for string in strings {
                bytes.append(contentsOf: string.utf8)
                offsets.append(UInt64(bytes.count))
            }
        }

        var count: Int { offsets.count - 1 }

        /// XXH3-64 (seed 0) of every identifier.
        /// - Complexity: O(total bytes).
        func keys(seed: UInt64 = 0) -> [UInt64] {
            guard count > 0 else { return [] }
            return [UInt64](filling: count) { buffer, initialized in
                let status = bytes.withUnsafeBytes { raw in
                    offsets.withUnsafeBufferPointer { offsets in
                        dfc_hash_bytes(raw.baseAddress, offsets.baseAddress, count, seed, buffer.baseAddress)
                    }
                }
                CoreError.require(status, "hashing")
                initialized = count
            }
        }
    }

    /// A flat diff borrowed from the context (see `dfc_flat_result`).
    struct FlatResultView {
        let deletes: UnsafeBufferPointer<UInt32>
        let inserts: UnsafeBufferPointer<UInt32>
        let moveFrom: UnsafeBufferPointer<UInt32>
        let moveTo: UnsafeBufferPointer<UInt32>
        let oldToNew: UnsafeBufferPointer<Int32>
        let newToOld: UnsafeBufferPointer<Int32>
        let matched: Int
        let commonPrefix: Int
        let commonSuffix: Int
    }

    /// One duplicate identifier: `duplicate` repeats the element at `first`.
    struct Duplicate: Equatable {
        var isNewSide: Bool
        var isSection: Bool
        var first: Int
        var duplicate: Int
    }

    /// The duplicates found by the last diff that threw `CoreError.duplicate`.
    /// - Complexity: O(number of duplicates).
    var duplicates: [Duplicate] {
        var count = 0
        guard let list = dfc_context_duplicates(raw, &count) else { return [] }
        return (0..<count).map { index in
            let entry = list[index]
            return Duplicate(
                isNewSide: entry.side == Int32(DFC_SIDE_NEW), isSection: entry.is_section != 0,
                first: Int(entry.first), duplicate: Int(entry.duplicate))
        }
    }

    /// Diffs two flat key lists and hands the borrowed result to `body`.
    ///
    /// - Parameter assumeUnique: the caller vouches that neither list has a
    ///   duplicate, which lets a diff that only differs at the ends skip hashing.
    /// - Throws: `CoreError` (`.duplicate` with details in ``duplicates``).
    /// - Complexity: O(n + m) expected plus O(k log k) for the k elements
    ///   matched between the common prefix and suffix.
    func withFlatDiff<R>(
        old: UnsafeBufferPointer<UInt64>, new: UnsafeBufferPointer<UInt64>, identity: Identity = .injective,
        assumeUnique: Bool = false, _ body: (FlatResultView) throws -> R
    ) throws -> R {
        releaseHandedOverBuffers()
        var oldList = dfc_list(keys: old.baseAddress, count: old.count, bytes: nil, offsets: nil)
        var newList = dfc_list(keys: new.baseAddress, count: new.count, bytes: nil, offsets: nil)
        var result = dfc_flat_result()
        let flags: UInt32 = assumeUnique ? UInt32(DFC_DIFF_ASSUME_UNIQUE) : 0
        let status: Int32
        switch identity {
        case .injective:
            var match = dfc_match(kind: Int32(DFC_MATCH_INJECTIVE), equal: nil, user_data: nil)
            status = dfc_diff_flat(raw, &oldList, &newList, &match, flags, &result)
        case .bytes(let oldBytes, let newBytes):
            precondition(
                oldBytes.count == old.count && newBytes.count == new.count,
                "Diffable: byte lists and key lists differ in length")
            var match = dfc_match(kind: Int32(DFC_MATCH_BYTES), equal: nil, user_data: nil)
            status = oldBytes.bytes.withUnsafeBytes { oldRaw in
                oldBytes.offsets.withUnsafeBufferPointer { oldOffsets in
                    newBytes.bytes.withUnsafeBytes { newRaw in
                        newBytes.offsets.withUnsafeBufferPointer { newOffsets in
                            oldList.bytes = oldRaw.baseAddress
                            oldList.offsets = oldOffsets.baseAddress
                            newList.bytes = newRaw.baseAddress
                            newList.offsets = newOffsets.baseAddress
                            return dfc_diff_flat(raw, &oldList, &newList, &match, flags, &result)
                        }
                    }
                }
            }
        }
        try CoreError.check(status)
        func buffer<T>(_ pointer: UnsafePointer<T>?, _ count: Int) -> UnsafeBufferPointer<T> {
            UnsafeBufferPointer(start: count == 0 ? nil : pointer, count: count)
        }
        let view = FlatResultView(
            deletes: buffer(result.deletes, result.delete_count),
            inserts: buffer(result.inserts, result.insert_count),
            moveFrom: buffer(result.move_from, result.move_count),
            moveTo: buffer(result.move_to, result.move_count),
            oldToNew: buffer(result.old_to_new, result.old_count),
            newToOld: buffer(result.new_to_old, result.new_count),
            matched: result.matched, commonPrefix: result.common_prefix, commonSuffix: result.common_suffix)
        return try body(view)
    }
}

@available(*, unavailable)
extension DiffContext: Sendable {}
