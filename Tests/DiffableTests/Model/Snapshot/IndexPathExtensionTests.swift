import Foundation
import IndexPathTwin
import Testing

@testable import Diffable

// IndexPathTwin defines the same public accessors as Diffable, as a second package might:
// were Diffable's not disfavoured, every `IndexPath(item:section:)`, `.item` and `.section`
// in this file would be ambiguous and the target would not compile.
@Suite struct IndexPathExtensionTests {
    @Test func anotherModulesCopyWinsWithoutAmbiguity() {
        let path = IndexPath(item: 3, section: 7)
        #expect(path.section == 7 && path.item == 3)
        #expect(path == IndexPath(indexes: [7, 3]))
    }

    @Test func diffablesOwnPathsReadTheSame() throws {
        // Built inside Diffable (its own initializer), read here through this module's accessors.
        var old = DiffableDataSourceSnapshot<String, String>()
        old.appendSections(["S", "T"])
        old.appendItems(["a", "b"], toSection: "T")
        var new = old
        new.appendItems(["c"], toSection: "T")
        let batch = try #require(new.difference(from: old).batches.first)
        #expect(batch.insertItems.map { [$0.section, $0.item] } == [[1, 2]])
    }
}
