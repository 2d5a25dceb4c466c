import Foundation
import Logging
import PostgresNIO

/// Runs the schema list (`SchemaChange`) on PostgreSQL: each version applied is recorded in
/// `zkpin_schema(version, applied)`, with the same numbers as SQLite's. Several instances may
/// start at once on an empty database: all of them run `migrate`, and a transaction-scoped
/// advisory lock makes them take turns, so each version is applied once and the later ones
/// find it recorded.
///
/// Releases before the one schema list recorded PostgreSQL's versions in
/// `zkpin_schema_version` with numbers one lower from 2 on (its first version also made the
/// rate-limit table, SQLite's second): such a table is carried over once (`carryOver`).
enum PostgresMigrations {
    /// An arbitrary constant that names ZKPin's migration lock among other advisory locks.
    static let lockKey: Int64 = 0x7a6b_7069_6e5f_6d69

    struct NewerSchema: Error, CustomStringConvertible {
        var found: Int
        var known: Int
        var description: String {
            "the database has schema version \(found), newer than this zkpin-server knows (\(known)); upgrade zkpin-server"
        }
    }

    /// Brings the schema up to date; safe to run from several processes at once.
    /// `upTo` stops at an older version (tests make a database as an older release left it).
    static func migrate(_ connection: PostgresConnection, schema: [SchemaChange], logger: Logger, upTo last: Int? = nil) async throws {
        let last = last ?? schema.latest
        try await connection.withTransaction(logger: logger) { connection in
            // Held until this transaction ends: a second instance waits here, then sees the
            // versions the first one recorded.
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await carryOver(connection, logger: logger)
            var current = 0
            for try await version in try await connection.query(
                "SELECT COALESCE(MAX(version), 0) FROM zkpin_schema", logger: logger
            ).decode(Int.self) {
                current = version
            }
            guard current <= schema.latest else { throw NewerSchema(found: current, known: schema.latest) }
            for (version, changes) in schema.byVersion where version > current && version <= last {
                for change in changes {
                    for sql in change.statements(.postgres) { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                    for rewrite in change.rewrites { try await apply(rewrite, connection, logger: logger) }
                }
                let applied = Int(Date().timeIntervalSince1970)
                try await connection.query("INSERT INTO zkpin_schema(version, applied) VALUES (\(version), \(applied))", logger: logger)
                logger.info("database schema migrated", metadata: ["version": "\(version)"])
            }
        }
    }

    /// Creates `zkpin_schema`, carrying over an older release's `zkpin_schema_version`: its
    /// version 1 is versions 1 and 2 here, its version N (N >= 2) is N + 1.
    static func carryOver(_ connection: PostgresConnection, logger: Logger) async throws {
        var exists = false
        for try await found in try await connection.query(
            "SELECT to_regclass('zkpin_schema') IS NOT NULL", logger: logger
        ).decode(Bool.self) {
            exists = found
        }
        if exists { return }
        try await connection.query(
            "CREATE TABLE zkpin_schema(version BIGINT PRIMARY KEY, applied BIGINT NOT NULL)", logger: logger)
        var old = false
        for try await found in try await connection.query(
            "SELECT to_regclass('zkpin_schema_version') IS NOT NULL", logger: logger
        ).decode(Bool.self) {
            old = found
        }
        guard old else { return }
        try await connection.query(
            """
            INSERT INTO zkpin_schema(version, applied)
            SELECT CASE WHEN version = 1 THEN 1 ELSE version + 1 END, applied FROM zkpin_schema_version
            UNION ALL SELECT 2, applied FROM zkpin_schema_version WHERE version = 1
            """, logger: logger)
        try await connection.query("DROP TABLE zkpin_schema_version", logger: logger)
        logger.info("database schema versions carried over to zkpin_schema")
    }

    static func apply(_ r: RowRewrite, _ connection: PostgresConnection, logger: Logger) async throws {
        var changes: [(String, String)] = []
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(r.key), \(r.column) FROM \(r.table)"), logger: logger)
        for try await (key, value) in rows.decode((String, String).self) {
            let changed = r.transform(value)
            if changed != value { changes.append((key, changed)) }
        }
        for (key, changed) in changes {
            var bindings = PostgresBindings()
            bindings.append(changed)
            bindings.append(key)
            try await connection.query(
                PostgresQuery(unsafeSQL: "UPDATE \(r.table) SET \(r.column) = $1 WHERE \(r.key) = $2", binds: bindings), logger: logger)
        }
    }
}
