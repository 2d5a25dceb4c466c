/// The OpenID Connect provider's part of the store (clients, pending authorizations, codes,
/// access and refresh tokens). As everywhere, every one-time value is consumed by ONE atomic
/// statement.
extension Store {
    // MARK: Clients

    /// Inserts; throws when the id exists.
    public func insertOIDCClient(_ c: OIDCClient) async throws {
        try await driver.write(
            """
            INSERT INTO oidc_clients(id, name, secret_hash, redirect_uris, post_logout_uris, created, id_token_alg, otp, ciba_mode,
                ciba_notification_endpoint, device_grant, introspect, backchannel_logout_uri, backchannel_logout_session_required,
                frontchannel_logout_uri, frontchannel_logout_session_required, admin_scopes, jwks)
            VALUES (\(c.id), \(c.name), \(c.secretHash), \(URIList.join(c.redirectURIs)), \(URIList.join(c.postLogoutURIs)), \(c.created),
                    \(c.idTokenAlg), \(c.otp), \(c.ciba?.rawValue), \(c.notificationEndpoint), \(c.deviceGrant),
                    \(c.introspect), \(c.backchannelLogoutURI), \(c.backchannelLogoutSessionRequired), \(c.frontchannelLogoutURI),
                    \(c.frontchannelLogoutSessionRequired), \(c.adminScopes.isEmpty ? nil : c.adminScopes.joined(separator: " ")), \(c.jwks))
            """)
    }

    public func oidcClient(id: String) async throws -> OIDCClient? {
        try await driver.readOne("SELECT * FROM oidc_clients WHERE id = \(id)").map(OIDCClient.init(row:))
    }

    public func oidcClients() async throws -> [OIDCClient] {
        try await driver.read("SELECT * FROM oidc_clients ORDER BY created, id").map(OIDCClient.init(row:))
    }

    /// Records a client assertion's jti until the assertion expires: false when it was seen
    /// already (a replay).
    func rememberClientAssertion(jtiHash: String, clientId: String, expires: Int) async throws -> Bool {
        try await driver.writeOne(
            """
            INSERT INTO client_assertions(jti_hash, client_id, expires) VALUES (\(jtiHash), \(clientId), \(expires))
            ON CONFLICT (jti_hash) DO NOTHING RETURNING 1
            """) != nil
    }

    /// False when no client has that id.
    func updateOIDCClientURIs(id: String, redirectURIs: [String], postLogoutURIs: [String]) async throws -> Bool {
        try await driver.writeOne(
            """
            UPDATE oidc_clients SET redirect_uris = \(URIList.join(redirectURIs)), post_logout_uris = \(URIList.join(postLogoutURIs))
            WHERE id = \(id) RETURNING 1
            """) != nil
    }

    /// False when no client has that id.
    func updateOIDCClientSecret(id: String, secretHash: String) async throws -> Bool {
        try await driver.writeOne("UPDATE oidc_clients SET secret_hash = \(secretHash) WHERE id = \(id) RETURNING 1") != nil
    }

    /// Deletes a client (its codes and tokens stop working); false when unknown.
    public func deleteOIDCClient(id: String) async throws -> Bool {
        try await transaction { tx in
            let deleted = try tx.one("DELETE FROM oidc_clients WHERE id = \(id) RETURNING 1") != nil
            for table in [
                "oidc_access_tokens", "oidc_refresh_tokens", "oidc_codes", "oidc_pending", "oidc_logins", "otp_codes", "ciba_requests",
                "device_codes"
            ] {
                _ = try tx.run("DELETE FROM \(raw: table) WHERE client_id = \(id)")
            }
            return deleted
        }
    }

    // MARK: Authorizations waiting for the access-code login

    public func insertPendingAuthorization(_ p: PendingAuthorization) async throws {
        try await driver.write(
            """
            INSERT INTO oidc_pending(web_ott_hash, client_id, redirect_uri, scope, state, nonce, code_challenge, created, expires)
            VALUES (\(p.webOTTHash), \(p.clientId), \(p.redirectURI), \(p.scope), \(p.state), \(p.nonce), \(p.codeChallenge),
                    \(p.created), \(p.expires))
            """)
    }

    /// Takes (deletes and returns) the live pending authorization of a page.
    public func consumePendingAuthorization(webOTTHash: String, now: Int) async throws -> PendingAuthorization? {
        try await driver.writeOne("DELETE FROM oidc_pending WHERE web_ott_hash = \(webOTTHash) AND expires > \(now) RETURNING *")
            .map(PendingAuthorization.init(row:))
    }

    // MARK: Codes and access tokens

