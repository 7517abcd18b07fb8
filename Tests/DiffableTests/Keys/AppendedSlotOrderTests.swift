import Foundation
import Testing

@testable import Diffable

/// Identifiers appended to a snapshot take consecutive slots in their own order, however many
/// of their keys share a fingerprint in the identifier table by chance (the table keeps a few
/// hash bits per entry, and at 2×10^5 entries dozens of new keys meet one). A snapshot whose
/// slots follow display order takes the fast paths that rely on it (matching values by `id`
/// reads the old value at the same slot); before the table confirmed shared fingerprints
/// against the full keys, such a key was placed after the rest of its batch.
@Suite struct AppendedSlotOrderTests {
    static let sections = 200, perSection = 1000

    /// A fixed UUID for `n` (the same keys, so the same fingerprints, on every run).
    static func uuid(_ n: Int) -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: UInt64(n), toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: bytes)
    }

    /// A value holding a reference, keyed by its `hashValue` (hashed on the snapshot's copy).
    struct Row: Hashable {
        var id: Int
        var title: String
    }

    @Test func uuidsAppendedSectionBySectionKeepTheirOrder() {
        var snapshot = DiffableDataSourceSnapshot<Int, UUID>()
        snapshot.appendSections(Array(0..<Self.sections))
        for section in 0..<Self.sections {
            snapshot.appendItems((0..<Self.perSection).map { Self.uuid(section * Self.perSection + $0) }, toSection: section)
        }
        #expect(snapshot.numberOfItems == Self.sections * Self.perSection)
        #expect(snapshot.storage.slotsFollowDisplayOrder)
        #expect(snapshot.indexOfItem(Self.uuid(123_456)) == 123_456)
    }

    @Test func stringsAppendedInOneBatchKeepTheirOrder() {
        // One batch: the keys that meet are mostly the batch's own.
        let ids = (0..<Self.sections * Self.perSection).map { "item-\($0)" }
        var snapshot = DiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0])
        snapshot.appendItems(ids)
        #expect(snapshot.storage.slotsFollowDisplayOrder)
        #expect(snapshot.itemIdentifiers == ids)
    }

    @Test func hashedValuesKeepTheirOrderAndStayFindable() {
        let rows = (0..<Self.sections * Self.perSection).map { Row(id: $0, title: "row \($0)") }
        var snapshot = DiffableDataSourceSnapshot<Int, Row>()
        snapshot.appendSections(Array(0..<Self.sections))
        for section in 0..<Self.sections {
            snapshot.appendItems(Array(rows[section * Self.perSection..<(section + 1) * Self.perSection]), toSection: section)
        }
        // Per-process hash seeds: the keys differ between runs, so this checks whatever met.
        #expect(snapshot.storage.slotsFollowDisplayOrder)
        #expect(snapshot.indexOfItem(rows[199_999]) == 199_999)
        #expect(snapshot.indexOfItem(Row(id: 5, title: "another")) == nil)
        // An existing value appended again moves (a conflict on the full key, as before).
        snapshot.appendItems([rows[0]], toSection: 0)
        #expect(snapshot.itemIdentifiers(inSection: 0).last == rows[0])
        #expect(snapshot.numberOfItems == Self.sections * Self.perSection)
    }

    /// The check itself, on hand-made slot lists: true exactly when the sections, in display
    /// order, list 0, 1, …, `count` − 1 (empty sections included), false for a slot out of
    /// order that the section's last slot does not show, and for another item count.
    @Test func slotRunCheckAnswersExactly() {
        func runs(_ order: [Int32], _ sections: [[Int32]], count: Int) -> Bool {
            let items = sections.map { ContiguousArray($0) }
            return items.withUnsafeBufferPointer { FlatSnapshot.slotsRunInDisplayOrder(ContiguousArray(order), $0, count: count) }
        }
        #expect(runs([], [], count: 0))
        #expect(!runs([], [], count: 1))
        #expect(runs([1, 0], [[2], [0, 1]], count: 3))
        #expect(runs([0, 1, 2], [[0], [], [1, 2]], count: 3))
        #expect(!runs([0, 1, 2], [[0], [], [1, 2]], count: 4))
        #expect(!runs([0, 1, 2], [[0], [], [1, 2]], count: 2))
        #expect(!runs([0], [[1, 0, 2]], count: 3))
        #expect(!runs([0, 1], [[1], [0]], count: 2))
    }
}
