import PropertyBased
import Testing

@testable import Diffable

/// Proves the shrinking: a deliberately wrong property ("every sequence leaves the snapshot
/// without items") must fail, and the sequence it reports must be the minimal one (a section,
/// then one item), printed one call per line, after the generated sequence it was shrunk from.
@Suite(.shrinking) struct PropertyShrinkingTests {
    @Test func aWrongPropertyIsReportedWithTheMinimalSequence() async {
        let reports = Locked<[String]>([])
        await withKnownIssue("deliberately wrong property") {
            await propertyCheck(count: 200, input: PropertySnapshotTests.flatPrograms) { program in
                let (snapshot, failure) = program.final()
                #expect(failure == nil)
                #expect(snapshot.numberOfItems == 0)
            }
        } matching: { issue in
            reports.withLock { $0 += issue.comments.map(\.rawValue) }
            return true
        }
        let report = reports.withLock { $0 }.first { $0.contains("Failure occured with input") } ?? ""
        print("PropertyShrinkingTests: the shrunk failure as reported:\n\(report)")
        // An item needs one section and one append: nothing else survives shrinking.
        let shrunk = report.components(separatedBy: "(shrunk down from")[0]
        #expect(shrunk.contains("1. snapshot.appendSections([\"S0\"])"))
        #expect(shrunk.contains("2. snapshot.appendItems([0])"))
        #expect(!shrunk.contains("3."), "the shrunk sequence has more than the two steps the failure needs")
    }
}
