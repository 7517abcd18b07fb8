import ArgumentParser

@main
struct DiffableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diffable",
        abstract: "Diff snapshots of sections and items, benchmark the engine, check fixtures.",
        subcommands: [DemoCommand.self, DiffCommand.self, FixturesCommand.self, BenchCommand.self])
}
