import PropertyBased
import Testing

@testable import Diffable

/// Property tests with shrinking: generated operation sequences against the
/// naive models and the strict simulated view. A failure prints the shrunk sequence, one call
/// per line, and the seed that reproduces it (`.fixedSeed(...)`); docs/TESTING.md has the counts.
@Suite(.shrinking) struct PropertySnapshotTests {
    /// Case counts per property (docs/TESTING.md lists them).
    static let flatCases = 300, outlineCases = 300, applyCases = 120

    /// One step's numbers, each shrinking towards 0 (operation 0 is the simplest: add a section or root items).
    static let code = zip(Gen.int(in: 0...11), Gen.int(in: 0...7), Gen.int(in: 0...7), Gen.int(in: 0...3))

    static let flatPrograms = code.array(of: 1...30).map { codes in
        SnapshotProgram(codes.map { (operation: $0.0, a: $0.1, b: $0.2, c: $0.3) })
    }

    static let outlinePrograms = code.array(of: 1...30).map { codes in
        OutlineProgram(codes.map { (operation: $0.0, a: $0.1, b: $0.2, c: $0.3) })
    }

    /// Up to four sections of up to six items from a small pool, so that snapshots in a row share
    /// items and sections (moves, not only inserts); how each is applied.
    static let applyPrograms = zip(
        zip(Gen.int(in: 0...4), Gen.int(in: 0...15).array(of: 0...6)).array(of: 0...4), Gen.int(in: 0...3)
    ).array(of: 1...8).map { steps in
        ApplyProgram(steps.map { sections, mode in (sections.map { (id: $0.0, items: $0.1) }, mode) })
    }

    @Test func snapshotOperationsAgreeWithTheModel() async {
        await propertyCheck(count: Self.flatCases, input: Self.flatPrograms) { program in
            let failure = program.run()
            #expect(failure == nil)
        }
    }

    @Test func outlineOperationsAgreeWithTheModel() async {
        await propertyCheck(count: Self.outlineCases, input: Self.outlinePrograms) { program in
            let failure = program.run()
            #expect(failure == nil)
        }
    }

    @Test func appliesKeepTheStrictViewInStep() async {
        await propertyCheck(count: Self.applyCases, input: Self.applyPrograms) { program in
            let failure = program.run()
            #expect(failure == nil)
        }
    }
}
