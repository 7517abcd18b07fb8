/// One yes-or-no answer per type, decided on the type's first question and kept for the
/// process: for the facts about identifier types that the runtime answers slowly (a
/// conformance the type lacks is looked up again on every cast, scanning the conformance
/// records: about 55,000 instructions a time, measured) or that take a walk over the type's
/// layout.
final class TypeAnswerCache: @unchecked Sendable {
    private let answers = Locked([ObjectIdentifier: Bool]())
    private let decide: @Sendable (Any.Type) -> Bool

    /// A cache of `decide`'s answers. - Complexity: O(1).
    init(_ decide: @escaping @Sendable (Any.Type) -> Bool) { self.decide = decide }

    /// `decide(type)`, computed once per type.
    /// - Complexity: one dictionary lookup under a lock, plus `decide` on a type's first call.
    func answer(for type: Any.Type) -> Bool {
        let id = ObjectIdentifier(type)
        if let known = answers.withLock({ $0[id] }) { return known }
        let decided = decide(type)
        answers.withLock { $0[id] = decided }
        return decided
    }
}
