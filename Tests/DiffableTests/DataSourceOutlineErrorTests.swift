import Foundation
import Testing

@testable import Diffable

/// Programming errors in outline sections (issue 10 item 7): each is reported through
/// `DiffableDiagnostics`, then traps with a message naming the problem. Exit tests: every
/// case runs in a child process whose standard error is checked.
@Suite struct DataSourceOutlineErrorTests {
    static func expectMessage(_ result: ExitTest.Result?, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        SectionSnapshotTrapTests.expectMessage(result, message, sourceLocation: sourceLocation)
    }

    @Test func anOutlineItemShownInAnotherSection() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Failing.reportToStandardError()
                FailingOutline.itemInAnotherSection()
            },
            "event: duplicateIdentifiers in apply(_:to:animatingDifferences:completion:): item \"b\" of the section snapshot for "
                + "section \"B\" is already in section \"A\"; an identifier may appear only once in a data source")
    }

    @Test func anOutlineItemHiddenInAnotherOutline() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Failing.reportToStandardError()
                FailingOutline.itemHiddenInAnotherOutline()
            },
            "item \"h\" of the section snapshot for section \"B\" is already in section \"A\" (under a collapsed parent)")
    }

    @Test func lazyChildrenThatRepeatAnItem() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Failing.reportToStandardError()
                FailingOutline.lazyChildrenRepeatingAnItem()
            },
            "event: duplicateIdentifiers in sectionSnapshotHandlers.snapshotForExpandingParent: the children of \"p\" cannot be shown: ")
    }

    @Test func aCellProviderReturningNilForAnExpandedChild() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Failing.reportToStandardError()
                FailingOutline.nilCellForAChild()
            },
            "event: cellProviderReturnedNil in cell(at:): the cell provider returned nil for item \"child\" at index path [0, 1]")
    }

    @Test func aDisclosureTapOutOfRange() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Failing.reportToStandardError()
                FailingOutline.tapOutOfRange()
            },
            "event: indexPathOutOfRange in toggleDisclosure(at:): the view asked for index path [0, 9], but section 0 has 2 items")
    }

    @Test func aSectionApplyFromInsideAViewUpdate() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Failing.reportToStandardError()
                FailingOutline.reentrantSectionApply()
            },
            "event: reentrantApply in apply(_:to:animatingDifferences:completion:): called while the view is inside an update")
    }

    @Test func aDragOfAFolderWhoseChildrenAreShown() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Failing.reportToStandardError()
                FailingOutline.dragOfAnExpandedFolder()
            },
            "moveItem(at:to:): the view moved item \"p\", whose children are shown under it in an outline section")
    }
}

/// The failing programs of ``DataSourceOutlineErrorTests`` (an exit test's body can capture nothing).
enum FailingOutline {
    typealias Outline = DiffableDataSourceSectionSnapshot<String>

    /// A data source on a private queue over a strict recording view, with `cellProvider`.
    static func dataSource(
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

    static func itemInAnotherSection() {
        let (dataSource, queue) = dataSource()
        var outline = Outline()
        outline.append(["b", "c"])
        queue.sync {
            dataSource.apply(.build(["A"], [["a", "b"]]))
            dataSource.apply(outline, to: "B")
        }
    }

    static func itemHiddenInAnotherOutline() {
        let (dataSource, queue) = dataSource()
        var first = Outline(), second = Outline()
        first.append(["p"])
        first.append(["h"], to: "p")
        second.append(["h"])
        queue.sync {
            dataSource.apply(first, to: "A")
            dataSource.apply(second, to: "B")
        }
    }

    static func lazyChildrenRepeatingAnItem() {
        let (dataSource, queue) = dataSource()
        dataSource.sectionSnapshotHandlers.snapshotForExpandingParent = { _, _ in
            var children = Outline()
            children.append(["q"])  // already a root of the outline
            return children
        }
        queue.sync {
            dataSource.apply(folder(), to: "A")
            dataSource.toggleDisclosure(at: IndexPath(item: 0, section: 0))
        }
    }

    static func nilCellForAChild() {
        let (dataSource, queue) = dataSource { _, item in item == "child" ? nil : .row(item) }
        queue.sync {
            dataSource.apply(folder(), to: "A")
            dataSource.toggleDisclosure(at: IndexPath(item: 0, section: 0))
        }
    }

    static func tapOutOfRange() {
        let (dataSource, queue) = dataSource()
        queue.sync {
            dataSource.apply(folder(), to: "A")
            dataSource.toggleDisclosure(at: IndexPath(item: 9, section: 0))
        }
    }

    static func reentrantSectionApply() {
        var source: Failing.StringSource?
        let (dataSource, queue) = dataSource { _, item in
            source?.apply(Outline(), to: "A")
            return .row(item)
        }
        source = dataSource
        queue.sync { dataSource.apply(folder(), to: "A") }
    }

    static func dragOfAnExpandedFolder() {
        let (dataSource, queue) = dataSource()
        dataSource.reorderingHandlers.canReorderItem = { _ in true }
        queue.sync {
            dataSource.apply(folder(expanded: true), to: "A")
            dataSource.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 0))
        }
    }
}
