/// A reusable engine for diffing flat lists of unique identifiers, for hot paths.
///
/// It wraps one C diff context: scratch memory grows to what the largest diff so far
/// needed (size and shape both count) and is reused, so once warm a diff allocates only
/// its result arrays. Use one
/// `ListDiffer` per thread; it is deliberately not `Sendable`.
///
/// ```swift
/// let differ = ListDiffer()
/// let change = try differ.difference(from: [1, 2, 3, 4], to: [2, 3, 4, 1, 5])
/// // change.moves == [.init(from: 0, to: 3)], change.inserts == [4]
/// ```
public final class ListDiffer {
    let context = DiffContext()
    /// The keys of the last `[String]` diff's lists, kept for the next one.
    var stringKeys = StringKeyScratch()

    /// Creates a differ with an empty workspace.
    /// - Complexity: O(1).
    public init() {}

    /// Bytes of scratch memory the differ holds.
    /// - Complexity: O(1).
    public var workspaceByteCount: Int { context.byteCount + stringKeys.byteCount }

    /// Allocations the workspace has made since creation (constant once warm).
    /// - Complexity: O(1).
    public var workspaceAllocationCount: UInt64 { context.allocationCount }

    /// Diffs two lists of integer identifiers (the integers are the keys: no hashing).
    ///
    /// - Parameters:
    ///   - old: the list before.
    ///   - new: the list after.
    ///   - assumeUnique: pass `true` only when you know neither list has
    ///     a duplicate; a diff that changes only the ends then skips hashing entirely.
    /// - Throws: ``ListDifferenceError`` naming every duplicate and its positions.
    /// - Complexity: O(*n* + *m*) expected plus O(*k* log *k*), *k* being the
    ///   elements matched between the common prefix and suffix.
    public func difference<T: FixedWidthInteger>(
        from old: [T], to new: [T], assumeUnique: Bool = false
    ) throws(ListDifferenceError) -> ListDifference {
        // The per-type key strategy reads the integers directly; a generic
        // `UInt64(truncatingIfNeeded:)` would allocate per element when unspecialized.
        let strategy = KeyStrategy.of(T.self)
        let oldKeys: [UInt64], newKeys: [UInt64]
        if strategy.isInjective {
            (oldKeys, newKeys) = (strategy.keys(old), strategy.keys(new))
        } else {
            // An integer type of its own: its value is still its key while it fits in 64 bits.
            precondition(T.bitWidth <= 64, "Diffable: ListDiffer keys integers of at most 64 bits; \(T.self) is wider")
            (oldKeys, newKeys) = (old.map { UInt64(truncatingIfNeeded: $0) }, new.map { UInt64(truncatingIfNeeded: $0) })
        }
        return try difference(fromKeys: oldKeys, toKeys: newKeys, identity: .injective, assumeUnique: assumeUnique) {
            side, index in "\(side == .old ? old[index] : new[index])"
        }
    }

    /// Diffs two lists of string identifiers. Strings are compared as Swift
    /// does (canonical equivalence): keys are XXH3-64 of their NFC UTF-8.
    ///
    /// - Parameters:
    ///   - old: the list before.
    ///   - new: the list after.
    ///   - assumeUnique: pass `true` only when you know neither list has a duplicate;
    ///     strings the new list shares with the old one (the same `String` values) are then
    ///     paired by their bits, without being hashed.
    /// - Throws: ``ListDifferenceError`` naming every duplicate and its positions.
    /// - Complexity: O(total UTF-8 length) to key, then as the integer variant, plus one
    ///   `==` per matched pair.
    public func difference(from old: [String], to new: [String], assumeUnique: Bool = false)
        throws(ListDifferenceError) -> ListDifference
    {
        try difference(from: old, to: new, assumeUnique: assumeUnique, pairKeyBase: StringPairKeys.defaultBase)
    }

