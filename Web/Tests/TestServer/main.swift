// diffable-web-test-server: the pages the browser suite (Web/Tests) drives. Prints its URL.
import Foundation
import WebServing

try await TestServer().run(
    port: intOption("--port", default: 0, in: Array(CommandLine.arguments.dropFirst()), program: "diffable-web-test-server"))
