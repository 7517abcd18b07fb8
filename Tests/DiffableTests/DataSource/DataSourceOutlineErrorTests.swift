import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// Programming errors in outline sections: each is reported through
/// `DiffableDiagnostics`, then traps with a message naming the problem. Exit tests: every
/// case runs in a child process whose standard error is checked.
@Suite struct DataSourceOutlineErrorTests {
    @Test(arguments: FailingOutline.allCases)
    func trapsWithAMessage(_ failure: FailingOutline) async {
        SectionSnapshotTrapTests.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [failure] in
                Failing.reportToStandardError()
                failure.run()
            },
            failure.message)
    }
}

/// The failing programs of ``DataSourceOutlineErrorTests``, each with what it must print.
enum FailingOutline: String, Codable, Sendable, CaseIterable {
    typealias Outline = DiffableDataSourceSectionSnapshot<String>

    case itemInAnotherSection, itemHiddenInAnotherOutline, lazyChildrenRepeatingAnItem, nilCellForAChild, tapOutOfRange
    case reentrantSectionApply, dragOfAnExpandedFolder
    // Taps and drags reported off the view executor (checked in release builds too: make toplevel-test).
    case tapOffTheExecutor, dragOffTheExecutor, canMoveAskedOffTheExecutor

    var message: String {
        switch self {
        case .itemInAnotherSection:
            "event: duplicateIdentifiers in apply(_:to:animatingDifferences:completion:): item \"b\" of the section snapshot for "
                + "section \"B\" is already in section \"A\"; an identifier may appear only once in a data source"
        case .itemHiddenInAnotherOutline:
            "item \"h\" of the section snapshot for section \"B\" is already in section \"A\" (under a collapsed parent)"
        case .lazyChildrenRepeatingAnItem:
            "event: duplicateIdentifiers in sectionSnapshotHandlers.snapshotForExpandingParent: the children of \"p\" cannot be shown: "
        case .nilCellForAChild:
            "event: cellProviderReturnedNil in cell(at:): the cell provider returned nil for item \"child\" at index path [0, 1]"
        case .tapOutOfRange:
            "event: indexPathOutOfRange in toggleDisclosure(at:): the view asked for index path [0, 9], but section 0 has 2 items"
        case .reentrantSectionApply:
            "event: reentrantApply in apply(_:to:animatingDifferences:completion:): called while the view is inside an update"
        case .dragOfAnExpandedFolder:
            "moveItem(at:to:): the view moved item \"p\", whose children are shown under it in an outline section"
        case .tapOffTheExecutor:
            "event: viewContractViolation in toggleDisclosure(at:): the view reported a disclosure tap off the view executor; "
                + "a view reports taps and drags on the executor that drives it"
        case .dragOffTheExecutor:
            "event: viewContractViolation in moveItem(at:to:): the view reported a move off the view executor"
        case .canMoveAskedOffTheExecutor:
            "event: viewContractViolation in canMoveItem(at:): the view reported the start of a drag off the view executor"
        }
    }

    func run() {
        switch self {
        case .itemInAnotherSection:
            let (dataSource, queue) = Self.makeDataSource()
            var outline = Outline()
            outline.append(["b", "c"])
            queue.sync {
                dataSource.apply(.build(["A"], [["a", "b"]]), completion: nil)
                dataSource.apply(outline, to: "B", completion: nil)
            }
        case .itemHiddenInAnotherOutline:
            let (dataSource, queue) = Self.makeDataSource()
            var first = Outline(), second = Outline()
            first.append(["p"])
            first.append(["h"], to: "p")
            second.append(["h"])
            queue.sync {
                dataSource.apply(first, to: "A", completion: nil)
                dataSource.apply(second, to: "B", completion: nil)
            }
        case .lazyChildrenRepeatingAnItem:
            let (dataSource, queue) = Self.makeDataSource()
            dataSource.sectionSnapshotHandlers.snapshotForExpandingParent = { _, _ in
                var children = Outline()
                children.append(["q"])  // already a root of the outline
                return children
            }
            queue.sync {
                dataSource.apply(Self.folder(), to: "A", completion: nil)
                dataSource.toggleDisclosure(at: IndexPath(item: 0, section: 0))
            }
        case .nilCellForAChild:
            let (dataSource, queue) = Self.makeDataSource { _, item in item == "child" ? nil : .row(item) }
            queue.sync {
                dataSource.apply(Self.folder(), to: "A", completion: nil)
                dataSource.toggleDisclosure(at: IndexPath(item: 0, section: 0))
            }
        case .tapOutOfRange:
            let (dataSource, queue) = Self.makeDataSource()
            queue.sync {
                dataSource.apply(Self.folder(), to: "A", completion: nil)
                dataSource.toggleDisclosure(at: IndexPath(item: 9, section: 0))
            }
        case .reentrantSectionApply:
            var source: Failing.StringSource?
            let (dataSource, queue) = Self.makeDataSource { _, item in
                source?.apply(Outline(), to: "A", completion: nil)
                return .row(item)
            }
            source = dataSource
            queue.sync { dataSource.apply(Self.folder(), to: "A", completion: nil) }
        case .dragOfAnExpandedFolder:
            let (dataSource, queue) = Self.makeDataSource()
            dataSource.reorderingHandlers.canReorderItem = { _ in true }
            queue.sync {
                dataSource.apply(Self.folder(expanded: true), to: "A", completion: nil)
                dataSource.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 0))
            }
        case .tapOffTheExecutor, .dragOffTheExecutor, .canMoveAskedOffTheExecutor:
            let (dataSource, queue) = Self.makeDataSource()
            dataSource.reorderingHandlers.canReorderItem = { _ in true }
            queue.sync { dataSource.apply(Self.folder(), to: "A", completion: nil) }
            // Here, on the test's thread: not the view's queue.
            switch self {
            case .tapOffTheExecutor: dataSource.toggleDisclosure(at: IndexPath(item: 0, section: 0))
            case .dragOffTheExecutor: dataSource.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 1, section: 0))
            default: _ = dataSource.canMoveItem(at: IndexPath(item: 0, section: 0))
            }
        }
    }

    /// A data source on a private queue over a strict recording view, with `cellProvider`.
    static func makeDataSource(
        cellProvider: @escaping Failing.StringSource.CellProvider = { _, item in .row(item) }
    ) -> (Failing.StringSource, DispatchQueue) {
        let queue = DispatchQueue(label: "view")
        let view = SimulatedListView<TestCell<String, String>>(policy: .record)
        let dataSource = Failing.StringSource(view: view, executor: .queue(queue), cellProvider: cellProvider)
        return (dataSource, queue)
    }

    /// "p" with the child "child" (collapsed unless `expanded`).
    static func folder(expanded: Bool = false) -> Outline {
        var outline = Outline()
        outline.append(["p", "q"])
        outline.append(["child"], to: "p")
        if expanded { outline.expand(["p"]) }
        return outline
    }

}
