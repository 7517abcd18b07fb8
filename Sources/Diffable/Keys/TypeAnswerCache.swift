#if canImport(Synchronization) && !canImport(Darwin)
    import Synchronization
#endif

/// One small answer per type (0...3), decided on the type's first question and kept for the
/// process: for facts about identifier types that cost a runtime lookup (a cast to a protocol,
/// about 200 instructions in the CLI, measured) or a walk over the type's layout.
///
/// Asked once per snapshot operation (every `appendItems` of an app's type asks how it is
/// keyed), so the two types answered last are kept where a read takes no lock: each in one
/// atomic word, the type's metadata address with the answer in bits 0–1 and bit 2 set
/// (metadata is at least 8-byte aligned). A word is a whole entry, so relaxed loads and stores
/// cannot pair one type with another's answer. The rest go through a dictionary under a lock.
final class TypeAnswerCache: @unchecked Sendable {
    private let answers = Locked([ObjectIdentifier: UInt8]())
    private let decide: @Sendable (Any.Type) -> UInt8
    #if canImport(Synchronization) && !canImport(Darwin)
        private let recent = Atomic<UInt>(0)
        private let older = Atomic<UInt>(0)
    #endif

    /// A cache of `decide`'s yes-or-no answers. - Complexity: O(1).
    convenience init(_ decide: @escaping @Sendable (Any.Type) -> Bool) { self.init(choosing: { decide($0) ? 1 : 0 }) }

    /// A cache of `decide`'s answers, each in 0...3. - Complexity: O(1).
    init(choosing decide: @escaping @Sendable (Any.Type) -> UInt8) { self.decide = decide }

    /// Whether `choice(for:)` is not 0: the answer of a yes-or-no cache.
    /// - Complexity: as ``choice(for:)``.
    func answer(for type: Any.Type) -> Bool { choice(for: type) != 0 }

    /// `decide(type)`, computed once per type.
    /// - Complexity: O(1): two atomic loads for the two types asked last; otherwise one
    ///   dictionary lookup under a lock, plus `decide` on a type's first call.
    func choice(for type: Any.Type) -> UInt8 {
        let address = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
        #if canImport(Synchronization) && !canImport(Darwin)
            let first = recent.load(ordering: .relaxed)
            if first & ~7 == address { return UInt8(first & 3) }
            let second = older.load(ordering: .relaxed)
            if second & ~7 == address { return UInt8(second & 3) }
        #endif
        let id = ObjectIdentifier(type)
        let known = answers.withLock { $0[id] }
        let answer = known ?? decide(type)
        precondition(answer <= 3, "Diffable: a type's cached answer must fit two bits (got \(answer))")
        if known == nil { answers.withLock { $0[id] = answer } }
        #if canImport(Synchronization) && !canImport(Darwin)
            older.store(recent.load(ordering: .relaxed), ordering: .relaxed)
            recent.store(address | 4 | UInt(answer), ordering: .relaxed)
        #endif
        return answer
    }
}
