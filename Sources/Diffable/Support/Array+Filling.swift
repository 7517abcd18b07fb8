extension Array {
    /// `init(unsafeUninitializedCapacity:initializingWith:)`, cheaper for small arrays and always
    /// writing to storage of its own.
    ///
    /// - Small arrays of trivial elements (up to 1 KiB) are filled in a temporary buffer on the
    ///   stack and copied into an array made by specialized code (elements that hold references
    ///   would be retained by the copy and released after it: not worth it). The standard initializer allocates its
    ///   buffer in a function it never inlines (`_allocateBufferUninitialized`), which runs
    ///   unspecialized and looks up the metadata of the array's storage class on every call:
    ///   about 600 instructions, where copying 1 KiB costs a few dozen.
    /// - Asked for no element, the standard initializer writes the count of Swift's one shared
    ///   empty array, a data race when two threads do it (ThreadSanitizer reports it on Linux).
    ///   Room for one element is reserved instead; `body` runs either way.
    /// - Complexity: O(count) plus `body`.
    @inlinable @inline(__always)
    init(filling count: Int, _ body: (inout UnsafeMutableBufferPointer<Element>, inout Int) throws -> Void) rethrows {
        let capacity = Swift.max(count, 1)
        guard _isPOD(Element.self), capacity &* MemoryLayout<Element>.stride <= 1024 else {
            try self.init(unsafeUninitializedCapacity: capacity, initializingWith: body)
            return
        }
        self = try withUnsafeTemporaryAllocation(of: Element.self, capacity: capacity) { buffer in
            var filled = buffer, initialized = 0
            // Trivial elements: nothing to deinitialize, whether `body` returns or throws.
            try body(&filled, &initialized)
            precondition(filled.baseAddress == buffer.baseAddress, "Array(filling:): the buffer was replaced")
            return Array(UnsafeBufferPointer(rebasing: buffer[..<initialized]))
        }
    }
}
