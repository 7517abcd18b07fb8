import ArgumentParser
import Diffable
import DiffableTools
import Foundation

/// `diffable diff OLD NEW`: the batches as JSON (`{"batches": [...]}`), a text summary or the sequential
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
            for people, each position with its identifier; steps prints one step a line (deleteItem 0 7, moveItem 2 5 0 1, ...) \
            in the order a view applying one change at a time needs them.

            A snapshot with duplicate identifiers, or refresh requests naming unknown ones, \
            exits with status 1 and one line on stderr naming the file, the identifiers and \
            their positions (--format json also prints the fixture error object on stdout). \
            Unreadable files, broken JSON or TSV, bytes that are not UTF-8 and unknown keys \
            exit with status 2 and one line on stderr naming the file, line, column, byte \
            offset and what was expected there (--lenient ignores unknown keys).
            """)

    @Argument(help: "The old snapshot (a path, or - for stdin).")
    var old: String

    @Argument(help: "The new snapshot (a path, or - for stdin).")
    var new: String

    @Option(help: "Output: json ({\"batches\": [...]}), text (for people) or steps (one step a line).")
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
        let (documents, sources) = try { () throws -> ([NumberedSnapshotDocument], [String]) in
            let inputs = try clock.measure("read") { try [old, new].map(Self.read) }
            clock.note("\(inputs[0].count + inputs[1].count) bytes")
            let reader = SnapshotReader(interner: interner)
            let documents = try clock.measure("parse") { try inputs.map { try parse($0, reader: reader) } }
            clock.note(
                "\(documents[0].items.count + documents[1].items.count) items, "
                    + "\(documents[0].sections.count + documents[1].sections.count) sections")
            return (documents, inputs.map(\.source))
        }()
        DebugBuild.noteIfLarge(itemCount: documents[0].items.count + documents[1].items.count)
        let built = try clock.measure("build") {
            do throws(SnapshotInputError) {
                return try NumberedSnapshotDocument.snapshots(old: documents[0], new: documents[1], names: interner)
            } catch {
                throw CLIError(error.description, status: .internalError)
            }
        }
        let difference = clock.measure("diff") { built.map { $0.new.difference(from: $0.old) } }
        switch difference {
        case .success(let difference):
            clock.note("\(difference.batches.reduce(0) { $0 + $1.operationCount }) operations in \(difference.batches.count) batches")
        case .failure: clock.note("rejected")
        }
        let written = try clock.measure("write") { try write(difference, documents: documents, names: interner) }
        clock.note("\(written) bytes")
        if case .failure(let error) = difference {
            throw CLIError(error.description(oldSource: sources[0], newSource: sources[1]), status: .rejected)
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

    /// Writes the diff in `format` on stdout; returns the bytes written. A rejected input is
    /// the fixture error object in JSON; text and steps say it on stderr only.
    /// - Complexity: O(operations), plus the steps' own cost for `steps`.
    func write(
        _ difference: Result<SnapshotDifference<Int, Int>, DocumentError>, documents: [NumberedSnapshotDocument], names: IdentifierInterner
    ) throws -> Int {
        var bytes: [UInt8]
        switch (difference, format) {
        case (_, .json): bytes = try OutcomeJSON.encode(DiffOutcome(difference.map(\.batches))) + [0x0A]
        case (.failure, _): return 0
        case (.success(let difference), .steps): bytes = StepLines.encode(difference.steps)
        case (.success(let difference), .text):
            let (old, new) = (documents[0], documents[1])
            let text = BatchText.render(
                difference.batches,
                names: .init(
                    oldSection: { old.sectionIdentifier(at: $0, names: names) },
                    newSection: { new.sectionIdentifier(at: $0, names: names) },
                    oldItem: { old.itemIdentifier(at: $0, names: names) }, newItem: { new.itemIdentifier(at: $0, names: names) }))
            bytes = Array((text + "\n").utf8)
        }
        try StandardOutput.writeAll(bytes)
        return bytes.count
    }
}

extension SnapshotInputFormat: ExpressibleByArgument {}