    /// The `[String]` diff with the made-up keys of shared strings starting at `pairKeyBase`
    /// (`StringPairKeys`; a test makes one meet a real key).
    /// - Complexity: as the public `[String]` variant.
    func difference(from old: [String], to new: [String], assumeUnique: Bool, pairKeyBase: UInt64)
        throws(ListDifferenceError) -> ListDifference
    {
        // Keys first, trusted as identities, and every match confirmed with `==` afterwards:
        // one pass over the matches instead of copying every string's bytes for the core to
        // compare. Equal keys of unequal strings (a hash collision, about 2^-64 per pair) show
        // up as a failed confirmation or a duplicate; the byte-confirmed diff then decides.
        // Lists vouched free of repeats skip the keys of the strings they share
        // (StringPairKeys); a validated diff needs every string's own key to find repeats.
        let pairBase = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new -> UInt64? in
                if assumeUnique {
                    let unambiguous = StringPairKeys.write(old: old, new: new, base: pairKeyBase, into: &stringKeys)
                    return unambiguous ? pairKeyBase : nil
                }
                stringKeys.writeCanonicalKeys(old: old, new: new)
                return nil
            }
        }
        if let confirmed = try? stringKeys.withKeys(
            old: old.count, new: new.count,
            { oldKeys, newKeys in
                try confirmedKeyDifference(from: old, to: new, keys: oldKeys, newKeys, pairBase: pairBase, assumeUnique: assumeUnique)
            })
        {
            return confirmed
        }
        return try byteConfirmedDifference(from: old, to: new, assumeUnique: assumeUnique)
    }

    /// The diff of `old` and `new` by their keys, or nil when two unequal strings share a key.
    /// Throws when the keys repeat (a real duplicate or a collision: the caller decides).
    /// `pairBase`: where the made-up keys of strings paired by their bits start, when no
    /// canonical key fell among them (`StringPairKeys`).
    /// - Complexity: as the integer variant, plus one `==` per matched pair.
    private func confirmedKeyDifference(
        from old: [String], to new: [String], keys oldKeys: UnsafeBufferPointer<UInt64>, _ newKeys: UnsafeBufferPointer<UInt64>,
        pairBase: UInt64?, assumeUnique: Bool
    ) throws -> ListDifference? {
        try context.withFlatDiff(old: oldKeys, new: newKeys, identity: .injective, assumeUnique: assumeUnique) {
            view -> ListDifference? in
            let equal = old.withUnsafeBufferPointer { old in
                new.withUnsafeBufferPointer { Self.matchesAreEqual(old: old, new: $0, newKeys: newKeys, pairBase: pairBase, view: view) }
            }
            return equal ? ListDifference(view) : nil
        }
    }

    /// Whether every pair the core matched on keys holds equal strings, each pair matched
    /// both ways. A shared key could have given one old string two partners: then fewer old
    /// strings are matched than new ones (the old one's entry names only its last partner),
    /// which the counts tell without reading the maps. A pair on a made-up key (old string
    /// `i` keyed `pairBase + i`, which its partner's key equals) was paired by its bits and
    /// needs no look at the strings; the same `String` value on both sides is equal without a
    /// call (`StringPairKeys.sameBits`). The maps and the new keys are read in order, the old
    /// strings only for pairs on canonical keys.
    /// - Complexity: O(m), one `==` per matched pair whose values differ in their bits.
    private static func matchesAreEqual(
        old: UnsafeBufferPointer<String>, new: UnsafeBufferPointer<String>, newKeys: UnsafeBufferPointer<UInt64>, pairBase: UInt64?,
        view: DiffContext.FlatResultView
    ) -> Bool {
        guard old.count - view.deletes.count == view.matched else { return false }
        guard let oldBits = UnsafeRawPointer(old.baseAddress), let newBits = UnsafeRawPointer(new.baseAddress) else { return true }
        let newToOld = view.newToOld
        // Without made-up keys, an empty range of them.
        let (base, pairs) = pairBase.map { ($0, UInt64(truncatingIfNeeded: old.count)) } ?? (0, 0)
        for position in newToOld.indices {
            let partner = Int(newToOld[position])
            if partner < 0 { continue }
            let offset = newKeys[position] &- base
            if offset < pairs && offset == UInt64(truncatingIfNeeded: partner) { continue }
            if !StringPairKeys.sameBits(oldBits, partner, newBits, position) && old[partner] != new[position] { return false }
        }
        return true
    }

    /// The diff with every key match confirmed by the core on the NFC bytes: exact whatever
    /// the keys, and the path that names duplicates.
    /// - Complexity: O(total UTF-8 length), then as the integer variant.
    private func byteConfirmedDifference(from old: [String], to new: [String], assumeUnique: Bool)
        throws(ListDifferenceError) -> ListDifference
    {
        let oldBytes = DiffContext.ByteList(strings: old.lazy.map(CanonicalString.nfc))
        let newBytes = DiffContext.ByteList(strings: new.lazy.map(CanonicalString.nfc))
        return try difference(
            fromKeys: oldBytes.keys(), toKeys: newBytes.keys(), identity: .bytes(old: oldBytes, new: newBytes),
            assumeUnique: assumeUnique
        ) { side, index in (side == .old ? old[index] : new[index]).debugDescription }
    }

    /// Diffs two lists given as precomputed 64-bit keys that are the identifiers
    /// themselves (injective), e.g. database row ids.
    /// - Complexity: as ``difference(from:to:assumeUnique:)-([T],_,_)``.
    public func difference(fromKeys old: [UInt64], toKeys new: [UInt64], assumeUnique: Bool = false)
        throws(ListDifferenceError) -> ListDifference
    {
        try difference(fromKeys: old, toKeys: new, identity: .injective, assumeUnique: assumeUnique) {
            side, index in "\(side == .old ? old[index] : new[index])"
        }
    }

    func difference(
        fromKeys old: [UInt64], toKeys new: [UInt64], identity: DiffContext.Identity, assumeUnique: Bool,
        describe: (ListDifferenceError.Side, Int) -> String
    ) throws(ListDifferenceError) -> ListDifference {
        do {
            return try old.withUnsafeBufferPointer { old in
                try new.withUnsafeBufferPointer { new in
                    try context.withFlatDiff(old: old, new: new, identity: identity, assumeUnique: assumeUnique) {
                        ListDifference($0)
                    }
                }
            }
        } catch let error as CoreError where error == .duplicate {
            throw ListDifferenceError(
                duplicates: context.duplicates.map {
                    let side: ListDifferenceError.Side = $0.isNewSide ? .new : .old
                    return .init(side: side, identifier: describe(side, $0.first), firstIndex: $0.first, duplicateIndex: $0.duplicate)
                })
        } catch let error as CoreError where error == .outOfMemory || error == .tooLarge {
            throw ListDifferenceError(duplicates: [], reason: error == .outOfMemory ? .outOfMemory : .tooLarge)
        } catch {
            preconditionFailure("Diffable: the diff engine failed: \(error)")
        }
    }
}

