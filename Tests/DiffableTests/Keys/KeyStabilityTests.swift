import DiffableTesting
import Foundation
import Testing

@testable import Diffable

// Which identifier types the data source's per-apply hash check covers (KeyStability): those
// whose stored values can reach state that changes after they are stored.

/// A model value of trivial and immutable standard fields only.
struct PlainModel: Hashable, Sendable {
    var id: UUID
    var title: String
    var tags: (Int8, Character)
    var isFavorite: Bool
    static func == (left: PlainModel, right: PlainModel) -> Bool { left.id == right.id && left.title == right.title }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A value type that reaches a mutable object: its hash follows the object.
struct BoxedModel: Hashable, Sendable, CustomStringConvertible {
    var box: Box
    var description: String { "BoxedModel(\(box.value))" }
}

enum TrivialRef: Hashable {
    case post(Int)
    case ad(Int)
}

enum TextRef: Hashable {
    case name(String)
    case number(Int)
}
struct HoldsExistential: Hashable { var value: AnyHashable }
struct HoldsArray: Hashable { var values: [Int] }

@Suite struct KeyStabilityTests {
    @Test func valuesNoOneCanChangeAreNotChecked() {
        let stable: [Any.Type] = [
            Int.self, Double.self, UUID.self, String.self, Substring.self, Character.self, PlainModel.self, TrivialRef.self,
        ]
        for type in stable {
            #expect(!KeyStability.keyCanChange(type), "\(type)")
        }
    }

    @Test func valuesThatCanReachStateAreChecked() {
        // Conservative where the layout does not say: an enum with a payload that is not
        // trivial, an existential, an array (its elements are not looked into).
        for type: Any.Type in [Box.self, KeyedBox.self, BoxedModel.self, TextRef.self, HoldsExistential.self, HoldsArray.self] {
            #expect(KeyStability.keyCanChange(type), "\(type)")
        }
        // The answer is cached per type and stays the same.
        #expect(KeyStability.keyCanChange(BoxedModel.self) && !KeyStability.keyCanChange(PlainModel.self))
    }

    /// The per-apply check skips what it cannot catch and still reports a value type holding
    /// a reference whose hash changed.
    @Test func applyReportsAValueHoldingAMutatedReference() async {
        let harness = DataSourceHarness<Int, BoxedModel>()
        let (a, b) = (BoxedModel(box: Box(1)), BoxedModel(box: Box(2)))
        var snapshot = DiffableDataSourceSnapshot<Int, BoxedModel>()
        snapshot.appendSections([0])
        snapshot.appendItems([a, b])
        await harness.dataSource.apply(snapshot)
        b.box.value = 6_020
        let ((), events) = await DiagnosticsListeners.collectAwaiting { await harness.dataSource.apply(snapshot) }
        #expect(events.filter { $0.identifiers == ["BoxedModel(6020)"] }.map(\.kind) == [.inconsistentHashing])
        #expect(snapshot.storage.hashMismatchesWhereKeysCanChange().items.map(\.identifier) == ["BoxedModel(6020)"])
    }

    @Test func stableValueTypesSkipTheCheckButNotValidation() throws {
        var snapshot = DiffableDataSourceSnapshot<Int, PlainModel>()
        snapshot.appendSections([0])
        snapshot.appendItems([PlainModel(id: UUID(), title: "a", tags: (0, "x"), isFavorite: false)])
        #expect(snapshot.storage.hashesNeedChecking, "keyed by hashValue")
        #expect(snapshot.storage.hashMismatchesWhereKeysCanChange() == ([], []))
        // A hash that is not a function of the value is still caught where it is looked for.
        let unstable = (0..<3).map(Unstable.init)
        #expect(!KeyStability.keyCanChange(Unstable.self))
        #expect(throws: SnapshotError.self) { try DiffableDataSourceSnapshot<Int, Unstable>(validating: [(0, unstable)]) }
    }
}
