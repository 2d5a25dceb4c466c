import GRDB

/// The SQLite schema, one migration per change (never edit a shipped migration).
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE registrations(
                        mpin_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, device TEXT NOT NULL,
                        reg_ott_hash TEXT NOT NULL, code_hash TEXT NOT NULL, created INTEGER NOT NULL, expires INTEGER NOT NULL,
                        address TEXT NOT NULL, activated INTEGER);
                    CREATE TABLE identities(
                        mpin_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, device TEXT NOT NULL,
                        state TEXT NOT NULL, failed INTEGER NOT NULL, reserved INTEGER NOT NULL,
                        reserved_until INTEGER NOT NULL, created INTEGER NOT NULL, last_login INTEGER);
                    CREATE INDEX identities_user ON identities(user_id);
                    CREATE TABLE challenges(
                        id TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, u BLOB NOT NULL, ut BLOB, y BLOB NOT NULL,
                        date INTEGER NOT NULL, created INTEGER NOT NULL, expires INTEGER NOT NULL);
                    CREATE INDEX challenges_mpin ON challenges(mpin_id, created);
                    CREATE TABLE access_sessions(
                        web_ott_hash TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
                        mpin_id TEXT, user_id TEXT, auth_ott_hash TEXT, taken_up INTEGER NOT NULL,
                        created INTEGER NOT NULL, expires INTEGER NOT NULL, authenticated_at INTEGER);
                    CREATE TABLE auth_tokens(
                        hash TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, user_id TEXT NOT NULL, outcome TEXT NOT NULL,
                        attempts_left INTEGER NOT NULL, access_code TEXT, expires INTEGER NOT NULL);
                    CREATE TABLE web_sessions(
                        hash TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, user_id TEXT NOT NULL,
                        created INTEGER NOT NULL, expires INTEGER NOT NULL);
                    CREATE TABLE audit(
                        id INTEGER PRIMARY KEY AUTOINCREMENT, time INTEGER NOT NULL, kind TEXT NOT NULL,
                        user_id TEXT, mpin_id TEXT, address TEXT, detail TEXT NOT NULL);
                    """)
        }
        // v2: rate-limit windows live in the store, so that instances sharing it share limits.
        m.registerMigration("v2") { db in
            try db.execute(sql: "CREATE TABLE rate_limits(key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires INTEGER NOT NULL)")
        }
        // v3: the OpenID Connect provider (OIDC/).
        m.registerMigration("v3") { db in try db.execute(sql: OIDCSchema.sqlite) }
        // v4: e-mail addresses in their one normalised form (NFC, lower case), as registration
        // now stores them; folded in Swift because SQLite's lower() knows only ASCII.
        m.registerMigration("v4") { db in
            for table in ["identities", "registrations"] {
                let rows = try Row.fetchAll(db, sql: "SELECT mpin_id, user_id FROM \(table)")
                for row in rows {
                    let userId: String = row["user_id"]
                    let folded = EmailAddress.folded(userId)
                    guard folded != userId else { continue }
                    try db.execute(sql: "UPDATE \(table) SET user_id = ? WHERE mpin_id = ?", arguments: [folded, row["mpin_id"] as String])
                }
            }
        }
        // v5: a revoked login family (a code or refresh token used twice) takes no new tokens.
        m.registerMigration("v5") { db in try db.execute(sql: "ALTER TABLE oidc_codes ADD COLUMN revoked INTEGER NOT NULL DEFAULT 0") }
        // v6: one-time codes (Store+OTP.swift) and the services that check them.
        m.registerMigration("v6") { db in try db.execute(sql: OTPSchema.sqlite) }
        // v7: backchannel authentication requests (CIBA) and the clients that may make them.
        m.registerMigration("v7") { db in try db.execute(sql: BackchannelSchema.sqlite) }
        // v8: the site an access code signs in to, in the store (every instance can name it).
        m.registerMigration("v8") { db in try db.execute(sql: AccessSiteSchema.statement) }
        return m
    }
}
