import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing

@testable import ZKPinServer

/// The one schema list (`ServerSchema`): both databases run it to the same version, a fresh
/// database has exactly the schema the released versions made (SchemaFixtures/, dumped from a
/// database that the release with schema version 8 created, before the list existed), and a
/// database that any earlier version left migrates to that same schema, then to the latest.
struct SchemaListTests {
    /// The version the fixtures hold.
    static let fixed = 8

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("SchemaFixtures")
    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func theListIsNumberedOnceInOrderAndOwnedByRooms() throws {
        let versions = Set(ServerSchema.changes.map(\.version))
        #expect(versions == Set(1...ServerSchema.changes.latest))
        let sources = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ZKPinServer/Features")
        let features = Set(try FileManager.default.contentsOfDirectory(atPath: sources.path))
        for change in ServerSchema.changes {
            #expect(change.owner == "core" || features.contains(change.owner), "version \(change.version): \(change.owner)")
            #expect(!change.statements(.sqlite).isEmpty || !change.rewrites.isEmpty, "version \(change.version) does nothing")
            #expect(change.statements(.sqlite).count == change.statements(.postgres).count)
        }
    }

    /// sqlite_master's text of every table and index, as `sqlite3 .schema` would list it.
    static func sqliteSchema(_ db: some DatabaseReader) throws -> String {
        try db.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' ORDER BY name"
            ).map { $0 + ";\n" }.joined()
        }
    }

    @Test func aFreshSQLiteDatabaseHasTheReleasedSchemaByteForByte() throws {
        let queue = try DatabaseQueue()
        try SQLiteMigrations.migrator(ServerSchema.changes).migrate(queue, upTo: "v\(Self.fixed)")
        #expect(try Self.sqliteSchema(queue) == Self.fixture("sqlite-v8.sql"))
        try SQLiteMigrations.migrator(ServerSchema.changes).migrate(queue)
        let applied = try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(applied == (1...ServerSchema.changes.latest).map { "v\($0)" })
    }

    @Test(arguments: 1...fixed)
    func aSQLiteDatabaseAnEarlierVersionLeftMigrates(version: Int) throws {
        let queue = try DatabaseQueue()
        try SQLiteMigrations.migrator(ServerSchema.changes).migrate(queue, upTo: "v\(version)")
        try SQLiteMigrations.migrator(ServerSchema.changes).migrate(queue, upTo: "v\(Self.fixed)")
        #expect(try Self.sqliteSchema(queue) == Self.fixture("sqlite-v8.sql"))
        try SQLiteMigrations.migrator(ServerSchema.changes).migrate(queue)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM grdb_migrations") } == ServerSchema.changes.latest)
    }

    // MARK: PostgreSQL

    static let columnsQuery = """
        SELECT table_name, column_name, data_type, is_nullable, coalesce(column_default, ''), is_identity
        FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT LIKE 'zkpin_schema%'
        ORDER BY table_name, ordinal_position
        """
    static let indexesQuery = """
        SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename NOT LIKE 'zkpin_schema%' ORDER BY indexname
        """

    /// The columns and indexes, in the fixtures' form (psql -At, columns joined by |).
    static func postgresSchema(_ c: PostgresConnection, logger: Logger) async throws -> (columns: String, indexes: String) {
        var columns = ""
        for try await (t, n, type, nullable, d, identity) in try await c.query(PostgresQuery(unsafeSQL: columnsQuery), logger: logger)
            .decode((String, String, String, String, String, String).self)
        {
            columns += [t, n, type, nullable, d, identity].joined(separator: "|") + "\n"
        }
        var indexes = ""
        for try await definition in try await c.query(PostgresQuery(unsafeSQL: indexesQuery), logger: logger).decode(String.self) {
            indexes += definition + "\n"
        }
        return (columns, indexes)
    }

    static func versions(_ c: PostgresConnection, logger: Logger) async throws -> [Int] {
        var found: [Int] = []
        for try await v in try await c.query("SELECT version FROM zkpin_schema ORDER BY version", logger: logger).decode(Int.self) {
            found.append(v)
        }
        return found
    }

    @Test(.enabled(if: TestPostgres.isConfigured, TestPostgres.skipReason))
    func aFreshPostgresDatabaseHasTheReleasedSchemaAndSQLitesVersion() async throws {
        let location = try PostgresLocation(url: try await TestPostgres.freshDatabase())
        let logger = Logger(label: "test")
        let c = try await PostgresConnection.connect(configuration: location.connectionConfiguration, id: 1, logger: logger)
        defer { Task { try? await c.close() } }
        try await PostgresMigrations.migrate(c, schema: ServerSchema.changes, logger: logger, upTo: Self.fixed)
        let schema = try await Self.postgresSchema(c, logger: logger)
        #expect(schema.columns == (try Self.fixture("postgres-columns-v8.txt")))
        #expect(schema.indexes == (try Self.fixture("postgres-indexes-v8.txt")))
        try await PostgresMigrations.migrate(c, schema: ServerSchema.changes, logger: logger)
        #expect(try await Self.versions(c, logger: logger) == Array(1...ServerSchema.changes.latest))
    }

    /// Releases before the one list numbered PostgreSQL's versions one lower from 2 on, in
    /// `zkpin_schema_version`: a database each of them left is carried over and migrated.
    @Test(.enabled(if: TestPostgres.isConfigured, TestPostgres.skipReason), arguments: 1...7)
    func aPostgresDatabaseAnOlderReleaseNumberedMigrates(oldVersion: Int) async throws {
        let location = try PostgresLocation(url: try await TestPostgres.freshDatabase())
        let logger = Logger(label: "test")
        let c = try await PostgresConnection.connect(configuration: location.connectionConfiguration, id: 1, logger: logger)
        defer { Task { try? await c.close() } }
        // The tables as that release left them (its version 1 held versions 1 and 2 of the list).
        let reached = oldVersion == 1 ? 2 : oldVersion + 1
        try await PostgresMigrations.migrate(c, schema: ServerSchema.changes, logger: logger, upTo: reached)
        try await c.query("DROP TABLE zkpin_schema", logger: logger)
        try await c.query("CREATE TABLE zkpin_schema_version(version BIGINT PRIMARY KEY, applied BIGINT NOT NULL)", logger: logger)
        for v in 1...oldVersion {
            try await c.query(PostgresQuery(unsafeSQL: "INSERT INTO zkpin_schema_version VALUES (\(v), \(1000 + v))"), logger: logger)
        }
        try await PostgresMigrations.migrate(c, schema: ServerSchema.changes, logger: logger, upTo: Self.fixed)
        let schema = try await Self.postgresSchema(c, logger: logger)
        #expect(schema.columns == (try Self.fixture("postgres-columns-v8.txt")))
        #expect(schema.indexes == (try Self.fixture("postgres-indexes-v8.txt")))
        try await PostgresMigrations.migrate(c, schema: ServerSchema.changes, logger: logger)
        #expect(try await Self.versions(c, logger: logger) == Array(1...ServerSchema.changes.latest))
        var old = true
        for try await found in try await c.query("SELECT to_regclass('zkpin_schema_version') IS NOT NULL", logger: logger).decode(Bool.self) {
            old = found
        }
        #expect(!old, "the old version table is dropped once carried over")
    }
}