    public func insertAuthorizationCode(_ c: AuthorizationCode) async throws {
        try await driver.write(
            """
            INSERT INTO oidc_codes(hash, client_id, redirect_uri, user_id, mpin_id, scope, nonce, code_challenge, auth_time, created, expires, used, sid)
            VALUES (\(c.hash), \(c.clientId), \(c.redirectURI), \(c.userId), \(c.mpinId), \(c.scope), \(c.nonce), \(c.codeChallenge),
                    \(c.authTime), \(c.created), \(c.expires), \(false), \(c.sid))
            """)
    }

    /// Marks a live, unused code used and returns it; nil when unknown, expired or used.
    public func redeemAuthorizationCode(hash: String, now: Int) async throws -> AuthorizationCode? {
        try await driver.writeOne("UPDATE oidc_codes SET used = \(true) WHERE hash = \(hash) AND used = \(false) AND expires > \(now) RETURNING *")
            .map(AuthorizationCode.init(row:))
    }

    /// Whether a code of this hash was redeemed already (a second use).
    public func authorizationCodeWasUsed(hash: String) async throws -> Bool {
        try await driver.readOne("SELECT 1 AS one FROM oidc_codes WHERE hash = \(hash) AND used = \(true)") != nil
    }

    public func insertOIDCAccessToken(_ t: OIDCAccessToken) async throws {
        try await driver.write(Self.insertAccessToken(t))
    }

    static func insertAccessToken(_ t: OIDCAccessToken) -> SQLStatement {
        """
        INSERT INTO oidc_access_tokens(hash, client_id, user_id, mpin_id, scope, code_hash, expires)
        VALUES (\(t.hash), \(t.clientId), \(t.userId), \(t.mpinId), \(t.scope), \(t.codeHash), \(t.expires))
        """
    }

    /// A live access token of an identity that is still active (revoking or blocking an
    /// identity ends its tokens at once, not when they expire).
    public func oidcAccessToken(hash: String, now: Int) async throws -> OIDCAccessToken? {
        try await driver.readOne(
            """
            SELECT t.* FROM oidc_access_tokens t JOIN identities i ON i.mpin_id = t.mpin_id
            WHERE t.hash = \(hash) AND t.expires > \(now) AND i.state = 'active'
            """
        ).map(OIDCAccessToken.init(row:))
    }

    /// An access token's row, live or not (revocation looks up whose it is).
    public func oidcAccessTokenRow(hash: String) async throws -> OIDCAccessToken? {
        try await driver.readOne("SELECT * FROM oidc_access_tokens WHERE hash = \(hash)").map(OIDCAccessToken.init(row:))
    }

    /// Deletes one access token; false when there was none.
    public func deleteOIDCAccessToken(hash: String) async throws -> Bool {
        try await driver.writeOne("DELETE FROM oidc_access_tokens WHERE hash = \(hash) RETURNING 1") != nil
    }

    /// Revokes every access and refresh token issued from the code (the family), and the
    /// family itself: its code row is marked first, which on PostgreSQL waits for a concurrent
    /// `insertOIDCTokens` of the family to commit, so its tokens are deleted too. Returns how
    /// many access tokens.
    public func revokeOIDCAccessTokens(codeHash: String) async throws -> Int {
        try await transaction { tx in
            _ = try tx.run("UPDATE oidc_codes SET revoked = \(true) WHERE hash = \(codeHash)")
            let revoked = try tx.run("DELETE FROM oidc_access_tokens WHERE code_hash = \(codeHash) RETURNING 1").count
            _ = try tx.run("DELETE FROM oidc_refresh_tokens WHERE family = \(codeHash)")
            return revoked
        }
    }

    /// Stores an access token and, when given, a refresh token of the family
    /// `access.codeHash`, in one transaction and only while the family stands: its code row is
    /// locked first, and a revocation marks it. False (nothing stored) when it was revoked.
    /// `login`: the family's sign-in at the site, recorded with its first tokens.
    public func insertOIDCTokens(_ access: OIDCAccessToken, refresh: OIDCRefreshToken?, login: OIDCLogin? = nil) async throws -> Bool {
        try await storeOIDCTokens(access, refresh: refresh, login: login, checkingIdentity: false, audit: nil) == .stored
    }

    public enum OIDCTokenStoring: Sendable, Equatable { case stored, familyRevoked, identityInactive }

