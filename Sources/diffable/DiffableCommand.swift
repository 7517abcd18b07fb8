import ArgumentParser
import Diffable
import Foundation

@main
struct DiffableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diffable",
        abstract: "Diff snapshots of sections and items, benchmark the engine, check fixtures.",
        discussion: """
            Exit status, for every subcommand: 0 ok; 1 input rejected (duplicate identifiers, \
            an invalid snapshot, a failing fixture); 2 malformed input or usage (unreadable file, \
            broken JSON, an unknown key or option, an argument out of range); 3 internal error.
            """,
        version: DiffableVersion.description,
        subcommands: [
            DemoCommand.self, DiffCommand.self, FixturesCommand.self, BenchCommand.self, GenerateCommand.self, StressCommand.self,
        ])

    /// Runs the command and maps every failure to the documented exit status, with one
    /// line on stderr and never a backtrace.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("diffable: \(error.description)\n".utf8))
            Foundation.exit(error.status.rawValue)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {  // --help, --version
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            // One line: the problem and where to read more (never a usage dump or a backtrace).
            FileHandle.standardError.write(Data("diffable: \(message(for: error)) (see diffable --help)\n".utf8))
            Foundation.exit(CLIError.Status.usage.rawValue)
        }
    }
}

/// The package and C core versions (`diffable --version`).
enum DiffableVersion {
    static let package = "0.3.0"
    static var description: String { "diffable \(package) (C core \(CoreVersion.string))" }
}

/// A command-line failure with a message for people and its exit status.
struct CLIError: Error, CustomStringConvertible {
    /// The documented exit statuses (`diffable --help`).
    enum Status: Int32 {
        case rejected = 1
        case usage = 2
        case internalError = 3
    }

    var description: String
    var status: Status

    init(_ description: String, status: Status = .usage) {
        self.description = description
        self.status = status
    }
}

/// Debug builds (`swift run`, `swift build`) are 10–100× slower than release builds on
/// large inputs; say so once, where it matters.
enum DebugBuild {
    /// Inputs above this many items get the notice.
    static let noticeThreshold = 100_000

    /// Prints the notice on stderr when this is a debug build and `itemCount` is large.
    /// - Complexity: O(1).
    static func noteIfLarge(itemCount: Int) {
        #if DEBUG
            if itemCount > noticeThreshold {
                FileHandle.standardError.write(
                    Data(
                        ("diffable: note: this is a debug build, slow on \(itemCount) items; "
                            + "use a release build (`make install`, or `swift build -c release` → .build/release/diffable)\n").utf8))
            }
        #endif
    }
}
