import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL schema, one entry per version (never edit a shipped version; append one).
/// Several instances may start at once on an empty database: all of them run `migrate`, and a
/// transaction-scoped advisory lock makes them take turns, so each version is applied once and
/// the later ones find it recorded in `zkpin_schema_version`.
enum PostgresMigrations {
    /// Statements of each version; version N is `versions[N - 1]`.
    static let versions: [[String]] = [
        // v1: the tables of docs/developer.md ("Storage"), as in the SQLite store, plus the shared
        // rate-limit windows. Times are Unix seconds; one-time tokens appear only hashed.
        [
            "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE registrations(
                mpin_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, device TEXT NOT NULL,
                reg_ott_hash TEXT NOT NULL, code_hash TEXT NOT NULL, created BIGINT NOT NULL, expires BIGINT NOT NULL,
                address TEXT NOT NULL, activated BIGINT)
            """,
            """
            CREATE TABLE identities(
                mpin_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, device TEXT NOT NULL,
                state TEXT NOT NULL, failed BIGINT NOT NULL, reserved BIGINT NOT NULL,
                reserved_until BIGINT NOT NULL, created BIGINT NOT NULL, last_login BIGINT)
            """,
            "CREATE INDEX identities_user ON identities(user_id)",
            // seq orders challenges created in the same second (SQLite uses its rowid).
            """
            CREATE TABLE challenges(
                id TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, u BYTEA NOT NULL, ut BYTEA, y BYTEA NOT NULL,
                date BIGINT NOT NULL, created BIGINT NOT NULL, expires BIGINT NOT NULL,
                seq BIGINT GENERATED ALWAYS AS IDENTITY)
            """,
            "CREATE INDEX challenges_mpin ON challenges(mpin_id, created)",
            """
            CREATE TABLE access_sessions(
                web_ott_hash TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
                mpin_id TEXT, user_id TEXT, auth_ott_hash TEXT, taken_up BOOLEAN NOT NULL,
                created BIGINT NOT NULL, expires BIGINT NOT NULL, authenticated_at BIGINT)
            """,
            """
            CREATE TABLE auth_tokens(
                hash TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, user_id TEXT NOT NULL, outcome TEXT NOT NULL,
                attempts_left BIGINT NOT NULL, access_code TEXT, expires BIGINT NOT NULL)
            """,
            """
            CREATE TABLE web_sessions(
                hash TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, user_id TEXT NOT NULL,
                created BIGINT NOT NULL, expires BIGINT NOT NULL)
            """,
            """
            CREATE TABLE audit(
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, time BIGINT NOT NULL, kind TEXT NOT NULL,
                user_id TEXT, mpin_id TEXT, address TEXT, detail TEXT NOT NULL)
            """,
            "CREATE TABLE rate_limits(key TEXT PRIMARY KEY, count BIGINT NOT NULL, expires BIGINT NOT NULL)"
        ],
        // v2: the OpenID Connect provider (OIDC/).
        OIDCSchema.postgres,
        // v3: e-mail addresses in their one normalised form (NFC, lower case): no SQL, the
        // rows are folded in Swift (`swiftSteps`), as registration folds them, whatever the
        // database's collation makes of lower().
        [],
        // v4: a revoked login family (a code or refresh token used twice) takes no new tokens.
        ["ALTER TABLE oidc_codes ADD COLUMN revoked BOOLEAN NOT NULL DEFAULT FALSE"],
        // v5: one-time codes (Store+OTP.swift) and the services that check them.
        OTPSchema.postgres,
        // v6: backchannel authentication requests (CIBA) and the clients that may make them.
        BackchannelSchema.postgres,
        // v7: the site an access code signs in to, in the store (every instance can name it).
        [AccessSiteSchema.statement]
    ]

    /// Work done in Swift after a version's statements, in the same transaction.
    static let swiftSteps: [Int: @Sendable (PostgresConnection, Logger) async throws -> Void] = [3: foldEmails]

    static func foldEmails(_ connection: PostgresConnection, logger: Logger) async throws {
        for table in ["identities", "registrations"] {
            var changes: [(String, String)] = []
            let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT mpin_id, user_id FROM \(table)"), logger: logger)
            for try await (mpinId, userId) in rows.decode((String, String).self) {
                let folded = EmailAddress.folded(userId)
                if folded != userId { changes.append((mpinId, folded)) }
            }
            for (mpinId, folded) in changes {
                var bindings = PostgresBindings()
                bindings.append(folded)
                bindings.append(mpinId)
                try await connection.query(
                    PostgresQuery(unsafeSQL: "UPDATE \(table) SET user_id = $1 WHERE mpin_id = $2", binds: bindings),
                    logger: logger)
            }
        }
    }

    /// An arbitrary constant that names ZKPin's migration lock among other advisory locks.
    static let lockKey: Int64 = 0x7a6b_7069_6e5f_6d69

    struct NewerSchema: Error, CustomStringConvertible {
        var found: Int
        var description: String {
            "the database has schema version \(found), newer than this zkpin-server knows (\(PostgresMigrations.versions.count)); upgrade zkpin-server"
        }
    }

    /// Brings the schema up to date; safe to run from several processes at once.
    /// `upTo` stops at an older version (tests migrate a database made by an older server).
    static func migrate(_ connection: PostgresConnection, logger: Logger, upTo last: Int = versions.count) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            // Held until this transaction ends: a second instance waits here, then sees the
            // versions the first one recorded.
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS zkpin_schema_version(version BIGINT PRIMARY KEY, applied BIGINT NOT NULL)",
                logger: logger)
            var current = 0
            for try await version in try await connection.query(
                "SELECT COALESCE(MAX(version), 0) FROM zkpin_schema_version",
                logger: logger
            ).decode(Int.self) {
                current = version
            }
            guard current <= versions.count else { throw NewerSchema(found: current) }
            for (index, statements) in versions.enumerated() where index + 1 > current && index + 1 <= last {
                for sql in statements { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                try await swiftSteps[index + 1]?(connection, logger)
                let applied = Int(Date().timeIntervalSince1970)
                try await connection.query(
                    "INSERT INTO zkpin_schema_version(version, applied) VALUES (\(index + 1), \(applied))",
                    logger: logger)
                logger.info("database schema migrated", metadata: ["version": "\(index + 1)"])
            }
        }
    }
}
