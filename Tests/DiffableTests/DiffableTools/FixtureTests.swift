import DiffableTools
import Foundation
import Testing

@testable import Diffable

/// The cross-language fixtures (docs/FIXTURES.md) through the Swift API and the strict simulator.
@Suite struct FixtureTests {
    static let directory = RepositoryPaths.fixtures

    static let files: [URL] = (try? Fixture.files(in: directory)) ?? []

    @Test func thereAreFixtures() {
        #expect(Self.files.count >= 100)
    }

    @Test(arguments: files)
    func fixturePasses(_ file: URL) throws {
        let fixture = try Fixture(contentsOf: file)
        #expect(fixture.problems() == [], "\(file.lastPathComponent)")
    }
}