@available(*, unavailable)
extension ListDiffer: Sendable {}

/// The difference between two flat lists, in the index spaces a list view expects.
public struct ListDifference: Equatable, Sendable {
    /// One element that moved: `from` is its old index, `to` its new index.
    public struct Move: Equatable, Hashable, Sendable {
        public var from: Int
        public var to: Int
        /// - Complexity: O(1).
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Old indices of removed elements, ascending.
    public var deletes: [Int]
    /// New indices of added elements, ascending.
    public var inserts: [Int]
    /// Elements off the longest increasing subsequence, by ascending `to`:
    /// the fewest moves that turn the old order into the new one.
    public var moves: [Move]
    /// Number of elements present in both lists.
    public var matched: Int
    /// Equal elements at the front and at the back (matched without hashing).
    public var commonPrefix: Int
    public var commonSuffix: Int

    /// `true` when the lists are equal.
    /// - Complexity: O(1).
    public var isEmpty: Bool { deletes.isEmpty && inserts.isEmpty && moves.isEmpty }

    init(_ view: DiffContext.FlatResultView) {
        deletes = view.deletes.map { Int($0) }
        inserts = view.inserts.map { Int($0) }
        moves = zip(view.moveFrom, view.moveTo).map { Move(from: Int($0), to: Int($1)) }
        matched = view.matched
        commonPrefix = view.commonPrefix
        commonSuffix = view.commonSuffix
    }
}

/// Raised when a list given to ``ListDiffer`` repeats an identifier, or when the
/// workspace for a diff cannot be allocated (the differ stays usable).
public struct ListDifferenceError: Error, Equatable, CustomStringConvertible {
    public enum Side: String, Sendable { case old, new }

    /// Why the diff was refused.
    public enum Reason: String, Sendable {
        /// An identifier repeats: see ``duplicates``.
        case duplicates
        /// The workspace could not be allocated.
        case outOfMemory
        /// A list is longer than the core's 32-bit indices allow (2^31 − 1 elements).
        case tooLarge
    }

    /// One repeated identifier: it stands at `firstIndex` and again at `duplicateIndex`.
    public struct Duplicate: Equatable, Sendable {
        public var side: Side
        public var identifier: String
        public var firstIndex: Int
        public var duplicateIndex: Int
    }

    /// Every duplicate, old list first, by ascending `duplicateIndex`.
    public var duplicates: [Duplicate]
    /// Why the diff was refused.
    public var reason: Reason

    /// - Complexity: O(1).
    public init(duplicates: [Duplicate], reason: Reason = .duplicates) {
        self.duplicates = duplicates
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .outOfMemory: return "out of memory: the diff workspace could not be allocated"
        case .tooLarge: return "a list is too large for the diff core (at most 2^31 - 1 elements)"
        case .duplicates: break
        }
        return "identifiers are not unique: "
            + duplicates.map {
                "\($0.identifier) at \($0.side) indices \($0.firstIndex) and \($0.duplicateIndex)"
            }.joined(separator: "; ")
    }
}
