import Foundation
import Testing

@testable import Diffable

/// A model value keyed by its `String` `id` (the `id`s keyed a batch at a time).
private struct NamedValue: Hashable, KeyedByID, Sendable {
    var id: String
    var count: Int
}

/// An identifier with a key of its own.
private struct SerialKey: Hashable, IdentifierKeyConvertible, Sendable {
    var serial: Int
    var identifierKey: UInt64 { UInt64(bitPattern: Int64(serial)) &* 0x9E37_79B9_7F4A_7C15 }
}

/// An app's struct holding a reference, keyed by its `hashValue`.
private struct TitledRow: Hashable, Sendable {
    var title: String
    var flag: Bool
}

/// The keys `appendItems` enters, written into a temporary buffer (`KeyStrategy.withKeys`),
/// against each value's own key and the array `keys(_:)` makes, for every strategy: a wrong
/// writer would give the snapshot keys that no lookup of the same identifier finds.
@Suite struct KeyBufferTests {
    /// Checks `values` through all three routes. - Complexity: O(k).
    private func expectOneKeyEach<T: Hashable>(_ values: [T], _ sourceLocation: SourceLocation = #_sourceLocation) {
        let strategy = KeyStrategy.of(T.self)
        let oneByOne = values.map { strategy.key($0) }
        let buffered = strategy.withKeys(of: values) { Array($0) }
        #expect(buffered == oneByOne, "\(T.self) (\(strategy))", sourceLocation: sourceLocation)
        #expect(strategy.keys(values) == oneByOne, "\(T.self) (\(strategy))", sourceLocation: sourceLocation)
    }

    /// Three lengths: none, a short list (its keys on the stack), and one whose keys take
    /// more than the 1 KiB a temporary allocation takes from the stack.
    static let counts = [0, 7, 300]

    @Test func everyStrategyWritesTheKeyOfEachValue() {
        for count in Self.counts {
            expectOneKeyEach((0..<count).map { $0 &* 7919 - 1000 })
            expectOneKeyEach((0..<count).map { Int32($0) - 5 })
            expectOneKeyEach((0..<count).map { UInt8(truncatingIfNeeded: $0) })
            expectOneKeyEach((0..<count).map { _ in UUID() })
            // ASCII, long, and non-NFC spellings (the batch's three ways to a key).
            expectOneKeyEach(
                (0..<count).map {
                    $0 % 3 == 0 ? "id\($0)" : $0 % 3 == 1 ? String(repeating: "long-", count: 5) + "\($0)" : "cafe\u{301}\($0)"
                })
            expectOneKeyEach((0..<count).map { [UInt8(truncatingIfNeeded: $0), 1, 2] })
            expectOneKeyEach((0..<count).map { KeyedModel(id: UUID(), title: "t\($0)") })
            expectOneKeyEach((0..<count).map { KeyedCounter(id: $0 * 3, count: $0) })
            expectOneKeyEach((0..<count).map { NamedValue(id: "n\($0)", count: $0) })
            expectOneKeyEach((0..<count).map { SerialKey(serial: $0) })
            expectOneKeyEach((0..<count).map { TitledRow(title: "row \($0)", flag: $0 % 2 == 0) })
        }
    }

    @Test func appendedItemsAreFoundByTheirKeys() {
        // A snapshot built by appends (the buffered keys) answers lookups made with keys
        // computed one at a time, for a type of each kind of key.
        func check<T: Hashable>(_ values: [T], _ sourceLocation: SourceLocation = #_sourceLocation) {
            var snapshot = DiffableDataSourceSnapshot<Int, T>()
            snapshot.appendSections([0, 1])
            snapshot.appendItems(Array(values.prefix(values.count / 2)), toSection: 0)
            snapshot.appendItems(Array(values.dropFirst(values.count / 2)), toSection: 1)
            for (offset, value) in values.enumerated() {
                #expect(snapshot.indexOfItem(value) == offset, "\(T.self) \(offset)", sourceLocation: sourceLocation)
            }
            #expect(snapshot.itemIdentifiers == values, sourceLocation: sourceLocation)
        }
        check((0..<300).map { _ in UUID() })
        check((0..<300).map { "s\($0)" + ($0 % 5 == 0 ? "\u{301}" : "") })
        check((0..<300).map { NamedValue(id: "n\($0)", count: $0) })
        check((0..<300).map { SerialKey(serial: $0) })
        check((0..<300).map { TitledRow(title: "row \($0)", flag: true) })
    }
}
