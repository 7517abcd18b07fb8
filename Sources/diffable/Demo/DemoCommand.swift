import ArgumentParser
import Diffable
import DiffableTools
import Foundation

/// `diffable demo` (what `make demo` runs): the data source on everyday list changes, each as
/// the list before and after with the batch between, then the engine at 10^6 items beside
/// Swift's own `difference(from:)`.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show the data source on built-in scenarios, then a timed 10^6-item diff.",
        discussion: "Scenarios: \(DemoScenarios.all.map(\.name).joined(separator: ", ")), scale.")

    @Option(help: "Show only this scenario (\(DemoScenarios.all.map(\.name).joined(separator: ", ")), scale).")
    var only: String?

    func validate() throws {
        if let only, only != "scale", !DemoScenarios.all.contains(where: { $0.name == only }) {
            throw ValidationError(
                "unknown scenario '\(only)' for --only (\(DemoScenarios.all.map(\.name).joined(separator: ", ")), scale)")
        }
    }

    func run() throws {
        let printer = DemoPrinter()
        print(printer.bold("Diffable demo: Apple's diffable data source on a C diff core") + "\n")
        if only == nil {
            print(
                "Each list is a DiffableDataSource driving a headless view that checks every batch by\n"
                    + "UIKit's rules: " + printer.paint("deleted", .deleted) + ", " + printer.paint("inserted", .inserted) + ", "
                    + printer.paint("moved", .moved) + ", " + printer.paint("refreshed", .refreshed) + ".\n")
        }
        for scenario in DemoScenarios.all where only == nil || only == scenario.name {
            print(printer.bold("■ \(scenario.name): \(scenario.title)"))
            scenario.run(printer)
        }
        if only == nil || only == "scale" {
            print(printer.bold("■ scale: the engine at 10^6 items"))
            DemoScale.run(printer)
        }
    }
}
