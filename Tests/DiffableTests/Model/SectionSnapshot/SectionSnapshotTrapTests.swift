import Foundation
import Testing

@testable import Diffable

/// Every trap of the section snapshot, in a child process: it must exit with a failure
/// and say which operation and which identifiers were wrong. (Exit-test bodies may not
/// capture anything, so each starts from ``outline()``.)
@Suite struct SectionSnapshotTrapTests {
    typealias Outline = DiffableDataSourceSectionSnapshot<String>

    /// Roots "a" and "b", "c" under "a".
    static func outline() -> Outline {
        var outline = Outline()
        outline.append(["a", "b"])
        outline.append(["c"], to: "a")
        return outline
    }

    /// Expects the child's standard error to contain `message`.
    static func expectMessage(_ result: ExitTest.Result?, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains(message), "stderr: \(text)", sourceLocation: sourceLocation)
    }

    @Test func addingItemsTraps() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                outline.append(["x", "y", "x"])
            }, "append(_:to:): \"x\" is not unique: at [0], [2]")
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                outline.append(["c"], to: "b")
            }, "append(_:to:): \"c\" is already in the snapshot")
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                outline.append(["x"], to: "ghost")
            }, "append(_:to:): \"ghost\" is not in the snapshot")
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                outline.insert(["x"], before: "ghost")
            }, "insert(_:before:): \"ghost\" is not in the snapshot")
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                outline.insert(["x", "c"], after: "c")
            }, "insert(_:after:): \"c\" cannot be placed relative to itself")
    }

    @Test func subtreeOperationsTrap() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                outline.append(outline.snapshot(of: "a", includingParent: true), to: "b")
            }, "append(_:to:): \"a\" is already in the snapshot")
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                outline.insert(outline.snapshot(of: "a", includingParent: true), before: "a")
            }, "insert(_:before:): \"a\" cannot be placed relative to itself")
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                outline.insert(SectionSnapshotTrapTests.Outline(), after: "ghost")
            }, "insert(_:after:): \"ghost\" is not in the snapshot")
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                var children = SectionSnapshotTrapTests.Outline()
                children.append(["b"])
                outline.replace(childrenOf: "a", using: children)
            }, "replace(childrenOf:using:): \"b\" is already in the snapshot")
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var outline = SectionSnapshotTrapTests.outline()
                outline.replace(childrenOf: "ghost", using: SectionSnapshotTrapTests.Outline())
            }, "replace(childrenOf:using:): \"ghost\" is not in the snapshot")
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = SectionSnapshotTrapTests.outline().snapshot(of: "ghost")
            }, "snapshot(of:includingParent:): \"ghost\" is not in the snapshot")
    }

    @Test func levelOfAnUnknownItemTraps() async {
        Self.expectMessage(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = SectionSnapshotTrapTests.outline().level(of: "ghost")
            }, "level(of:): \"ghost\" is not in the snapshot")
    }
}