    /// `insertOIDCTokens` for the token endpoint: in the same transaction it checks that the
    /// identity is still active (revoked or blocked since the login: nothing is stored) and
    /// appends the audit row, so a grant costs the store one write and no extra read.
    public func storeOIDCTokens(
        _ access: OIDCAccessToken, refresh: OIDCRefreshToken?, login: OIDCLogin?, checkingIdentity: Bool = true, audit: AuditEvent?
    ) async throws -> OIDCTokenStoring {
        try await transaction { tx in
            if checkingIdentity {
                let state = try tx.one("SELECT state FROM identities WHERE mpin_id = \(access.mpinId)")?.text("state")
                guard state == IdentityState.active.rawValue else { return .identityInactive }
            }
            let standing = try tx.one(
                "UPDATE oidc_codes SET used = \(true) WHERE hash = \(access.codeHash) AND revoked = \(false) RETURNING 1")
            guard standing != nil else { return .familyRevoked }
            _ = try tx.run(Self.insertAccessToken(access))
            if let refresh { _ = try tx.run(Self.insertRefreshToken(refresh)) }
            if let l = login {
                _ = try tx.run(
                    """
                    INSERT INTO oidc_logins(family, client_id, user_id, mpin_id, sid, created, expires)
                    VALUES (\(l.family), \(l.clientId), \(l.userId), \(l.mpinId), \(l.sid), \(l.created), \(l.expires))
                    ON CONFLICT(family) DO NOTHING
                    """)
            }
            if let audit { _ = try tx.run(LoginSteps.appendAudit(audit)) }
            return .stored
        }
    }

    // MARK: Refresh tokens

    public func insertOIDCRefreshToken(_ t: OIDCRefreshToken) async throws {
        try await driver.write(Self.insertRefreshToken(t))
    }

    static func insertRefreshToken(_ t: OIDCRefreshToken) -> SQLStatement {
        """
        INSERT INTO oidc_refresh_tokens(hash, client_id, user_id, mpin_id, scope, auth_time, family, expires, used, sid)
        VALUES (\(t.hash), \(t.clientId), \(t.userId), \(t.mpinId), \(t.scope), \(t.authTime), \(t.family), \(t.expires), \(false),
                \(t.sid))
        """
    }

    /// Marks a live, unused refresh token used and returns it; nil when unknown, expired or used.
    public func redeemOIDCRefreshToken(hash: String, now: Int) async throws -> OIDCRefreshToken? {
        try await driver.writeOne(
            "UPDATE oidc_refresh_tokens SET used = \(true) WHERE hash = \(hash) AND used = \(false) AND expires > \(now) RETURNING *"
        ).map(OIDCRefreshToken.init(row:))
    }

    /// A refresh token's row, live or not.
    public func oidcRefreshTokenRow(hash: String) async throws -> OIDCRefreshToken? {
        try await driver.readOne("SELECT * FROM oidc_refresh_tokens WHERE hash = \(hash)").map(OIDCRefreshToken.init(row:))
    }

    /// A live refresh token (unused, unexpired) of an active identity; a revoked family's are
    /// deleted with the revocation (`revokeOIDCAccessTokens`).
    public func liveOIDCRefreshToken(hash: String, now: Int) async throws -> OIDCRefreshToken? {
        try await driver.readOne(
            """
            SELECT r.* FROM oidc_refresh_tokens r JOIN identities i ON i.mpin_id = r.mpin_id
            WHERE r.hash = \(hash) AND r.used = \(false) AND r.expires > \(now) AND i.state = 'active'
            """
        ).map(OIDCRefreshToken.init(row:))
    }

    /// The family of a refresh token that was used already (a second use), nil otherwise.
    public func usedOIDCRefreshTokenFamily(hash: String) async throws -> String? {
        try await driver.readOne("SELECT family FROM oidc_refresh_tokens WHERE hash = \(hash) AND used = \(true)")?.text("family")
    }

    /// Deletes expired pending authorizations, codes (kept a while after expiry so a late
    /// second use is still recognised) and access and refresh tokens.
    public func purgeExpiredOIDC(now: Int) async throws {
        try await purge(now: now, tables: ["oidc_pending", "oidc_access_tokens", "oidc_refresh_tokens", "oidc_logins"])
        // A code stays while refresh tokens of its family live: it is the family's root.
        try await driver.write(
            """
            DELETE FROM oidc_codes WHERE expires <= \(now - OIDCSchema.usedCodeMemory)
              AND NOT EXISTS (SELECT 1 FROM oidc_refresh_tokens r WHERE r.family = oidc_codes.hash)
            """)
    }
}

/// Redirect URIs are kept as one text column: one URI per line (a URI has no newline).
enum URIList {
    static func join(_ uris: [String]) -> String { uris.joined(separator: "\n") }
    static func split(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }
}
