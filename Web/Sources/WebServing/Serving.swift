// What the demo, the browser tests' server and the benchmark's server share: serving a router
// on loopback and printing its URL, HTML responses, a seeded generator, option parsing. Not a
// product: apps that depend on DiffableWeb never link it.
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// Runs `router` on 127.0.0.1:`port` with WebSocket upgrades and prints the URL of `page` once
/// the server listens (port 0: the system picks one, and the printed URL has it).
package func runServer(_ router: Router<BasicWebSocketRequestContext>, port: Int, page: String, name: String) async throws {
    var logger = Logger(label: "diffable-web")
    logger.logLevel = .warning
    let app = Application(
        router: router,
        server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: 1 << 20))),
        configuration: .init(address: .hostname("127.0.0.1", port: port)),
        onServerRunning: { channel in
            let bound = channel.localAddress?.port ?? port
            FileHandle.standardOutput.write(Data("\(name): http://127.0.0.1:\(bound)\(page)\n".utf8))
        },
        logger: logger
    )
    try await app.runService()
}

/// A page's HTML as a response.
package func htmlResponse(_ html: String) -> Response {
    Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
}

/// A small deterministic generator (SplitMix64), so demo data and benchmark churn repeat.
package struct SeededGenerator: RandomNumberGenerator {
    package var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The value of `--name N` in `arguments` (a non-negative integer), `value` when absent; exits
/// with status 2 and a message naming the option when the value is missing or not a number.
package func intOption(_ name: String, default value: Int, in arguments: [String], program: String) -> Int {
    guard let index = arguments.firstIndex(of: name) else { return value }
    guard index + 1 < arguments.count, let parsed = Int(arguments[index + 1]), parsed >= 0 else {
        FileHandle.standardError.write(Data("\(program): \(name) needs a non-negative integer\n".utf8))
        exit(2)
    }
    return parsed
}
