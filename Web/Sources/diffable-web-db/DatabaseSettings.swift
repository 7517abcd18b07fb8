import Foundation
import PostgresNIO

/// Where the database is, from the libpq environment variables (loopback, no TLS: the demo's
/// and tests' throwaway cluster).
struct DatabaseSettings: Sendable {
    var configuration: PostgresConnection.Configuration

    static func fromEnvironment() -> DatabaseSettings {
        let environment = ProcessInfo.processInfo.environment
        return DatabaseSettings(
            configuration: PostgresConnection.Configuration(
                host: environment["PGHOST"] ?? "127.0.0.1", port: Int(environment["PGPORT"] ?? "") ?? 5432,
                username: environment["PGUSER"] ?? "postgres", password: environment["PGPASSWORD"],
                database: environment["PGDATABASE"] ?? "postgres", tls: .disable))
    }
}
