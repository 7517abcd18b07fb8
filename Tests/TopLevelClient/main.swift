// A user's top-level program (`make toplevel-test`): the README's data-source snippet in a
// main.swift, where Swift ranks overloads as in synchronous code. Every `await apply` must
// return after the view updated; exits 1 when a query right after one disagrees.
import Diffable
import DiffableTesting
import Foundation

var checks = 0, failures = 0
@MainActor func check<Value: Equatable>(_ label: String, _ actual: Value?, _ expected: Value?) {
    func show(_ value: Value?) -> String { value.map { "\($0)" } ?? "nil" }
    checks += 1
    print("\(label) -> \(show(actual))")
    if actual != expected {
        print("  FAILED: expected \(show(expected))")
        failures += 1
    }
}

var old = DiffableDataSourceSnapshot<String, String>()
old.appendSections(["Fruit", "Vegetables"])
old.appendItems(["apple", "banana", "cherry"], toSection: "Fruit")
old.appendItems(["kale", "leek"], toSection: "Vegetables")
var new = old
new.moveItem("cherry", beforeItem: "apple")
new.moveItem("banana", afterItem: "kale")
new.appendItems(["okra"])
new.reloadItems(["apple"])

let view = SimulatedListView<String>()
let dataSource = DiffableDataSource<String, String, String>(
    view: view, executor: .queue(DispatchQueue(label: "ui"))
) { indexPath, item in item }
await dataSource.apply(old)
await dataSource.apply(new)
check(#"dataSource.indexPath(for: "okra")"#, dataSource.indexPath(for: "okra"), IndexPath(item: 3, section: 1))

await dataSource.applySnapshotUsingReloadData(old)
check(#"after applySnapshotUsingReloadData(old): indexPath(for: "okra")"#, dataSource.indexPath(for: "okra"), nil)

var files = DiffableDataSourceSectionSnapshot<String>()
files.append(["Sources", "README.md"])
files.append(["main.swift"], to: "Sources")
files.expand(["Sources"])
await dataSource.apply(files, to: "Files")
check(
    #"after apply(files, to: "Files"): indexPath(for: "main.swift")"#, dataSource.indexPath(for: "main.swift"),
    IndexPath(item: 1, section: 2))

// Synchronous code passes `completion:`; this form returns at once and the completion runs later.
let done = DispatchSemaphore(value: 0)
dataSource.apply(new, animatingDifferences: false, completion: { done.signal() })
done.wait()
check(
    #"after apply(new, completion:) completed: indexPath(for: "okra")"#, dataSource.indexPath(for: "okra"),
    IndexPath(item: 3, section: 1))

print("top-level client: \(checks - failures) passed, \(failures) failed")
exit(failures == 0 ? 0 : 1)
