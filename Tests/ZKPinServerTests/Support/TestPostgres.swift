import Foundation
import Logging
import PostgresNIO
import Testing

@testable import ZKPinServer

/// The PostgreSQL server the tests use: `ZKPIN_TEST_POSTGRES_URL` (a user that may create
/// databases; password in PGPASSWORD). tools/test starts a throwaway one and sets it; without
/// it the PostgreSQL tests are skipped with `skipReason`.
enum TestPostgres {
    static let url: String? = {
        let value = ProcessInfo.processInfo.environment["ZKPIN_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()
    static var isConfigured: Bool { url != nil }
    static let skipReason: Comment = "ZKPIN_TEST_POSTGRES_URL is not set: PostgreSQL tests skipped (tools/test starts a PostgreSQL and sets it)"

    /// The second server, which the reconnect tests restart (so the restarts never break the
    /// tests that run meanwhile on the first).
    static let restartURL: String? = {
        let value = ProcessInfo.processInfo.environment["ZKPIN_TEST_POSTGRES_RESTART_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()
    static var canRestart: Bool {
        restartURL != nil && !(ProcessInfo.processInfo.environment["ZKPIN_TEST_POSTGRES_RESTART"] ?? "").isEmpty
    }
    static let restartSkipReason: Comment =
        "ZKPIN_TEST_POSTGRES_RESTART_URL and ZKPIN_TEST_POSTGRES_RESTART are not set: restart tests skipped (tools/test sets them)"

    /// One pool per server for creating the per-test databases.
    static let admin = adminClient(url)
    static let restartAdmin = adminClient(restartURL)

    private static func adminClient(_ url: String?) -> PostgresClient? {
        guard let url, let location = try? PostgresLocation(url: url) else { return nil }
        let client = PostgresClient(configuration: location.poolConfiguration, backgroundLogger: Logger(label: "test.postgres"))
        Task.detached { await client.run() }
        return client
    }

    struct NotConfigured: Error {}

    /// The URL of a new, empty database of its own, so tests never see each other's rows.
    static func freshDatabase(restartable: Bool = false) async throws -> String {
        guard let client = restartable ? restartAdmin : admin, let base = restartable ? restartURL : url else { throw NotConfigured() }
        let name = "zkpin_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        var components = URLComponents(string: base)!
        components.path = "/" + name
        return components.string!
    }

    /// How much longer than a server the tests' stores wait for the database (8 times the
    /// deadline): they check what the store does, and run beside tests whose crypto keeps this
    /// process's threads busy, which handles the database's replies late. The deadline itself
    /// is PostgresOutageTests' subject, on stores of their own.
    static let patience = 8.0

    /// A store on a database of its own.
    static func freshStore(restartable: Bool = false) async throws -> Store {
        try await Store.postgres(
            try PostgresLocation(url: try await freshDatabase(restartable: restartable)), maxConnections: 8, patience: patience)
    }

    /// Restarts the server (`pg_ctl restart` through the script tools/lib/postgres.sh writes).
    static func restart() throws {
        guard let script = ProcessInfo.processInfo.environment["ZKPIN_TEST_POSTGRES_RESTART"], !script.isEmpty else {
            throw RestartUnavailable()
        }
        // system(3) rather than Process: Foundation never noticed that the `runuser` child had
        // exited (it stayed a zombie and waitUntilExit hung).
        let status = system("'" + script.replacingOccurrences(of: "'", with: "'\\''") + "'")
        guard status == 0 else { throw RestartUnavailable() }
    }

    struct RestartUnavailable: Error, CustomStringConvertible {
        var description: String { "ZKPIN_TEST_POSTGRES_RESTART is not set or failed" }
    }
}

/// The third throwaway server, which the outage test stops and starts (tools/lib/postgres.sh).
enum OutagePostgres {
    static let url: String? = {
        let value = ProcessInfo.processInfo.environment["ZKPIN_TEST_POSTGRES_OUTAGE_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()
    static let script = ProcessInfo.processInfo.environment["ZKPIN_TEST_POSTGRES_OUTAGE"] ?? ""
    static var isConfigured: Bool { url != nil && !script.isEmpty }
    static let skipReason: Comment =
        "ZKPIN_TEST_POSTGRES_OUTAGE_URL and ZKPIN_TEST_POSTGRES_OUTAGE are not set: the outage test is skipped (tools/test sets them)"

    /// `stop` or `start` the server (system(3), as `TestPostgres.restart`).
    static func run(_ verb: String) throws {
        let status = system("'" + script.replacingOccurrences(of: "'", with: "'\\''") + "' " + verb)
        guard status == 0 else { throw TestPostgres.RestartUnavailable() }
    }

    /// A new database of its own on that server.
    static func freshDatabase() async throws -> String {
        guard let url, let location = try? PostgresLocation(url: url) else { throw TestPostgres.NotConfigured() }
        let connection = try await PostgresConnection.connect(
            configuration: location.connectionConfiguration, id: 99, logger: Logger(label: "test.outage"))
        let name = "zkpin_o_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: Logger(label: "test.outage"))
        try await connection.close()
        var components = URLComponents(string: url)!
        components.path = "/" + name
        return components.string!
    }
}
