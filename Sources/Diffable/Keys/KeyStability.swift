@_spi(Reflection) import Swift

/// Whether a stored identifier's user-made key (its `hashValue`, its `identifierKey`, or the
/// key of a ``KeyedByID`` value's `id`, which may be computed from any field) can
/// change while a snapshot holds it: what decides if the data source's per-apply check
/// (``DiffableDiagnostics`` reporting `inconsistentHashing`) can find anything.
///
/// A snapshot holds its own copy of each identifier. A copy whose bytes reach no reference
/// (a trivial type: integers, floating point, `UUID`, a struct of such) cannot be changed by
/// anyone, and neither can a `String`, `Substring` or `Character`, whose storage is immutable
/// once shared. So the key of such a value changes only if its `hash(into:)` or
/// `identifierKey` gives different results for the same bytes, which the explicit
/// `init(validating:)` checks catch (they key every identifier twice). A class, an
/// existential, a closure, or a struct or enum holding one can reach state that changes after
/// the value is stored: those are the types the per-apply check exists for.
///
/// Decided from the type's layout (the runtime's field records), once per type per process.
enum KeyStability {
    /// Whether the key of a stored `type` value can change (conservatively true when unsure).
    /// - Complexity: O(fields, recursively) on a type's first call, then O(1)
    ///   (``TypeAnswerCache/answer(for:)``).
    static func keyCanChange(_ type: Any.Type) -> Bool { answers.answer(for: type) }

    private static let answers = TypeAnswerCache { !bytesAreFinal($0) }

    /// The standard library's value types whose storage is immutable once shared, beside the
    /// trivial ones.
    private static let immutableValueTypes: Set<ObjectIdentifier> = [
        ObjectIdentifier(String.self), ObjectIdentifier(Substring.self), ObjectIdentifier(Character.self),
    ]

    /// Whether no one can change a stored `type` value: a trivial type, an immutable standard
    /// type, or a struct or tuple all of whose fields are. Enums count only when trivial: the
    /// runtime lists no payload fields for them.
    /// - Complexity: O(fields, recursively).
    static func bytesAreFinal(_ type: Any.Type) -> Bool {
        if isTrivial(type) || immutableValueTypes.contains(ObjectIdentifier(type)) { return true }
        // The type's own kind: as the one field of a wrapper struct.
        var kind: _MetadataKind?
        _ = _forEachField(of: wrapper(of: type), options: []) { _, _, _, fieldKind in
            kind = fieldKind
            return false
        }
        guard kind == .struct || kind == .tuple else { return false }
        return _forEachField(of: type, options: []) { _, _, fieldType, _ in bytesAreFinal(fieldType) }
    }

    private struct Wrapper<T> { var value: T }

    private static func wrapper(of type: Any.Type) -> Any.Type {
        func open<T>(_: T.Type) -> Any.Type { Wrapper<T>.self }
        return _openExistential(type, do: open)
    }

    private static func isTrivial(_ type: Any.Type) -> Bool {
        func open<T>(_: T.Type) -> Bool { _isPOD(T.self) }
        return _openExistential(type, do: open)
    }
}
