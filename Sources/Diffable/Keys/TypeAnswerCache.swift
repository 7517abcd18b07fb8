#if canImport(Synchronization) && !canImport(Darwin)
    import Synchronization
#endif

/// One yes-or-no answer per type, decided on the type's first question and kept for the
/// process: for facts about identifier types that cost a runtime lookup (a cast to a protocol,
/// about 200 instructions in the CLI, measured) or a walk over the type's layout.
///
/// Asked once per snapshot operation (every `appendItems` of a type keyed by its `hashValue`
/// asks whether it provides its own key), so the two types answered last are kept where a
/// read takes no lock: each in one atomic word, the type's metadata address with the answer
/// in bit 0 and bit 1 set (metadata is at least 8-byte aligned). A word is a whole entry, so
/// relaxed loads and stores cannot pair one type with another's answer. The rest go through a
/// dictionary under a lock.
final class TypeAnswerCache: @unchecked Sendable {
    private let answers = Locked([ObjectIdentifier: Bool]())
    private let decide: @Sendable (Any.Type) -> Bool
    #if canImport(Synchronization) && !canImport(Darwin)
        private let recent = Atomic<UInt>(0)
        private let older = Atomic<UInt>(0)
    #endif

    /// A cache of `decide`'s answers. - Complexity: O(1).
    init(_ decide: @escaping @Sendable (Any.Type) -> Bool) { self.decide = decide }

    /// `decide(type)`, computed once per type.
    /// - Complexity: O(1): two atomic loads for the two types asked last; otherwise one
    ///   dictionary lookup under a lock, plus `decide` on a type's first call.
    func answer(for type: Any.Type) -> Bool {
        let address = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
        #if canImport(Synchronization) && !canImport(Darwin)
            let first = recent.load(ordering: .relaxed)
            if first & ~3 == address { return first & 1 != 0 }
            let second = older.load(ordering: .relaxed)
            if second & ~3 == address { return second & 1 != 0 }
        #endif
        let id = ObjectIdentifier(type)
        let known = answers.withLock { $0[id] }
        let answer = known ?? decide(type)
        if known == nil { answers.withLock { $0[id] = answer } }
        #if canImport(Synchronization) && !canImport(Darwin)
            older.store(recent.load(ordering: .relaxed), ordering: .relaxed)
            recent.store(address | 2 | (answer ? 1 : 0), ordering: .relaxed)
        #endif
        return answer
    }
}
