import Foundation

/// Where `diffable bench` writes its rows on stdout, as they are measured: a Markdown table
/// per suite (its header when the suite's first row arrives, its notes when the next suite
/// starts or the run ends) or CSV lines, each flushed at once so a reader of a pipe sees every
/// row when it is done; JSON, being one document, at the end.
final class BenchOutput {
    enum Form { case markdown, csv, json }

    private let form: Form
    private var rows: [BenchRow] = []
    /// The rows of the suite whose table is open (Markdown).
    private var suiteRows: [BenchRow] = []
    private var tableOpened = false

    init(form: Form) {
        self.form = form
        if form == .csv { write(BenchTable.csvHeader.joined(separator: ",")) }
    }

    /// Prints `produced` (one step's rows).
    func add(_ produced: [BenchRow]) {
        rows += produced
        for row in produced {
            switch form {
            case .json: break
            case .csv: write(BenchTable.csvLine(row))
            case .markdown:
                if suiteRows.first?.suite != row.suite {
                    closeTable()
                    write((tableOpened ? "\n" : "") + BenchTable.markdownHeader(suite: row.suite))
                    tableOpened = true
                }
                suiteRows.append(row)
                write(BenchTable.markdownLine(row))
            }
        }
    }

    /// Ends the output: the last table's notes and `footer` (Markdown), or the JSON document.
    func finish(machine: String, footer: String) throws {
        switch form {
        case .csv: break
        case .json: write(try BenchTable.json(rows, machine: machine))
        case .markdown:
            closeTable()
            write("\n" + footer)
        }
    }

    private func closeTable() {
        if let notes = BenchTable.markdownNotes(suiteRows) { write("\n" + notes) }
        suiteRows = []
    }

    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
