import ArgumentParser
import DiffableTools
import Foundation

/// `diffable generate OLD NEW`: the sectioned churn of docs/PERFORMANCE.md written as two snapshot
/// files: the large inputs that the CLI tests and the I/O measurements diff.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write the sectioned churn workload as two snapshot files (JSON or TSV).")

    @Argument(help: "Where to write the old snapshot.")
    var old: String

    @Argument(help: "Where to write the new snapshot.")
    var new: String

    @Option(help: "Items in the old snapshot.")
    var items = 1_000_000

    @Option(help: "Sections in each snapshot.")
    var sections = 10_000

    @Option(help: "The workload's seed.")
    var seed: UInt64 = 3

    @Option(help: "File form: json or tsv.")
    var format: SnapshotInputFormat = .json

    func validate() throws {
        guard (1...100_000_000).contains(items), (1...items).contains(sections) else {
            throw CLIError("--items must be in 1...100000000 and --sections in 1...items")
        }
    }

    func run() throws {
        let (oldLayout, newLayout) = SectionedWorkload.churn(itemCount: items, sectionCount: sections, seed: seed)
        for (path, layout) in [(old, oldLayout), (new, newLayout)] {
            let document = SnapshotDocument(
                sections: layout.enumerated().map { index, ids in
                    .init(id: Self.sectionName(index), items: ids.map(WorkloadKeyKind.name))
                })
            let bytes = format == .json ? SnapshotFileWriter.json(document) : SnapshotFileWriter.tsv(document)
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw CLIError("cannot write '\(path)'")
            }
        }
    }

    /// "section-%05d". - Complexity: O(1).
    static func sectionName(_ index: Int) -> String {
        let digits = String(index)
        return "section-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }
}
