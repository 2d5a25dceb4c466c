/// The tables of the OpenID Connect provider. Hashes only: no client secret, code or access
/// token in clear.
enum OIDCSchema {
    static let changes: [SchemaChange] = [
        SchemaChange(
            version: 3, owner: "OIDC", summary: "clients, pending authorizations, codes, access and refresh tokens",
            expiring: ["oidc_pending", "oidc_codes", "oidc_access_tokens", "oidc_refresh_tokens"]
        ) { d in
            [
                """
                CREATE TABLE oidc_clients(
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash TEXT, redirect_uris TEXT NOT NULL,
                    post_logout_uris TEXT NOT NULL, created \(d.integer) NOT NULL, id_token_alg TEXT NOT NULL)
                """,
                """
                CREATE TABLE oidc_pending(
                    web_ott_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, scope TEXT NOT NULL,
                    state TEXT, nonce TEXT, code_challenge TEXT, created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL)
                """,
                """
                CREATE TABLE oidc_codes(
                    hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, user_id TEXT NOT NULL,
                    mpin_id TEXT NOT NULL, scope TEXT NOT NULL, nonce TEXT, code_challenge TEXT, auth_time \(d.integer) NOT NULL,
                    created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL, used \(d.boolean) NOT NULL)
                """,
                """
                CREATE TABLE oidc_access_tokens(
                    hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL,
                    scope TEXT NOT NULL, code_hash TEXT NOT NULL, expires \(d.integer) NOT NULL)
                """,
                "CREATE INDEX oidc_access_tokens_code ON oidc_access_tokens(code_hash)",
                """
                CREATE TABLE oidc_refresh_tokens(
                    hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL, scope TEXT NOT NULL,
                    auth_time \(d.integer) NOT NULL, family TEXT NOT NULL, expires \(d.integer) NOT NULL, used \(d.boolean) NOT NULL)
                """,
                "CREATE INDEX oidc_refresh_tokens_family ON oidc_refresh_tokens(family)"
            ]
        },
        // A revoked login family (a code or refresh token used twice) takes no new tokens.
        SchemaChange(version: 5, owner: "OIDC", summary: "revoked login families") { d in
            ["ALTER TABLE oidc_codes ADD COLUMN revoked \(d.boolean) NOT NULL DEFAULT \(d.false)"]
        },
        // Resource servers and gateways that may introspect any client's tokens (RFC 7662).
        SchemaChange(version: 10, owner: "OIDC", summary: "clients that introspect tokens") { d in
            ["ALTER TABLE oidc_clients ADD COLUMN introspect \(d.boolean) NOT NULL DEFAULT \(d.false)"]
        },
        // The sign-ins at sites (one per login family) with the web session they came from, so
        // that a sign-out or the end of an identity can end them and tell the sites.
        SchemaChange(
            version: 13, owner: "OIDC", summary: "sign-ins at sites, their session id, the sites' logout URIs", expiring: ["oidc_logins"]
        ) { d in
            [
                """
                CREATE TABLE oidc_logins(
                    family TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL, sid TEXT,
                    created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL)
                """,
                "CREATE INDEX oidc_logins_identity ON oidc_logins(mpin_id)",
                "CREATE INDEX oidc_logins_sid ON oidc_logins(sid)",
                "ALTER TABLE oidc_codes ADD COLUMN sid TEXT",
                "ALTER TABLE oidc_refresh_tokens ADD COLUMN sid TEXT",
                "ALTER TABLE oidc_clients ADD COLUMN backchannel_logout_uri TEXT",
                "ALTER TABLE oidc_clients ADD COLUMN backchannel_logout_session_required \(d.boolean) NOT NULL DEFAULT \(d.false)",
                "ALTER TABLE oidc_clients ADD COLUMN frontchannel_logout_uri TEXT",
                "ALTER TABLE oidc_clients ADD COLUMN frontchannel_logout_session_required \(d.boolean) NOT NULL DEFAULT \(d.false)"
            ]
        },
        // Clients that authenticate with signed assertions (private_key_jwt, RFC 7523), and the
        // assertions' ids, each usable once.
        SchemaChange(
            version: 17, owner: "OIDC", summary: "clients with public keys (private_key_jwt) and their used assertions",
            expiring: ["client_assertions"]
        ) { d in
            [
                "ALTER TABLE oidc_clients ADD COLUMN jwks TEXT",
                "CREATE TABLE client_assertions(jti_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, expires \(d.integer) NOT NULL)"
            ]
        }
    ]

    /// Codes are kept this long past expiry so that a late second use still revokes.
    static let usedCodeMemory = 3600
}
