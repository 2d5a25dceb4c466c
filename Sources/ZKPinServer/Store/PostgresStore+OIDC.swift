import PostgresNIO

/// The OpenID Connect part of the PostgreSQL store (OIDCStore).
extension PostgresStore {
    public func insertOIDCClient(_ c: OIDCClient) async throws {
        try await rows(
            """
            INSERT INTO oidc_clients(id, name, secret_hash, redirect_uris, post_logout_uris, created, id_token_alg)
            VALUES (\(c.id), \(c.name), \(c.secretHash), \(URIList.join(c.redirectURIs)), \(URIList.join(c.postLogoutURIs)), \(c.created),
                    \(c.idTokenAlg))
            """)
    }

    public func oidcClient(id: String) async throws -> OIDCClient? {
        try await one("SELECT * FROM oidc_clients WHERE id = \(id)").map(Self.oidcClient)
    }

    public func oidcClients() async throws -> [OIDCClient] {
        try await rows("SELECT * FROM oidc_clients ORDER BY created, id").map(Self.oidcClient)
    }

    public func deleteOIDCClient(id: String) async throws -> Bool {
        let deleted = try await one("DELETE FROM oidc_clients WHERE id = \(id) RETURNING 1") != nil
        try await rows("DELETE FROM oidc_access_tokens WHERE client_id = \(id)")
        try await rows("DELETE FROM oidc_refresh_tokens WHERE client_id = \(id)")
        try await rows("DELETE FROM oidc_codes WHERE client_id = \(id)")
        try await rows("DELETE FROM oidc_pending WHERE client_id = \(id)")
        return deleted
    }

    public func insertPendingAuthorization(_ p: PendingAuthorization) async throws {
        try await rows(
            """
            INSERT INTO oidc_pending(web_ott_hash, client_id, redirect_uri, scope, state, nonce, code_challenge, created, expires)
            VALUES (\(p.webOTTHash), \(p.clientId), \(p.redirectURI), \(p.scope), \(p.state), \(p.nonce), \(p.codeChallenge),
                    \(p.created), \(p.expires))
            """)
    }

    public func consumePendingAuthorization(webOTTHash: String, now: Int) async throws -> PendingAuthorization? {
        guard let r = try await one("DELETE FROM oidc_pending WHERE web_ott_hash = \(webOTTHash) AND expires > \(now) RETURNING *")
        else { return nil }
        return PendingAuthorization(
            webOTTHash: try r["web_ott_hash"].decode(String.self), clientId: try r["client_id"].decode(String.self),
            redirectURI: try r["redirect_uri"].decode(String.self), scope: try r["scope"].decode(String.self),
            state: try r["state"].decode(String?.self), nonce: try r["nonce"].decode(String?.self),
            codeChallenge: try r["code_challenge"].decode(String?.self),
            created: try r["created"].decode(Int.self), expires: try r["expires"].decode(Int.self))
    }

    public func insertAuthorizationCode(_ c: AuthorizationCode) async throws {
        try await rows(
            """
            INSERT INTO oidc_codes(hash, client_id, redirect_uri, user_id, mpin_id, scope, nonce, code_challenge, auth_time, created, expires, used)
            VALUES (\(c.hash), \(c.clientId), \(c.redirectURI), \(c.userId), \(c.mpinId), \(c.scope), \(c.nonce), \(c.codeChallenge),
                    \(c.authTime), \(c.created), \(c.expires), FALSE)
            """)
    }

    public func redeemAuthorizationCode(hash: String, now: Int) async throws -> AuthorizationCode? {
        guard let r = try await one("UPDATE oidc_codes SET used = TRUE WHERE hash = \(hash) AND NOT used AND expires > \(now) RETURNING *")
        else { return nil }
        return AuthorizationCode(
            hash: try r["hash"].decode(String.self), clientId: try r["client_id"].decode(String.self),
            redirectURI: try r["redirect_uri"].decode(String.self), userId: try r["user_id"].decode(String.self),
            mpinId: try r["mpin_id"].decode(String.self), scope: try r["scope"].decode(String.self),
            nonce: try r["nonce"].decode(String?.self), codeChallenge: try r["code_challenge"].decode(String?.self),
            authTime: try r["auth_time"].decode(Int.self), created: try r["created"].decode(Int.self),
            expires: try r["expires"].decode(Int.self))
    }

