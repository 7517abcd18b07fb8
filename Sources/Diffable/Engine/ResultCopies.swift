/// The arrays of a diff's result copied out of its context, laid out in as few allocations as
/// is safe: while the result is small, all of them in one block (five arrays of their own were
/// five allocations and five releases, about 5% of an app's change at 10^2 items); once it is
/// large, each in a block of its own, as separate arrays were, so that an app keeping a batch
/// (its paths) does not keep the maps alive (8 MB at 10^6 items), and the heap sees the blocks
/// it saw before (one 80 KB block for the two maps at 10^4 items made glibc give its heap top
/// back and fault it in again: 10 more page faults a change).
///
/// Use: ``add(_:count:)`` each array, ``allocate()`` once, then ``copy(_:count:into:at:)`` and
/// ``array(_:)``.
struct ResultCopies {
    /// One array's place: its offset in the shared block, or its own block.
    struct Part {
        let count: Int
        fileprivate let bytes: Int
        fileprivate let offset: Int
        fileprivate let index: Int
    }

    /// Results up to this size share one block.
    static var sharedBlockLimit: Int { 64 * 1024 }

    private var bytes = 0, parts = 0
    private var shared: CopiedResultMemory?
    /// The shared block's first byte, read by the copies without touching its reference.
    private var sharedBase: UnsafeMutableRawPointer?
    /// A large result's blocks, by part (made on first use).
    private var own: [CopiedResultMemory?] = []

    /// The place of an array of `count` elements, after those added before (8-aligned).
    /// - Complexity: O(1).
    mutating func add<T>(_: T.Type, count: Int) -> Part {
        let size = count * MemoryLayout<T>.stride
        defer {
            bytes += (size + 7) & ~7
            parts += 1
        }
        return Part(count: count, bytes: size, offset: bytes, index: parts)
    }

    /// Allocates the shared block of a small result, or the table of a large one's blocks.
    /// - Complexity: O(1) besides the allocator.
    mutating func allocate() {
        guard bytes > 0 else { return }
        if bytes <= Self.sharedBlockLimit {
            shared = CopiedResultMemory.make(bytes: bytes)
            sharedBase = shared?.base
        } else {
            own = Array(repeating: nil, count: parts)
        }
    }

    /// `part`'s block and the offset of its first byte in it (nil for an empty part).
    private mutating func place(_ part: Part) -> (block: CopiedResultMemory, offset: Int)? {
        guard part.count > 0 else { return nil }
        if let shared { return (shared, part.offset) }
        guard part.index < own.count else { return nil }
        if let block = own[part.index] { return (block, 0) }
        let block = CopiedResultMemory.make(bytes: part.bytes)
        own[part.index] = block
        return (block, 0)
    }

    /// Copies `count` elements from `source` into `part` from element `index` on.
    /// - Complexity: O(count).
    mutating func copy<T>(_ source: UnsafePointer<T>?, count: Int, into part: Part, at index: Int = 0) {
        guard count > 0, let source else { return }
        precondition(index + count <= part.count, "ResultCopies: a copy past its part")
        let destination: UnsafeMutableRawPointer
        if let sharedBase {
            destination = sharedBase + part.offset
        } else {
            guard let place = place(part) else { return }
            destination = place.block.base + place.offset
        }
        (destination + index * MemoryLayout<T>.stride).copyMemory(from: source, byteCount: count * MemoryLayout<T>.stride)
    }

    /// The array of `part`, reading its block (empty for no elements).
    /// - Complexity: O(1).
    mutating func array<T>(_ part: Part) -> ResultArray<T> {
        guard let place = place(part) else { return ResultArray([]) }
        return ResultArray(place.block, byteOffset: place.offset, count: part.count)
    }
}
