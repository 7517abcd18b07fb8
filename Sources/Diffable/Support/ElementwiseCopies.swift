/// A collection's elements as a sequence that copies them into an array's new storage one at a
/// time, in code specialized for their type (used for `String` identifiers).
///
/// An array appends another array (or a buffer) with the standard library's bulk copy, which
/// for elements that are not plain bytes goes through the runtime: `swift_arrayInitWithCopy`,
/// one call of the type's copy function per element, about 54 instructions a `String`. Appending
/// this sequence instead hands the array's uninitialized storage to
/// ``_copyContents(initializing:)``, whose loop initializes each string in place with its copy
/// inlined (a retain and two moves): 643,139 → 639,060 instructions for a `String` change at
/// 10^3, against iterating one `next()` at a time, which the array does for a sequence without
/// a `_copyContents` of its own. Not for an app's model value (a `UUID`, a `String`, a flag):
/// the copy the compiler outlines for it cost more than the runtime's (matching such values by
/// `id` at 10^3, 782,611 → 807,277 instructions an apply).
@usableFromInline
struct ElementwiseCopies<Base: Collection>: Sequence {
    @usableFromInline let base: Base

    /// - Complexity: O(1).
    @inlinable
    init(_ base: Base) { self.base = base }

    /// - Complexity: as the base's.
    @inlinable
    var underestimatedCount: Int { base.underestimatedCount }

    /// The base's elements from `position` on.
    @usableFromInline
    struct Iterator: IteratorProtocol {
        @usableFromInline let base: Base
        @usableFromInline var position: Base.Index

        /// - Complexity: O(1).
        @inlinable
        init(_ base: Base, at position: Base.Index) {
            self.base = base
            self.position = position
        }

        /// - Complexity: O(1) for the arrays appended.
        @inlinable
        mutating func next() -> Base.Element? {
            guard position != base.endIndex else { return nil }
            defer { base.formIndex(after: &position) }
            return base[position]
        }
    }

    /// - Complexity: O(1).
    @inlinable
    func makeIterator() -> Iterator { Iterator(base, at: base.startIndex) }

    /// Initializes the first elements of `buffer` with copies of the base's, as many as fit,
    /// and returns an iterator over the rest and how many were copied.
    /// - Complexity: O(buffer.count) for a base with contiguous storage; otherwise O(n) in
    ///   the base's own index steps.
    @inlinable
    func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Base.Element>) -> (Iterator, Int) {
        guard let target = buffer.baseAddress else { return (makeIterator(), 0) }
        let contiguous: Int? = base.withContiguousStorageIfAvailable { source in
            let count = Swift.min(source.count, buffer.count)
            guard let from = source.baseAddress else { return 0 }
            for offset in 0..<count { (target + offset).initialize(to: from[offset]) }
            return count
        }
        if let contiguous { return (Iterator(base, at: base.index(base.startIndex, offsetBy: contiguous)), contiguous) }
        var position = base.startIndex, copied = 0
        while copied < buffer.count && position != base.endIndex {
            (target + copied).initialize(to: base[position])
            base.formIndex(after: &position)
            copied += 1
        }
        return (Iterator(base, at: position), copied)
    }
}
