extension Array {
    /// `init(unsafeUninitializedCapacity:initializingWith:)` that always writes to storage of its
    /// own: asked for no element, the standard initializer writes the count of Swift's one shared
    /// empty array, a data race when two threads do it (ThreadSanitizer reports it on Linux). Room
    /// for one element is reserved instead; `body` runs either way.
    /// - Complexity: O(count) plus `body`.
    @inlinable @inline(__always)
    init(filling count: Int, _ body: (inout UnsafeMutableBufferPointer<Element>, inout Int) throws -> Void) rethrows {
        try self.init(unsafeUninitializedCapacity: Swift.max(count, 1), initializingWith: body)
    }
}
