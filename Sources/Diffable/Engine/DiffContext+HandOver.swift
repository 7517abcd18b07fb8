internal import CDiffCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The memory of one ``DiffContext``: its allocator hooks, what it holds, and the result arrays
/// it handed over to a difference.
///
/// A diff's outputs (item maps, packed index paths) live in the context's buffers. A context
/// too large to be kept for another diff hands those buffers to the difference instead of
/// having them copied while its scratch tables are still allocated: at 10^7 moves the copies
/// were 240 MB on top of the whole workspace. The context then must not release nor reuse
/// them: ``release(_:)`` skips a handed-over block, and the context releases all its buffers
/// before its next diff (``DiffContext/releaseHandedOverBuffers()``).
///
/// Used from the thread that uses the context (C calls it back there), like the context.
final class ContextAllocations {
    /// Blocks the context holds, with their sizes in bytes.
    private var live: [UnsafeMutableRawPointer: Int] = [:]
    /// Blocks handed over, which the context still names among its buffers.
    private var handedOver: Set<UnsafeMutableRawPointer> = []

    /// Whether a block was handed over since the context last released its buffers.
    /// - Complexity: O(1).
    var hasHandedOver: Bool { !handedOver.isEmpty }

    /// A block of `size` bytes, or nil, from the core's default allocator (its huge-page policy
    /// for large blocks, so one policy holds for every diff's memory).
    /// - Complexity: O(1) expected besides the allocator.
    func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        let allocator = dfc_default_allocator().pointee
        let block = allocator.allocate(allocator.user_data, size)
        if let block { live[block] = size }
        return block
    }

    /// Frees `pointer` unless it was handed over (then only forgets it).
    /// - Complexity: O(1) expected besides the allocator.
    func release(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        if handedOver.remove(pointer) != nil { return }
        live[pointer] = nil
        let allocator = dfc_default_allocator().pointee
        allocator.release(allocator.user_data, pointer)
    }

    /// Takes the block that starts at `pointer` when it holds at least `bytes` bytes: it is
    /// the caller's from now on (freed when the returned owner goes). Nil when `pointer` does
    /// not start a block of the context (the caller then copies).
    /// - Complexity: O(1) expected.
    func takeBlock(at pointer: UnsafeRawPointer?, bytes: Int) -> HandedOverMemory? {
        guard let pointer else { return nil }
        let block = UnsafeMutableRawPointer(mutating: pointer)
        guard let size = live[block], size >= bytes else { return nil }
        live[block] = nil
        handedOver.insert(block)
        return HandedOverMemory(block)
    }

    /// The size of the block that starts at `pointer`, or nil. - Complexity: O(1) expected.
    func blockSize(at pointer: UnsafeRawPointer) -> Int? { live[UnsafeMutableRawPointer(mutating: pointer)] }

    /// The hooks the C context calls, reaching `self` through their user data (the context
    /// keeps `self` alive). - Complexity: O(1).
    func allocator() -> dfc_allocator {
        dfc_allocator(
            allocate: { userData, size in
                Unmanaged<ContextAllocations>.fromOpaque(userData!).takeUnretainedValue().allocate(size)
            },
            release: { userData, pointer in
                Unmanaged<ContextAllocations>.fromOpaque(userData!).takeUnretainedValue().release(pointer)
            },
            user_data: Unmanaged.passUnretained(self).toOpaque())
    }
}

/// One block a diff context handed over, freed with the last reference to it.
final class HandedOverMemory: @unchecked Sendable {
    let base: UnsafeMutableRawPointer

    /// - Complexity: O(1).
    init(_ base: UnsafeMutableRawPointer) { self.base = base }

    deinit { free(base) }
}

/// The copies of a diff's results that no context handed over, in one allocation with the
/// object that owns them (a block of their own beside its owner was one allocation more).
final class CopiedResultMemory: ManagedBuffer<Void, UInt64> {
    /// Room for `bytes` bytes, 8-aligned.
    /// - Complexity: O(1) besides the allocator.
    static func make(bytes: Int) -> CopiedResultMemory {
        unsafeDowncast(create(minimumCapacity: (bytes + 7) / 8) { _ in }, to: CopiedResultMemory.self)
    }

    /// The first byte, valid while the object lives (its elements never move).
    /// - Complexity: O(1).
    var base: UnsafeMutableRawPointer { withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) } }
}

/// A read-only array of a diff's results: a Swift array, or `count` elements of a block a
/// diff context handed over or of the result's copies (never copied again).
struct ResultArray<Element>: RandomAccessCollection, @unchecked Sendable {
    private let array: [Element]
    private let memory: UnsafePointer<Element>?
    /// What keeps `memory` alive: a ``HandedOverMemory`` or a ``CopiedResultMemory``.
    private let owner: AnyObject?
    let endIndex: Int

    /// - Complexity: O(1).
    init(_ array: [Element]) {
        (self.array, memory, owner, endIndex) = (array, nil, nil, array.count)
    }

    /// The first `count` elements of `memory` (which must hold them, initialized).
    /// - Complexity: O(1).
    init(_ memory: HandedOverMemory, count: Int) {
        self.init(owner: memory, base: memory.base, count: count)
    }

    /// The `count` elements of `memory` from `byteOffset` on (which must hold them,
    /// initialized): the copies of one result share it.
    /// - Complexity: O(1).
    init(_ memory: CopiedResultMemory, byteOffset: Int, count: Int) {
        self.init(owner: memory, base: memory.base + byteOffset, count: count)
    }

    private init(owner: AnyObject, base: UnsafeMutableRawPointer, count: Int) {
        array = []
        memory = UnsafePointer(base.bindMemory(to: Element.self, capacity: count))
        self.owner = owner
        endIndex = count
    }

    var startIndex: Int { 0 }

    /// Runs `body` on the elements in place (the array's buffer or the handed-over block).
    /// - Complexity: O(1) plus `body`.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        if let memory { return try body(UnsafeBufferPointer(start: memory, count: endIndex)) }
        return try array.withUnsafeBufferPointer(body)
    }

    /// - Complexity: O(1).
    subscript(position: Int) -> Element {
        if let memory {
            precondition(position >= 0 && position < endIndex, "ResultArray index out of range")
            return memory[position]
        }
        return array[position]
    }
}