    public func authorizationCodeWasUsed(hash: String) async throws -> Bool {
        try await one("SELECT 1 FROM oidc_codes WHERE hash = \(hash) AND used") != nil
    }

    public func insertOIDCAccessToken(_ t: OIDCAccessToken) async throws {
        try await rows(
            """
            INSERT INTO oidc_access_tokens(hash, client_id, user_id, mpin_id, scope, code_hash, expires)
            VALUES (\(t.hash), \(t.clientId), \(t.userId), \(t.mpinId), \(t.scope), \(t.codeHash), \(t.expires))
            """)
    }

    public func oidcAccessToken(hash: String, now: Int) async throws -> OIDCAccessToken? {
        guard let r = try await one("SELECT * FROM oidc_access_tokens WHERE hash = \(hash) AND expires > \(now)") else { return nil }
        return OIDCAccessToken(
            hash: try r["hash"].decode(String.self), clientId: try r["client_id"].decode(String.self),
            userId: try r["user_id"].decode(String.self), mpinId: try r["mpin_id"].decode(String.self),
            scope: try r["scope"].decode(String.self), codeHash: try r["code_hash"].decode(String.self),
            expires: try r["expires"].decode(Int.self))
    }

    public func revokeOIDCAccessTokens(codeHash: String) async throws -> Int {
        let revoked = try await rows("DELETE FROM oidc_access_tokens WHERE code_hash = \(codeHash) RETURNING 1").count
        try await rows("DELETE FROM oidc_refresh_tokens WHERE family = \(codeHash)")
        return revoked
    }

    public func insertOIDCRefreshToken(_ t: OIDCRefreshToken) async throws {
        try await rows(
            """
            INSERT INTO oidc_refresh_tokens(hash, client_id, user_id, mpin_id, scope, auth_time, family, expires, used)
            VALUES (\(t.hash), \(t.clientId), \(t.userId), \(t.mpinId), \(t.scope), \(t.authTime), \(t.family), \(t.expires), FALSE)
            """)
    }

    public func redeemOIDCRefreshToken(hash: String, now: Int) async throws -> OIDCRefreshToken? {
        guard
            let r = try await one(
                """
                UPDATE oidc_refresh_tokens SET used = TRUE WHERE hash = \(hash) AND NOT used AND expires > \(now) RETURNING *
                """)
        else { return nil }
        return OIDCRefreshToken(
            hash: try r["hash"].decode(String.self), clientId: try r["client_id"].decode(String.self),
            userId: try r["user_id"].decode(String.self), mpinId: try r["mpin_id"].decode(String.self),
            scope: try r["scope"].decode(String.self), authTime: try r["auth_time"].decode(Int.self),
            family: try r["family"].decode(String.self), expires: try r["expires"].decode(Int.self))
    }

    public func usedOIDCRefreshTokenFamily(hash: String) async throws -> String? {
        try await one("SELECT family FROM oidc_refresh_tokens WHERE hash = \(hash) AND used")?["family"].decode(String.self)
    }

    public func purgeExpiredOIDC(now: Int) async throws {
        try await rows("DELETE FROM oidc_pending WHERE expires <= \(now)")
        try await rows("DELETE FROM oidc_codes WHERE expires <= \(now - OIDCSchema.usedCodeMemory)")
        try await rows("DELETE FROM oidc_access_tokens WHERE expires <= \(now)")
        try await rows("DELETE FROM oidc_refresh_tokens WHERE expires <= \(now)")
    }

    static func oidcClient(_ r: PostgresRandomAccessRow) throws -> OIDCClient {
        OIDCClient(
            id: try r["id"].decode(String.self), name: try r["name"].decode(String.self),
            secretHash: try r["secret_hash"].decode(String?.self),
            redirectURIs: URIList.split(try r["redirect_uris"].decode(String.self)),
            postLogoutURIs: URIList.split(try r["post_logout_uris"].decode(String.self)),
            created: try r["created"].decode(Int.self), idTokenAlg: try r["id_token_alg"].decode(String.self))
    }
}
