import Foundation
import Logging
import PostgresNIO
import Testing
import ZKPinTestSupport

@testable import ZKPinServer

/// What only the PostgreSQL store has: migrations shared by instances, connection errors,
/// reconnecting after a server restart. Needs ZKPIN_TEST_POSTGRES_URL (tools/test sets it).
@Suite(.enabled(if: TestPostgres.isConfigured, TestPostgres.skipReason))
struct PostgresStoreTests {
    @Test func migrationsAreIdempotentAndSafeWhenInstancesStartTogether() async throws {
        let url = try await TestPostgres.freshDatabase()
        let location = try PostgresLocation(url: url)
        // Four "instances" migrate an empty database at once; all succeed, v1 is applied once.
        let stores = try await withThrowingTaskGroup(of: Store.self) { group in
            for _ in 0..<4 { group.addTask { try await Store.postgres(location, maxConnections: 2, patience: TestPostgres.patience) } }
            return try await group.reduce(into: [Store]()) { $0.append($1) }
        }
        let again = try await Store.postgres(location, maxConnections: 2, patience: TestPostgres.patience)
        let versions = try await again.driver.read("SELECT version FROM zkpin_schema ORDER BY version")
            .map { try $0.int("version") }
        #expect(versions == Array(1...ServerSchema.changes.latest))
        #expect(try await stores[0].fixSetting("curve", value: "bn254cx") == "bn254cx")
        #expect(try await stores[3].fixSetting("curve", value: "bls12-381") == "bn254cx")
    }

    @Test func unreachableDatabaseIsAClearError() async throws {
        // A port bound but not listening: connections are refused, and no other test's server
        // can take it meanwhile (a merely free port could be).
        let refusing = try #require(LoopbackSocket())
        defer { refusing.close() }
        let port = refusing.port
        let error = await #expect(throws: SetupError.self) {
            try await Store.postgres(try PostgresLocation(url: "postgres://zkpin@127.0.0.1:\(port)/x", environment: [:]))
        }
        let text = error?.description ?? ""
        #expect(text.contains("cannot use the database postgres://zkpin@127.0.0.1:\(port)/x"), "\(text)")
        #expect(text.contains("connection refused"), "\(text)")
    }

    @Test func theUnixSocketServesTheStore() async throws {
        // The same server through its socket (tools/lib/postgres.sh trusts local connections).
        let socketURL = try #require(
            ProcessInfo.processInfo.environment["ZKPIN_TEST_POSTGRES_SOCKET_URL"], "tools/test sets ZKPIN_TEST_POSTGRES_SOCKET_URL")
        let tcp = try PostgresLocation(url: try await TestPostgres.freshDatabase())
        var socket = try PostgresLocation(url: socketURL, environment: [:])
        socket.database = tcp.database
        #expect(socket.socketPath != nil)
        let overTCP = try await Store.postgres(tcp, maxConnections: 2, patience: TestPostgres.patience)
        let overSocket = try await Store.postgres(socket, maxConnections: 2, patience: TestPostgres.patience)
        // A row written through one is read through the other: one database, two ways in.
        #expect(try await overSocket.fixSetting("curve", value: "bls12-381") == "bls12-381")
        #expect(try await overTCP.fixSetting("curve", value: "bn254cx") == "bls12-381")
        // PostgreSQL leaves client_addr empty for a Unix-socket session only.
        let isLocal: SQLStatement =
            "SELECT count(*) AS n FROM pg_stat_activity WHERE client_addr IS NULL AND pid = pg_backend_pid()"
        #expect(try await overSocket.driver.readOne(isLocal)?.int("n") == 1, "the socket store's session is not a Unix-socket one")
        #expect(try await overTCP.driver.readOne(isLocal)?.int("n") == 0)

        var missing = socket
        missing.socketDirectory = "/nonexistent-zkpin-socket-folder"
        let error = await #expect(throws: SetupError.self) { try await Store.postgres(missing, maxConnections: 1) }
        #expect(error?.description.contains("no socket there") == true, "\(String(describing: error))")
        #expect(error?.description.contains("/nonexistent-zkpin-socket-folder") == true, "\(String(describing: error))")
    }

    @Test func wrongPasswordAndMissingDatabaseSayWhy() async throws {
        let url = try #require(TestPostgres.url)
        let wrong = await #expect(throws: SetupError.self) {
            try await Store.postgres(try PostgresLocation(url: url, environment: ["PGPASSWORD": "not-the-password"]))
        }
        #expect(wrong?.description.contains("password authentication failed") == true, "\(String(describing: wrong))")
        var missing = URLComponents(string: url)!
        missing.path = "/no_such_database"
        let noDB = await #expect(throws: SetupError.self) {
            try await Store.postgres(try PostgresLocation(url: missing.string!))
        }
        #expect(noDB?.description.contains("does not exist") == true, "\(String(describing: noDB))")
    }

}
