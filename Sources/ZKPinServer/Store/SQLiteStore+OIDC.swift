import GRDB

/// The OpenID Connect part of the SQLite store (OIDCStore).
extension SQLiteStore {
    public func insertOIDCClient(_ c: OIDCClient) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO oidc_clients(id, name, secret_hash, redirect_uris, post_logout_uris, created, id_token_alg) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [c.id, c.name, c.secretHash, URIList.join(c.redirectURIs), URIList.join(c.postLogoutURIs), c.created, c.idTokenAlg])
        }
    }

    public func oidcClient(id: String) async throws -> OIDCClient? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM oidc_clients WHERE id = ?", arguments: [id]).map(Self.oidcClient)
        }
    }

    public func oidcClients() async throws -> [OIDCClient] {
        try await pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM oidc_clients ORDER BY created, id").map(Self.oidcClient) }
    }

    public func deleteOIDCClient(id: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM oidc_clients WHERE id = ?", arguments: [id])
            let deleted = db.changesCount > 0
            try db.execute(sql: "DELETE FROM oidc_access_tokens WHERE client_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM oidc_refresh_tokens WHERE client_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM oidc_codes WHERE client_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM oidc_pending WHERE client_id = ?", arguments: [id])
            return deleted
        }
    }

    public func insertPendingAuthorization(_ p: PendingAuthorization) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO oidc_pending(web_ott_hash, client_id, redirect_uri, scope, state, nonce, code_challenge, created, expires)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [p.webOTTHash, p.clientId, p.redirectURI, p.scope, p.state, p.nonce, p.codeChallenge, p.created, p.expires])
        }
    }

    public func consumePendingAuthorization(webOTTHash: String, now: Int) async throws -> PendingAuthorization? {
        try await pool.write { db in
            try Row.fetchOne(
                db, sql: "DELETE FROM oidc_pending WHERE web_ott_hash = ? AND expires > ? RETURNING *",
                arguments: [webOTTHash, now]
            ).map {
                PendingAuthorization(
                    webOTTHash: $0["web_ott_hash"], clientId: $0["client_id"], redirectURI: $0["redirect_uri"],
                    scope: $0["scope"], state: $0["state"], nonce: $0["nonce"], codeChallenge: $0["code_challenge"],
                    created: $0["created"], expires: $0["expires"])
            }
        }
    }

    public func insertAuthorizationCode(_ c: AuthorizationCode) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO oidc_codes(hash, client_id, redirect_uri, user_id, mpin_id, scope, nonce, code_challenge,
                                           auth_time, created, expires, used)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                    """,
                arguments: [
                    c.hash, c.clientId, c.redirectURI, c.userId, c.mpinId, c.scope, c.nonce, c.codeChallenge,
                    c.authTime, c.created, c.expires
                ])
        }
    }

    public func redeemAuthorizationCode(hash: String, now: Int) async throws -> AuthorizationCode? {
        try await pool.write { db in
            try Row.fetchOne(
                db, sql: "UPDATE oidc_codes SET used = 1 WHERE hash = ? AND used = 0 AND expires > ? RETURNING *",
                arguments: [hash, now]
            ).map {
                AuthorizationCode(
                    hash: $0["hash"], clientId: $0["client_id"], redirectURI: $0["redirect_uri"], userId: $0["user_id"],
                    mpinId: $0["mpin_id"], scope: $0["scope"], nonce: $0["nonce"], codeChallenge: $0["code_challenge"],
                    authTime: $0["auth_time"], created: $0["created"], expires: $0["expires"])
            }
        }
    }

    public func authorizationCodeWasUsed(hash: String) async throws -> Bool {
        try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT 1 FROM oidc_codes WHERE hash = ? AND used = 1", arguments: [hash]) != nil
        }
    }

    public func insertOIDCAccessToken(_ t: OIDCAccessToken) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO oidc_access_tokens(hash, client_id, user_id, mpin_id, scope, code_hash, expires) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [t.hash, t.clientId, t.userId, t.mpinId, t.scope, t.codeHash, t.expires])
        }
    }

    public func oidcAccessToken(hash: String, now: Int) async throws -> OIDCAccessToken? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM oidc_access_tokens WHERE hash = ? AND expires > ?", arguments: [hash, now]).map {
                OIDCAccessToken(
                    hash: $0["hash"], clientId: $0["client_id"], userId: $0["user_id"], mpinId: $0["mpin_id"],
                    scope: $0["scope"], codeHash: $0["code_hash"], expires: $0["expires"])
            }
        }
    }

    public func revokeOIDCAccessTokens(codeHash: String) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM oidc_access_tokens WHERE code_hash = ?", arguments: [codeHash])
            let revoked = db.changesCount
            try db.execute(sql: "DELETE FROM oidc_refresh_tokens WHERE family = ?", arguments: [codeHash])
            return revoked
        }
    }

    public func insertOIDCRefreshToken(_ t: OIDCRefreshToken) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO oidc_refresh_tokens(hash, client_id, user_id, mpin_id, scope, auth_time, family, expires, used)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
                    """, arguments: [t.hash, t.clientId, t.userId, t.mpinId, t.scope, t.authTime, t.family, t.expires])
        }
    }

    public func redeemOIDCRefreshToken(hash: String, now: Int) async throws -> OIDCRefreshToken? {
        try await pool.write { db in
            try Row.fetchOne(
                db, sql: "UPDATE oidc_refresh_tokens SET used = 1 WHERE hash = ? AND used = 0 AND expires > ? RETURNING *",
                arguments: [hash, now]
            ).map {
                OIDCRefreshToken(
                    hash: $0["hash"], clientId: $0["client_id"], userId: $0["user_id"], mpinId: $0["mpin_id"], scope: $0["scope"],
                    authTime: $0["auth_time"], family: $0["family"], expires: $0["expires"])
            }
        }
    }

    public func usedOIDCRefreshTokenFamily(hash: String) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT family FROM oidc_refresh_tokens WHERE hash = ? AND used = 1", arguments: [hash])
        }
    }

    public func purgeExpiredOIDC(now: Int) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM oidc_pending WHERE expires <= ?", arguments: [now])
            try db.execute(sql: "DELETE FROM oidc_codes WHERE expires <= ?", arguments: [now - OIDCSchema.usedCodeMemory])
            try db.execute(sql: "DELETE FROM oidc_access_tokens WHERE expires <= ?", arguments: [now])
            try db.execute(sql: "DELETE FROM oidc_refresh_tokens WHERE expires <= ?", arguments: [now])
        }
    }

    static func oidcClient(_ r: Row) -> OIDCClient {
        OIDCClient(
            id: r["id"], name: r["name"], secretHash: r["secret_hash"], redirectURIs: URIList.split(r["redirect_uris"]),
            postLogoutURIs: URIList.split(r["post_logout_uris"]), created: r["created"], idTokenAlg: r["id_token_alg"])
    }
}
