// diffable-web: the leaderboard demo (`serve`), and the pages that the browser tests
// (`test-server`) and the benchmark (`bench-server`) drive. Every command prints its URL.
import Foundation

let usage = """
    usage: diffable-web serve [--port N] [--rows N] [--ticks-per-second N]
           diffable-web test-server [--port N]
           diffable-web bench-server [--port N]
    Serves on 127.0.0.1 (port 0 picks a free one) and prints the page's URL.
    """

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
arguments.removeFirst()

/// `--name value` pairs; a missing or non-numeric value is an error naming the option.
func intOption(_ name: String, default value: Int, in arguments: [String]) -> Int {
    guard let index = arguments.firstIndex(of: name) else { return value }
    guard index + 1 < arguments.count, let parsed = Int(arguments[index + 1]), parsed >= 0 else {
        FileHandle.standardError.write(Data("diffable-web: \(name) needs a non-negative integer\n".utf8))
        exit(2)
    }
    return parsed
}

let port = intOption("--port", default: command == "serve" ? 8080 : 0, in: arguments)
switch command {
case "serve":
    try await LeaderboardDemo(rows: intOption("--rows", default: 10_000, in: arguments), ticksPerSecond: intOption("--ticks-per-second", default: 5, in: arguments))
        .run(port: port)
case "test-server":
    try await TestServer().run(port: port)
case "bench-server":
    try await BenchServer().run(port: port)
default:
    FileHandle.standardError.write(Data("diffable-web: unknown command \(String(reflecting: command))\n\(usage)\n".utf8))
    exit(2)
}
