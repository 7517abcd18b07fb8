/// The arrays of a diff's result copied out of its context, laid out in as few allocations as
/// memory allows: all of them in one block while the result is small (five arrays of their own
/// were five allocations and five releases, about 5% of an app's change at 10^2 items), the
/// paths apart from the maps once it is large, so that an app keeping a batch (its paths) does
/// not keep the maps alive (8 MB at 10^6 items).
///
/// Use: ``add(_:count:)`` each array, ``allocate(keepingApart:)`` once, then ``copy(_:count:into:at:)``
/// and ``array(_:)``.
struct ResultCopies {
    /// One array's place: in the first block or the second, at a byte offset.
    struct Part {
        let count: Int
        fileprivate let bytes: Int
        fileprivate let offset: Int
    }

    /// Results up to this size share one block with their paths.
    static var sharedBlockLimit: Int { 64 * 1024 }

    private var bytes = 0, apartBytes = 0
    private var first: CopiedResultMemory?, second: CopiedResultMemory?
    /// The blocks' first bytes, read by the copies without touching the blocks' references.
    private var firstBase: UnsafeMutableRawPointer?, secondBase: UnsafeMutableRawPointer?

    /// The place of an array of `count` elements, after those added before (8-aligned).
    /// - Complexity: O(1).
    mutating func add<T>(_: T.Type, count: Int) -> Part {
        let size = count * MemoryLayout<T>.stride
        defer { bytes += (size + 7) & ~7 }
        return Part(count: count, bytes: size, offset: bytes)
    }

    /// Allocates the blocks: one for everything, or, above ``sharedBlockLimit``, `apart` (the
    /// first part added) alone and the rest in a second block.
    /// - Complexity: O(1) besides the allocator.
    mutating func allocate(keepingApart apart: Part) {
        precondition(apart.offset == 0, "ResultCopies: the part kept apart must be the first added")
        guard bytes > 0 else { return }
        if bytes <= Self.sharedBlockLimit || apart.bytes == 0 || apart.bytes == bytes {
            first = CopiedResultMemory.make(bytes: bytes)
        } else {
            apartBytes = (apart.bytes + 7) & ~7
            first = CopiedResultMemory.make(bytes: apartBytes)
            second = CopiedResultMemory.make(bytes: bytes - apartBytes)
        }
        firstBase = first?.base
        secondBase = second?.base
    }

    /// Whether `part` lives in the second block (at its offset less the first block's size).
    @inline(__always)
    private func isInSecondBlock(_ part: Part) -> Bool { second != nil && part.offset >= apartBytes }

    /// Copies `count` elements from `source` into `part` from element `index` on.
    /// - Complexity: O(count).
    func copy<T>(_ source: UnsafePointer<T>?, count: Int, into part: Part, at index: Int = 0) {
        guard count > 0, let source else { return }
        precondition(index + count <= part.count, "ResultCopies: a copy past its part")
        let second = isInSecondBlock(part)
        guard let base = second ? secondBase : firstBase else { return }
        let offset = (second ? part.offset - apartBytes : part.offset) + index * MemoryLayout<T>.stride
        (base + offset).copyMemory(from: source, byteCount: count * MemoryLayout<T>.stride)
    }

    /// The array of `part`, reading its block (empty for no elements).
    /// - Complexity: O(1).
    func array<T>(_ part: Part) -> ResultArray<T> {
        guard part.count > 0 else { return ResultArray([]) }
        if isInSecondBlock(part), let second { return ResultArray(second, byteOffset: part.offset - apartBytes, count: part.count) }
        guard let first else { return ResultArray([]) }
        return ResultArray(first, byteOffset: part.offset, count: part.count)
    }
}
