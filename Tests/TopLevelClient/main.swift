// A user's top-level program (`make toplevel-test`, in debug and release builds): the README's
// data-source snippet in a main.swift, where Swift ranks overloads as in synchronous code.
// Every `await apply` must return after the view updated; a disclosure tap hopped onto the
// view's executor must show once `waitForApplies()` returns, and one reported off it must trap
// in either build. Exits 1 when a check disagrees.
import Diffable
import DiffableTesting
import Foundation

#if DEBUG
    let build = "debug"
#else
    let build = "release"
#endif

// Run as a child with this argument: a view reporting a tap off its executor, which must trap.
if CommandLine.arguments.dropFirst().first == "--tap-off-the-executor" {
    let view = SimulatedListView<String>()
    let dataSource = DiffableDataSource<String, String, String>(view: view, executor: .queue(DispatchQueue(label: "ui"))) { _, item in
        item
    }
    var outline = DiffableDataSourceSectionSnapshot<String>()
    outline.append(["folder"])
    outline.append(["file"], to: "folder")
    await dataSource.apply(outline, to: "Files")
    dataSource.toggleDisclosure(at: IndexPath(item: 0, section: 0))  // on the main thread, not on "ui"
    print("toggleDisclosure(at:) returned off the view executor")
    exit(0)
}

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

// Taps happen on the view's executor: hop there, then wait for the apply the tap started.
var tree = DiffableDataSourceSectionSnapshot<String>()
tree.append(["Docs"])
tree.append(["guide.md"], to: "Docs")
await dataSource.apply(tree, to: "Tree")
let docs = dataSource.indexPath(for: "Docs")!
let tapped = dataSource.executor.runAndWait { (try? view.simulateTapDisclosure(at: docs)) ?? false }
await dataSource.waitForApplies()
check("a tap hopped onto the executor is reported", tapped, true)
check(
    #"after the tap and waitForApplies(): indexPath(for: "guide.md")"#, dataSource.indexPath(for: "guide.md"),
    IndexPath(item: 1, section: 2))

// A tap reported off the executor traps, with a message, in this build as in the other.
let child = Process()
child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
child.arguments = ["--tap-off-the-executor"]
let childErrors = Pipe()
child.standardError = childErrors
child.standardOutput = FileHandle.nullDevice
try child.run()
let childMessage = String(decoding: childErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
child.waitUntilExit()
check("a tap off the executor traps (\(build) build)", child.terminationReason, .uncaughtSignal)
check(
    "its message names the rule (\(build) build)",
    childMessage.contains("toggleDisclosure(at:): the view reported a disclosure tap off the view executor"), true)

print("top-level client: \(checks - failures) passed, \(failures) failed (\(build) build)")
exit(failures == 0 ? 0 : 1)
