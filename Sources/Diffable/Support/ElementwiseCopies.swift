/// A collection's elements as a sequence with nothing of its own to copy them with, so that
/// an array appending it copies them one at a time in code specialized for their type (used
/// for `String` identifiers, where this was measured to pay).
///
/// An array appends another array (or a buffer) with the standard library's bulk copy, which
/// for elements that are not plain bytes (a `String`, a struct holding one) goes through the
/// runtime: `swift_arrayInitWithCopy`, one call of the type's copy function per element,
/// about 54 instructions a `String`. A sequence without its own `_copyContents` is appended
/// by the standard library's element loop instead, specialized where the element type is
/// known: each element retained inline, about 30.
@usableFromInline
struct ElementwiseCopies<Base: Collection>: Sequence {
    @usableFromInline let base: Base

    /// - Complexity: O(1).
    @inlinable
    init(_ base: Base) { self.base = base }

    /// - Complexity: as the base's.
    @inlinable
    var underestimatedCount: Int { base.underestimatedCount }

    /// - Complexity: O(1).
    @inlinable
    func makeIterator() -> Base.Iterator { base.makeIterator() }
}
