extension UnsafeBufferPointer {
    /// `map` written as a loop over the buffer. In code not specialized for the element types
    /// (an app's own identifier type reaches the library that way), the standard `map` reads
    /// each element through the collection's `read` coroutine, whose frame is allocated on the
    /// heap: one malloc per element, which made building a snapshot of 10^3 struct
    /// identifiers cost about two mallocs per item. Callers pass a closure, not a key path:
    /// applying a key path there (`\.id`) cost about 900 instructions per element.
    /// - Complexity: O(count) calls of `transform`.
    @inlinable @inline(__always)
    func mapped<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        try [T](filling: count) { results, initialized in
            for index in indices {
                results.initializeElement(at: index, to: try transform(self[index]))
                initialized = index + 1
            }
        }
    }
}

extension Array {
    /// `map` without a heap allocation per element in unspecialized code
    /// (see `UnsafeBufferPointer.mapped(_:)`).
    /// - Complexity: O(count) calls of `transform`.
    @inlinable @inline(__always)
    func mapped<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        try withUnsafeBufferPointer { try $0.mapped(transform) }
    }
}

extension ContiguousArray {
    /// `map` without a heap allocation per element in unspecialized code
    /// (see `UnsafeBufferPointer.mapped(_:)`).
    /// - Complexity: O(count) calls of `transform`.
    @inlinable @inline(__always)
    func mapped<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        try withUnsafeBufferPointer { try $0.mapped(transform) }
    }
}
