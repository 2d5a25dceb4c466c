/// The core's tables (docs/developer.md "Storage"). Times are Unix seconds; one-time tokens
/// appear only hashed.
public enum CoreSchema {
    public static let changes: [SchemaChange] = [
        SchemaChange(
            version: 1, owner: "core", summary: "identities, registrations, the login's and the page's tables, audit",
            expiring: ["registrations", "challenges", "access_sessions", "auth_tokens", "web_sessions"]
        ) { d in
            [
                "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                """
                CREATE TABLE registrations(
                    mpin_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, device TEXT NOT NULL,
                    reg_ott_hash TEXT NOT NULL, code_hash TEXT NOT NULL, created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL,
                    address TEXT NOT NULL, activated \(d.integer))
                """,
                """
                CREATE TABLE identities(
                    mpin_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, device TEXT NOT NULL,
                    state TEXT NOT NULL, failed \(d.integer) NOT NULL, reserved \(d.integer) NOT NULL,
                    reserved_until \(d.integer) NOT NULL, created \(d.integer) NOT NULL, last_login \(d.integer))
                """,
                "CREATE INDEX identities_user ON identities(user_id)",
                // The insertion-order column orders challenges created in the same second.
                """
                CREATE TABLE challenges(
                    id TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, u \(d.bytes) NOT NULL, ut \(d.bytes), y \(d.bytes) NOT NULL,
                    date \(d.integer) NOT NULL, created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL\(d.insertionOrderColumn))
                """,
                "CREATE INDEX challenges_mpin ON challenges(mpin_id, created)",
                """
                CREATE TABLE access_sessions(
                    web_ott_hash TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
                    mpin_id TEXT, user_id TEXT, auth_ott_hash TEXT, taken_up \(d.boolean) NOT NULL,
                    created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL, authenticated_at \(d.integer))
                """,
                """
                CREATE TABLE auth_tokens(
                    hash TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, user_id TEXT NOT NULL, outcome TEXT NOT NULL,
                    attempts_left \(d.integer) NOT NULL, access_code TEXT, expires \(d.integer) NOT NULL)
                """,
                """
                CREATE TABLE web_sessions(
                    hash TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, user_id TEXT NOT NULL,
                    created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL)
                """,
                """
                CREATE TABLE audit(
                    id \(d.autoIncrementKey), time \(d.integer) NOT NULL, kind TEXT NOT NULL,
                    user_id TEXT, mpin_id TEXT, address TEXT, detail TEXT NOT NULL)
                """
            ]
        },
        // Rate-limit windows live in the store, so that instances sharing it share limits.
        SchemaChange(version: 2, owner: "core", summary: "rate-limit windows", expiring: ["rate_limits"]) { d in
            ["CREATE TABLE rate_limits(key TEXT PRIMARY KEY, count \(d.integer) NOT NULL, expires \(d.integer) NOT NULL)"]
        },
        // E-mail addresses in their one normalised form (NFC, lower case), as registration
        // stores them; folded in Swift (`RowRewrite`).
        SchemaChange(
            version: 4, owner: "core", summary: "e-mail addresses folded",
            rewrites: ["identities", "registrations"].map {
                RowRewrite(table: $0, key: "mpin_id", column: "user_id", transform: EmailAddress.folded)
            }
        ) { _ in [] },
        // The site an access code signs in to, in the store (every instance can name it).
        SchemaChange(version: 8, owner: "core", summary: "the site of an access code") { _ in
            ["ALTER TABLE access_sessions ADD COLUMN site TEXT"]
        }
    ]
}
