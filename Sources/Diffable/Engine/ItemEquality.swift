/// An identifier type's `==` compiled in the caller's module, where the type is known: what
/// the diff's equality oracle calls to confirm a key match of identifiers the library was not
/// compiled for (an app's own structs and enums), instead of its unspecialized comparison
/// (each identifier copied through its value witness, `==` through the witness table).
///
/// A class whose closure is a `let`: the oracle calls it through a borrowed reference, so a
/// confirmation retains nothing (a closure read out of plain memory is retained per call).
@usableFromInline
final class ItemEquality {
    /// Whether the identifiers at the two addresses are equal.
    @usableFromInline let equal: (UnsafeRawPointer, UnsafeRawPointer) -> Bool

    @inlinable
    init(_ equal: @escaping (UnsafeRawPointer, UnsafeRawPointer) -> Bool) { self.equal = equal }

    /// The caller's `==` for `type`, or nil when the library confirms its matches itself:
    /// integers (their keys are the identifiers), and `String` and `UUID`, whose comparisons
    /// it has specialized.
    /// - Complexity: O(1).
    @inlinable
    static func forIdentifiers<T: Equatable>(_ type: T.Type) -> ItemEquality? {
        switch KeyStrategy.of(type) {
        case .hashValue, .provided, .bytes:
            ItemEquality { $0.assumingMemoryBound(to: T.self).pointee == $1.assumingMemoryBound(to: T.self).pointee }
        default: nil
        }
    }
}

@available(*, unavailable)
extension ItemEquality: Sendable {}
