import ArgumentParser
import Diffable
import DiffableTools
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
            try checkSubcommandNames(Array(CommandLine.arguments.dropFirst()))
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

    /// Names a mistyped subcommand (`diffable dif`, `diffable fixtures verfy`) with the
    /// nearest one, as the argument parser does for a mistyped option; it would otherwise be
    /// reported as unexpected arguments. Stops at the first option.
    /// - Complexity: O(arguments · subcommands · name length²).
    static func checkSubcommandNames(_ arguments: [String]) throws {
        var command: any ParsableCommand.Type = DiffableCommand.self
        var path = ["diffable"]
        for argument in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil, !argument.hasPrefix("-") else { return }
            let names = subcommands.map { $0._commandName }
            if let index = names.firstIndex(of: argument) {
                command = subcommands[index]
                path.append(argument)
                continue
            }
            if argument == "help" { return }
            let hint = NearestName.suggestion(for: argument, among: names).map { " (did you mean '\($0)'?)" } ?? ""
            let name = path.joined(separator: " ")
            throw CLIError("unknown subcommand '\(argument)'\(hint); \(name) has: \(names.joined(separator: ", ")) (see \(name) --help)")
        }
    }
}
