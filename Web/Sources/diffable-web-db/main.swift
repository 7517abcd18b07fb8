// diffable-web-db: the leaderboard on PostgreSQL, one list per team, for several instances.
//   setup   creates the players table if it is missing and installs its NOTIFY trigger (the
//           row-level one, which serves both modes; --plain: the one that names no rows);
//   serve   serves the board on 127.0.0.1 and prints the page's URL.
// The database comes from PGHOST, PGPORT, PGUSER, PGDATABASE (PGPASSWORD if set); the key that
// signs viewers' team tokens from DIFFABLE_SCOPE_SECRET (at least 32 bytes, the same on every
// instance).
import Foundation
import WebServing

let usage = """
    usage: diffable-web-db setup [--plain]
           diffable-web-db serve [--port N] [--peer-port N]... [--demo-login] [--requery]
    setup: install the trigger that notifies the changed rows' keys (serves both modes); --plain:
    the trigger that notifies without keys (re-query mode only).
    serve: re-read only the notified rows (row-level mode); --requery: run each team's whole
    query per notification instead.
    serve: --peer-port: another instance's port (its page's origin may connect here, and this
    page's client fails over to it); --demo-login: /login?team=NAME signs the visitor in as that
    team (a stand-in for a real sign-in, for the demo only).
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("diffable-web-db: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "" : arguments.removeFirst()
let database = DatabaseSettings.fromEnvironment()
switch command {
case "setup":
    try await LiveBoard.setUp(database, rowLevel: !arguments.contains("--plain"))
case "serve":
    var peers: [Int] = []
    var index = 0
    while let found = arguments[index...].firstIndex(of: "--peer-port") {
        guard found + 1 < arguments.count, let port = Int(arguments[found + 1]), port > 0 else { fail("--peer-port needs a port number") }
        peers.append(port)
        index = found + 2
    }
    guard let secret = ProcessInfo.processInfo.environment["DIFFABLE_SCOPE_SECRET"], secret.utf8.count >= 32 else {
        fail("DIFFABLE_SCOPE_SECRET must hold the token signing key (at least 32 bytes, the same on every instance)")
    }
    try await LiveBoard(
        database: database, secret: Array(secret.utf8), peerPorts: peers, demoLogin: arguments.contains("--demo-login"),
        rowLevel: !arguments.contains("--requery")
    )
    .run(port: intOption("--port", default: 8080, in: arguments, program: "diffable-web-db"))
default:
    if !command.isEmpty { FileHandle.standardError.write(Data("diffable-web-db: unknown command \(String(reflecting: command))\n".utf8)) }
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
