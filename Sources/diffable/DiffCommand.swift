import ArgumentParser
import Diffable
import DiffableTools
import Foundation

/// `diffable diff OLD NEW`: the fixture `expect` object for two snapshot files (JSON or
/// TSV, files or stdin), at the engine's speed: simdjson in, hand-written JSON out.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Diff two snapshots given as JSON or TSV files (or - for stdin).",
        discussion: """
            JSON: {"sections": [{"id": "S", "items": ["a", "b"]}], "reloadItems": [], \
            "reconfigureItems": [], "reloadSections": []} (the refresh lists are optional). \
            TSV (a .tsv path or --input-format tsv): one section<TAB>item line per item, \
            consecutive lines of one section making that section; section<TAB> alone is an \
            empty section. Prints {"batches": [...]} or, for a snapshot with duplicate or \
            unknown identifiers, {"error": {...}} on stdout with exit status 1. Unreadable \
            files, broken JSON or TSV, bytes that are not UTF-8 and unknown keys exit with \
            status 2 and one line on stderr naming the file, line, column, byte offset and what \
            was expected (--lenient ignores unknown keys). See docs/CLI.md.
            """)

    @Argument(help: "The old snapshot (a path, or - for stdin).")
    var old: String

    @Argument(help: "The new snapshot (a path, or - for stdin).")
    var new: String

    @Option(help: "Output: json (the fixture expect object), text (for people) or steps (not yet available).")
    var format: OutputFormat = .json

    enum OutputFormat: String, ExpressibleByArgument {
        case json, text
        /// The sequential steps of `SnapshotDifference.steps` (the data-source issue): the
        /// option exists so scripts can name it; it is refused until the library has them.
        case steps
    }

    @Option(help: "Input form: json or tsv (default: tsv for a .tsv path, else json).")
    var inputFormat: SnapshotInputFormat?

    @Flag(help: "Ignore keys the snapshot format does not define (by default they are an error).")
    var lenient = false

    @Flag(help: "Print the time of each phase (read, parse, build, diff, write) on stderr.")
    var timings = false

    @Option(help: .hidden)
    var codec: Codec = .fast

    /// `foundation` reads with JSONDecoder and writes with JSONEncoder: the reference the
    /// fast path (simdjson, hand-written output) is tested against.
    enum Codec: String, ExpressibleByArgument { case fast, foundation }

    func validate() throws {
        if old == "-" && new == "-" { throw CLIError("only one of OLD and NEW can be - (stdin)") }
        if format == .steps {
            throw CLIError("--format steps is not available yet: it needs SnapshotDifference.steps (the data-source issue)")
        }
    }

    func run() throws {
        var clock = PhaseTimings()
        defer { if timings { FileHandle.standardError.write(Data((clock.lines().joined(separator: "\n") + "\n").utf8)) } }
        let inputs = try clock.measure("read", note: { "\($0.reduce(0) { $0 + $1.count }) bytes" }) {
            try [old, new].map(Self.read)
        }
        let documents = try clock.measure(
            "parse", note: { "\($0.reduce(0) { $0 + $1.itemCount }) items, \($0.reduce(0) { $0 + $1.sections.count }) sections" }
        ) {
            try inputs.map { try parse($0) }
        }
        DebugBuild.noteIfLarge(itemCount: documents[0].itemCount + documents[1].itemCount)
        let snapshots = clock.measure("build") { () -> Result<[DiffableDataSourceSnapshot<String, String>], DocumentError> in
            do throws(DocumentError) {
                return .success([try documents[0].snapshot(side: "old"), try documents[1].snapshot(side: "new")])
            } catch {
                return .failure(error)
            }
        }
        let outcome: DiffOutcome = clock.measure("diff", note: Self.summary) {
            switch snapshots {
            case .success(let pair): .batches(pair[1].difference(from: pair[0]).batches)
            case .failure(let error): .error(error)
            }
        }
        try clock.measure("write", note: { "\($0) bytes" }) { try write(outcome) }
        if case .error = outcome { throw ExitCode(CLIError.Status.rejected.rawValue) }
    }

    /// `150000 operations in 2 batches`, or `rejected`. - Complexity: O(batches).
    static func summary(_ outcome: DiffOutcome) -> String {
        guard case .batches(let batches) = outcome else { return "rejected" }
        return "\(batches.reduce(0) { $0 + $1.operationCount }) operations in \(batches.count) batches"
    }

    static func read(_ path: String) throws -> SnapshotInputBytes {
        do {
            return try SnapshotInputBytes(contentsOf: path)
        } catch {
            throw CLIError(error.description)
        }
    }

    func parse(_ input: SnapshotInputBytes) throws -> SnapshotDocument {
        let form = inputFormat ?? (input.source == "stdin" ? .json : SnapshotInputFormat.guess(path: input.source))
        do {
            if codec == .foundation && form == .json { return try Self.decode(input, lenient: lenient) }
            return try SnapshotInput.document(from: input, format: form, lenient: lenient)
        } catch let error as SnapshotInputError {
            throw CLIError(error.description)
        }
    }

    /// Writes the outcome on stdout; returns the bytes written.
    func write(_ outcome: DiffOutcome) throws -> Int {
        var bytes: [UInt8]
        switch format {
        case .json: bytes = codec == .foundation ? Array(try OutcomeJSON.foundation(outcome)) : try OutcomeJSON.encode(outcome)
        case .text, .steps: bytes = Array(Self.text(outcome).utf8)
        }
        bytes.append(0x0A)
        try StandardOutput.writeAll(bytes)
        return bytes.count
    }

    /// The reference reader: Foundation's JSONDecoder (errors name the JSON path, not the offset).
    static func decode(_ input: SnapshotInputBytes, lenient: Bool) throws -> SnapshotDocument {
        let path = input.source
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[SnapshotDocument.lenientKey] = lenient
            return try input.withBytes { try decoder.decode(SnapshotDocument.self, from: Data($0)) }
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

extension SnapshotInputFormat: ExpressibleByArgument {}
