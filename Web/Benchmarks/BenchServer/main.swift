// diffable-web-bench-server: the page the browser benchmark (Web/Benchmarks/bench_browser.py)
// drives. Prints its URL.
import Foundation
import WebServing

try await BenchServer().run(
    port: intOption("--port", default: 0, in: Array(CommandLine.arguments.dropFirst()), program: "diffable-web-bench-server"))
