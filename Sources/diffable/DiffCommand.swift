import ArgumentParser
import Diffable
import DiffableTools
import Foundation

/// `diffable diff OLD NEW`: the fixture `expect` object, a text summary or the sequential
/// steps for two snapshots (JSON or TSV, files or stdin), at the engine's speed: identifiers
/// are read by simdjson and numbered, so the engine diffs integers (docs/CLI_IO.md).
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Diff two snapshots given as JSON or TSV files (or - for stdin).",
        discussion: """
            JSON: {"sections": [{"id": "S", "items": ["a", "b"]}], "reloadItems": [], \
            "reconfigureItems": [], "reloadSections": []} (the refresh lists are optional). \
            TSV: one section<TAB>item line per item, consecutive lines of one section making \
            that section; section<TAB> alone is an empty section. A .json or .tsv name says the \
            form; otherwise (stdin) input starting with { is JSON, anything else TSV; \
            --input-format overrides both.

            Output: --format json (default) prints {"batches": [...]}; text prints the batches \
            for people; steps prints one step a line (deleteItem 0 7, moveItem 2 5 0 1, ...) \
            in the order a view applying one change at a time needs them.

            A snapshot with duplicate identifiers, or refresh requests naming unknown ones, \
            exits with status 1 and one line on stderr naming the identifiers and their \
            positions (--format json also prints the fixture error object on stdout). \
            Unreadable files, broken JSON or TSV, bytes that are not UTF-8 and unknown keys \
            exit with status 2 and one line on stderr naming the file, line, column, byte \
            offset and what was expected there (--lenient ignores unknown keys).
            """)

    @Argument(help: "The old snapshot (a path, or - for stdin).")
    var old: String

    @Argument(help: "The new snapshot (a path, or - for stdin).")
    var new: String

    @Option(help: "Output: json (the fixture expect object), text (for people) or steps (one step a line).")
    var format: OutputFormat = .json

    enum OutputFormat: String, ExpressibleByArgument {
        case json, text, steps
    }

    @Option(help: "Input form: json or tsv (default: from the name, else from the first byte).")
    var inputFormat: SnapshotInputFormat?

    @Flag(help: "Ignore keys the snapshot format does not define (by default they are an error).")
    var lenient = false

    @Flag(help: "Print the time of each phase (read, parse, build, diff, write) on stderr.")
    var timings = false

    func validate() throws {
        if old == "-" && new == "-" { throw CLIError("only one of OLD and NEW can be - (stdin)") }
    }

    func run() throws {
        var clock = PhaseTimings()
        defer { if timings { FileHandle.standardError.write(Data((clock.lines().joined(separator: "\n") + "\n").utf8)) } }
        let interner = IdentifierInterner()
        // The inputs and the JSON parser's buffers are released before the snapshots are built.
        let documents = try { () throws -> [NumberedSnapshotDocument] in
            let inputs = try clock.measure("read") { try [old, new].map(Self.read) }
            clock.note("\(inputs[0].count + inputs[1].count) bytes")
            let reader = SnapshotReader(interner: interner)
            let documents = try clock.measure("parse") { try inputs.map { try parse($0, reader: reader) } }
            clock.note(
                "\(documents[0].items.count + documents[1].items.count) items, "
                    + "\(documents[0].sections.count + documents[1].sections.count) sections")
            return documents
        }()
        DebugBuild.noteIfLarge(itemCount: documents[0].items.count + documents[1].items.count)
        let built = try clock.measure("build") {
            do throws(SnapshotInputError) {
                return try NumberedSnapshotDocument.snapshots(old: documents[0], new: documents[1], names: interner)
            } catch {
                throw CLIError(error.description, status: .internalError)
            }
        }
        let outcome = clock.measure("diff") { () -> Outcome in
            switch built {
            case .failure(let error):
                return .rejected(error)
            case .success(let pair):
                let difference = pair.new.difference(from: pair.old)
                return format == .steps ? .steps(difference.steps) : .batches(difference.batches)
            }
        }
        clock.note(Self.summary(outcome))
        let written = try clock.measure("write") { try write(outcome) }
        clock.note("\(written) bytes")
        if case .rejected(let error) = outcome {
            throw CLIError(error.description, status: .rejected)
        }
    }

    /// What the diff phase produced: the format's content, or the reason there is none.
    enum Outcome {
        case batches([BatchUpdate])
        case steps([ListStep])
        case rejected(DocumentError)
    }

    /// `150000 operations in 2 batches`, `150000 steps` or `rejected`. - Complexity: O(batches).
    static func summary(_ outcome: Outcome) -> String {
        switch outcome {
        case .batches(let batches): "\(batches.reduce(0) { $0 + $1.operationCount }) operations in \(batches.count) batches"
        case .steps(let steps): "\(steps.count) steps"
        case .rejected: "rejected"
        }
    }

    static func read(_ path: String) throws -> SnapshotInputBytes {
        do {
            return try SnapshotInputBytes(contentsOf: path)
        } catch {
            throw CLIError(error.description)
        }
    }

    func parse(_ input: SnapshotInputBytes, reader: SnapshotReader) throws -> NumberedSnapshotDocument {
        let form = inputFormat ?? input.withBytes { SnapshotInputFormat.detect(path: input.source, bytes: $0) }
        do {
            return try reader.document(from: input, format: form, lenient: lenient)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// Writes the outcome on stdout; returns the bytes written.
    func write(_ outcome: Outcome) throws -> Int {
        var bytes: [UInt8]
        switch (outcome, format) {
        case (.steps(let steps), _): bytes = StepLines.encode(steps)
        case (.batches(let batches), .text): bytes = Array((Self.text(.batches(batches)) + "\n").utf8)
        case (.batches(let batches), _): bytes = try OutcomeJSON.encode(.batches(batches)) + [0x0A]
        // The error object is the fixture's expect; text and steps say it on stderr only.
        case (.rejected(let error), .json): bytes = try OutcomeJSON.encode(.error(error)) + [0x0A]
        case (.rejected, _): return 0
        }
        try StandardOutput.writeAll(bytes)
        return bytes.count
    }

    /// The outcome for people: one line per kind of change in each batch.
    /// - Complexity: O(operations).
    static func text(_ outcome: DiffOutcome) -> String {
        guard case .batches(let batches) = outcome else {
            if case .error(let error) = outcome { return "rejected: \(error)" }
            return ""
        }
        if batches.isEmpty { return "no changes" }
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

extension SnapshotInputFormat: ExpressibleByArgument {}
