import ArgumentParser
import Diffable
import DiffableTools
import Foundation

/// `diffable diff OLD.json NEW.json`: the fixture `expect` object for two snapshot files.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Diff two snapshots given as JSON files in the fixture old/new form.",
        discussion: """
            Each file holds {"sections": [{"id": "S", "items": ["a", "b"]}], "reloadItems": [], \
            "reconfigureItems": [], "reloadSections": []} (the refresh lists are optional). Prints \
            {"batches": [...]} or, for a snapshot with duplicate or unknown identifiers, \
            {"error": {...}} on stdout with exit status 1. Unreadable files, broken JSON and \
            unknown keys exit with status 2 and one line on stderr (--lenient ignores unknown keys).
            """)

    @Argument(help: "The old snapshot (JSON).")
    var old: String

    @Argument(help: "The new snapshot (JSON).")
    var new: String

    @Option(help: "Output: json (the fixture expect object) or text (for people).")
    var format: OutputFormat = .json

    enum OutputFormat: String, ExpressibleByArgument { case json, text }

    @Flag(help: "Ignore keys the snapshot format does not define (by default they are an error).")
    var lenient = false

    func run() throws {
        let oldDocument = try Self.load(old, lenient: lenient), newDocument = try Self.load(new, lenient: lenient)
        DebugBuild.noteIfLarge(itemCount: oldDocument.itemCount + newDocument.itemCount)
        let outcome = DiffOutcome.of(old: oldDocument, new: newDocument)
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(outcome), as: UTF8.self))
        case .text:
            print(Self.text(outcome))
        }
        if case .error = outcome { throw ExitCode(CLIError.Status.rejected.rawValue) }
    }

    static func load(_ path: String, lenient: Bool = false) throws -> SnapshotDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read '\(path)': no such file or not readable")
        }
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[SnapshotDocument.lenientKey] = lenient
            return try decoder.decode(SnapshotDocument.self, from: data)
        } catch let error as DecodingError {
            throw CLIError("'\(path)' is not a snapshot document: \(describe(error))")
        } catch {
            throw CLIError("'\(path)' is not valid JSON: \(error.localizedDescription)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func at(_ path: [CodingKey]) -> String {
            path.isEmpty ? "the top level" : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)' at \(at(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(context.debugDescription) at \(at(context.codingPath))"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "\(context.debugDescription) at \(at(context.codingPath.dropLast()))"
        case .dataCorrupted(let context):
            return "\(context.debugDescription) \(context.underlyingError.map { "(\($0.localizedDescription))" } ?? "")"
        @unknown default: return "\(error)"
        }
    }

    static func text(_ outcome: DiffOutcome) -> String {
        switch outcome {
        case .error(let error): return "rejected: \(error)"
        case .batches(let batches) where batches.isEmpty: return "no changes"
        case .batches(let batches):
            return batches.enumerated().map { index, batch in
                var lines = ["batch \(index + 1)\(batch.isRefreshOnly ? " (refresh)" : ""):"]
                func add(_ name: String, _ values: [String]) {
                    if !values.isEmpty { lines.append("  \(name): \(values.joined(separator: ", "))") }
                }
                func path(_ p: IndexPath) -> String { "(\(p.section), \(p.item))" }
                add("delete sections", batch.deleteSections.map(String.init))
                add("insert sections", batch.insertSections.map(String.init))
                add("move sections", batch.moveSections.map(\.description))
                add("reload sections", batch.reloadSections.map(String.init))
                add("delete items", batch.deleteItems.map(path))
                add("insert items", batch.insertItems.map(path))
                add("move items", batch.moveItems.map(\.description))
                add("reload items", batch.reloadItems.map(path))
                add("reconfigure items", batch.reconfigureItems.map(path))
                return lines.joined(separator: "\n")
            }.joined(separator: "\n")
        }
    }
}
