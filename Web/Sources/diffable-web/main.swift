// diffable-web: the leaderboard demo. Prints its page's URL.
// (The browser tests' pages are Tests/TestServer, the benchmark's Benchmarks/BenchServer: this
// shipped program carries neither.)
import Foundation
import WebServing

let usage = """
    usage: diffable-web serve [--port N] [--rows N] [--ticks-per-second N]
    Serves on 127.0.0.1 (port 0 picks a free one) and prints the page's URL.
    """

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "serve" else {
    let problem = arguments.first.map { "diffable-web: unknown command \(String(reflecting: $0))\n" } ?? ""
    FileHandle.standardError.write(Data((problem + usage + "\n").utf8))
    exit(2)
}
arguments.removeFirst()
try await LeaderboardDemo(
    rows: intOption("--rows", default: 10_000, in: arguments, program: "diffable-web"),
    ticksPerSecond: intOption("--ticks-per-second", default: 5, in: arguments, program: "diffable-web")
).run(port: intOption("--port", default: 8080, in: arguments, program: "diffable-web"))
