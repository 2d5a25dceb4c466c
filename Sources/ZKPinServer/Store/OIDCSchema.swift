/// The tables of the OpenID Connect provider, for both stores (SQLite migration v3,
/// PostgreSQL version 2). Hashes only: no client secret, code or access token in clear.
enum OIDCSchema {
    static let postgres: [String] = [
        """
        CREATE TABLE oidc_clients(
            id TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash TEXT, redirect_uris TEXT NOT NULL,
            post_logout_uris TEXT NOT NULL, created BIGINT NOT NULL, id_token_alg TEXT NOT NULL)
        """,
        """
        CREATE TABLE oidc_pending(
            web_ott_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, scope TEXT NOT NULL,
            state TEXT, nonce TEXT, code_challenge TEXT, created BIGINT NOT NULL, expires BIGINT NOT NULL)
        """,
        """
        CREATE TABLE oidc_codes(
            hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, user_id TEXT NOT NULL,
            mpin_id TEXT NOT NULL, scope TEXT NOT NULL, nonce TEXT, code_challenge TEXT, auth_time BIGINT NOT NULL,
            created BIGINT NOT NULL, expires BIGINT NOT NULL, used BOOLEAN NOT NULL)
        """,
        """
        CREATE TABLE oidc_access_tokens(
            hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL,
            scope TEXT NOT NULL, code_hash TEXT NOT NULL, expires BIGINT NOT NULL)
        """,
        "CREATE INDEX oidc_access_tokens_code ON oidc_access_tokens(code_hash)",
        """
        CREATE TABLE oidc_refresh_tokens(
            hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL, scope TEXT NOT NULL,
            auth_time BIGINT NOT NULL, family TEXT NOT NULL, expires BIGINT NOT NULL, used BOOLEAN NOT NULL)
        """,
        "CREATE INDEX oidc_refresh_tokens_family ON oidc_refresh_tokens(family)"
    ]

    static let sqlite = """
        CREATE TABLE oidc_clients(
            id TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash TEXT, redirect_uris TEXT NOT NULL,
            post_logout_uris TEXT NOT NULL, created INTEGER NOT NULL, id_token_alg TEXT NOT NULL);
        CREATE TABLE oidc_pending(
            web_ott_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, scope TEXT NOT NULL,
            state TEXT, nonce TEXT, code_challenge TEXT, created INTEGER NOT NULL, expires INTEGER NOT NULL);
        CREATE TABLE oidc_codes(
            hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, user_id TEXT NOT NULL,
            mpin_id TEXT NOT NULL, scope TEXT NOT NULL, nonce TEXT, code_challenge TEXT, auth_time INTEGER NOT NULL,
            created INTEGER NOT NULL, expires INTEGER NOT NULL, used INTEGER NOT NULL);
        CREATE TABLE oidc_access_tokens(
            hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL,
            scope TEXT NOT NULL, code_hash TEXT NOT NULL, expires INTEGER NOT NULL);
        CREATE INDEX oidc_access_tokens_code ON oidc_access_tokens(code_hash);
        CREATE TABLE oidc_refresh_tokens(
            hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL, scope TEXT NOT NULL,
            auth_time INTEGER NOT NULL, family TEXT NOT NULL, expires INTEGER NOT NULL, used INTEGER NOT NULL);
        CREATE INDEX oidc_refresh_tokens_family ON oidc_refresh_tokens(family);
        """

    /// Codes are kept this long past expiry so that a late second use still revokes.
    static let usedCodeMemory = 3600
}
