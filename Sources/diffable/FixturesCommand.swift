import ArgumentParser
import Diffable
import DiffableTools
import Foundation

/// `diffable fixtures verify [DIR]`: every fixture through the Swift API and the simulator.
struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures", abstract: "Check the cross-language fixtures.",
        subcommands: [Verify.self])

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run fixtures through difference(from:) and the list-view simulator.",
            discussion: """
                Each PATH is a fixture file or a directory searched recursively for *.json (default: \
                Tests/Fixtures). Prints one line per fixture and a closing 'N passed, N failed'; exits 1 \
                when any fails (a file that is not a fixture fails, saying what it lacks).
                """)

        @Argument(help: "Fixture files or directories (searched recursively).")
        var paths: [String] = ["Tests/Fixtures"]

        @Flag(help: "Print only failures and the summary.")
        var quiet = false

        func run() throws {
            var files: [URL] = []
            for path in paths {
                let found: [URL]
                do {
                    found = try Fixture.files(at: URL(fileURLWithPath: path))
                } catch {
                    throw CLIError("'\(path)': \(error)")
                }
                guard !found.isEmpty else { throw CLIError("no fixtures (*.json) under '\(path)'") }
                files += found
            }
            var passed = 0, failed = 0
            for file in files {
                let problems: [String]
                do {
                    problems = try Fixture(contentsOf: file).problems()
                } catch {
                    problems = ["\(error)"]
                }
                if problems.isEmpty {
                    passed += 1
                    if !quiet { print("ok   \(file.lastPathComponent)") }
                } else {
                    failed += 1
                    print("FAIL \(file.lastPathComponent)")
                    for problem in problems { print("     \(problem)") }
                }
            }
            print("\(passed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode(1) }
        }
    }
}
