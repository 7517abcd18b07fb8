import PropertyBased
import Testing

@testable import Diffable

/// Proves the shrinking: a deliberately wrong property ("every sequence leaves the snapshot
/// without items") must fail, and the sequence it reports must be the minimal one (a section,
/// then one item), printed one call per line, after the generated sequence it was shrunk from.
@Suite(.shrinking) struct PropertyShrinkingTests {
    static let wrongProperty = "the deliberately wrong property"

    @Test func aWrongPropertyIsReportedWithTheMinimalSequence() async {
        let failures = Locked(0), reports = Locked<[String]>([])
        await withKnownIssue(Comment(rawValue: Self.wrongProperty)) {
            await propertyCheck(count: 200, input: PropertySnapshotTests.flatPrograms) { program in
                let (snapshot, failure) = program.final()
                #expect(failure == nil)
                #expect(snapshot.numberOfItems == 0, Comment(rawValue: Self.wrongProperty))
            }
        } matching: { issue in
            // Only the wrong property's own failure and the report of its shrunk input are
            // known: any other issue (the model disagreeing, a crash) fails the test.
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            switch issue.kind {
            case .expectationFailed where text.contains(Self.wrongProperty):
                failures.withLock { $0 += 1 }
                return true
            case .unconditional where text.contains("Failure occured with input"):
                reports.withLock { $0.append(text) }
                return true
            default:
                return false
            }
        }
        #expect(failures.withLock { $0 } >= 1, "the wrong property never failed")
        let found = reports.withLock { $0 }
        #expect(found.count == 1, "expected one report of the shrunk input, got \(found.count)")
        let report = found.first ?? ""
        print("PropertyShrinkingTests: the shrunk failure as reported:\n\(report)")
        // An item needs one section and one append: nothing else survives shrinking.
        let shrunk = report.components(separatedBy: "(shrunk down from")[0]
        #expect(shrunk.contains("1. snapshot.appendSections([\"S0\"])"))
        #expect(shrunk.contains("2. snapshot.appendItems([0])"))
        #expect(!shrunk.contains("3."), "the shrunk sequence has more than the two steps the failure needs")
    }
}
