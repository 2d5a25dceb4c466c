import Foundation
import ZKPinWire

/// The form fields of `POST /oauth/token`.
struct TokenParameters: Decodable, Sendable {
    var grant_type: String?
    var code: String?
    var redirect_uri: String?
    var client_id: String?
    var client_secret: String?
    /// private_key_jwt (RFC 7523): `client_assertion_type` and the signed `client_assertion`.
    var client_assertion_type: String?
    var client_assertion: String?
    var code_verifier: String?
    var refresh_token: String?
    var scope: String?
    /// The CIBA grant's request (Features/CIBA).
    var auth_req_id: String?
    /// The device grant's code (Features/DeviceGrant).
    var device_code: String?
}

/// The success answer of RFC 6749 section 5.1 with the ID token of OpenID Connect Core 3.1.3.3.
struct TokenResponse: Codable, Sendable {
    var access_token: String
    var token_type = "Bearer"
    var expires_in: Int
    var id_token: String
    var scope: String
    /// Only with the `offline_access` scope; a new one on every refresh.
    var refresh_token: String?

    enum CodingKeys: String, CodingKey { case access_token, token_type, expires_in, id_token, scope, refresh_token }

    /// A client's own token (client credentials) signs nobody in: its empty `id_token` is left out.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(access_token, forKey: .access_token); try c.encode(token_type, forKey: .token_type)
        try c.encode(expires_in, forKey: .expires_in)
        if !id_token.isEmpty { try c.encode(id_token, forKey: .id_token) }
        try c.encode(scope, forKey: .scope); try c.encodeIfPresent(refresh_token, forKey: .refresh_token)
    }
}

extension OIDCProvider {
    /// Refresh tokens (scope `offline_access`) live this long from the login; refreshing never
    /// extends it (seven days).
    static let refreshTokenTTL = 7 * 24 * 3600
    /// The grant types of this provider: its own and those the features add.
    var grantTypes: [String] { ["authorization_code", "refresh_token"] + extensionGrants.map(\.type) }

    /// `POST /oauth/token`: grants `authorization_code` (RFC 6749 4.1.3, RFC 7636 4.5) and
    /// `refresh_token` (RFC 6749 section 6, rotated on use).
    func token(_ p: TokenParameters, basic: BasicCredentials?, address: String) async throws(OAuthError) -> TokenResponse {
        guard let grant = p.grant_type, !grant.isEmpty else { throw .invalidRequest("grant_type is missing") }
        guard grantTypes.contains(grant) else {
            throw .unsupportedGrantType("the grant types are " + grantTypes.joined(separator: ", "))
        }
        let client = try await authenticateClient(p, basic: basic)
        if grant == "refresh_token" { return try await refresh(p, client: client, address: address) }
        if let extensionGrant = extensionGrants.first(where: { $0.type == grant }) {
            return try await extensionGrant.redeem(self, p, client, address)
        }
        guard let code = p.code, !code.isEmpty, code.utf8.count <= 256 else { throw .invalidRequest("code is missing") }
        guard let redirectURI = p.redirect_uri, !redirectURI.isEmpty else { throw .invalidRequest("redirect_uri is missing") }
        let codeHash = Tokens.hash(code)

        let now = self.now
        let redeemed = try await stored { try await $0.redeemAuthorizationCode(hash: codeHash, now: now) }
        guard let grantCode = redeemed else {
            // A second use: revoke what the first one issued (RFC 6749 section 4.1.2).
            if try await stored({ try await $0.authorizationCodeWasUsed(hash: codeHash) }) {
                let revoked = try await stored { try await $0.revokeOIDCAccessTokens(codeHash: codeHash) }
                await audit.record("oidc_code_reuse", address: address, "client \(client.id), \(revoked) access tokens revoked")
                throw .invalidGrant("the code was used already; the tokens issued for it are revoked")
            }
            throw .invalidGrant("the code is unknown or expired")
        }
        guard grantCode.clientId == client.id else { throw .invalidGrant("the code was issued to another client") }
        guard grantCode.redirectURI == redirectURI else { throw .invalidGrant("redirect_uri differs from the authorization request's") }
        if let challenge = grantCode.codeChallenge {
            guard let verifier = p.code_verifier else { throw .invalidGrant("code_verifier is missing") }
            guard PKCE.matches(verifier: verifier, challenge: challenge) else {
                throw .invalidGrant("code_verifier does not match the code_challenge")
            }
        } else if p.code_verifier != nil {
            throw .invalidGrant("code_verifier given but the authorization request had no code_challenge")
        }
        let offline = grantCode.scope.split(separator: " ").contains("offline_access")
        return try await issue(
            client: client, userId: grantCode.userId, mpinId: grantCode.mpinId, scope: grantCode.scope,
            authTime: grantCode.authTime, nonce: grantCode.nonce, family: codeHash,
            refreshExpires: offline ? now + Self.refreshTokenTTL : nil, address: address, sid: grantCode.sid, newLogin: true)
    }

    /// `grant_type=refresh_token`: the token is used up and replaced; a second use of one revokes
    /// its whole family (every access and refresh token descending from the same code).
    func refresh(_ p: TokenParameters, client: OIDCClient, address: String) async throws(OAuthError) -> TokenResponse {
        guard let token = p.refresh_token, !token.isEmpty, token.utf8.count <= 256 else { throw .invalidRequest("refresh_token is missing") }
        let hash = Tokens.hash(token)
        let now = self.now
        let redeemed = try await stored { try await $0.redeemOIDCRefreshToken(hash: hash, now: now) }
        guard let old = redeemed else {
            if let family = try await stored({ try await $0.usedOIDCRefreshTokenFamily(hash: hash) }) {
                _ = try await stored { try await $0.revokeOIDCAccessTokens(codeHash: family) }
                await audit.record("oidc_refresh_reuse", address: address, "client \(client.id): the token family is revoked")
                throw .invalidGrant("the refresh token was used already; every token of its login is revoked")
            }
            throw .invalidGrant("the refresh token is unknown or expired")
        }
        guard old.clientId == client.id else { throw .invalidGrant("the refresh token was issued to another client") }
        var scope = old.scope
        if let asked = p.scope {
            let granted = old.scope.split(separator: " ").map(String.init)
            let wanted = Set(asked.split(separator: " ").map(String.init))
            guard wanted.isSubset(of: Set(granted)), wanted.contains("openid") else { throw .invalidScope("scope exceeds what was granted") }
            scope = granted.filter { wanted.contains($0) }.joined(separator: " ")
        }
        let offline = scope.split(separator: " ").contains("offline_access")
        return try await issue(
            client: client, userId: old.userId, mpinId: old.mpinId, scope: scope, authTime: old.authTime, nonce: nil,
            family: old.family, refreshExpires: offline ? old.expires : nil, address: address, sid: old.sid)
    }

    /// The ID token, the access token and (with `refreshExpires`) a refresh token. `sid`: the
    /// web session of the login; `newLogin`: the family's first tokens, which record the
    /// person's sign-in at the site (`OIDCLogin`), so that sign-out can end it.
    func issue(
        client: OIDCClient, userId: String, mpinId: String, scope: String, authTime: Int, nonce: String?, family: String,
        refreshExpires: Int?, address: String, approval: ApprovalClaim? = nil, sid: String? = nil, newLogin: Bool = false
    ) async throws(OAuthError) -> TokenResponse {
        let accessToken = Tokens.fresh()
        let refreshToken = refreshExpires.map { _ in Tokens.fresh() }
        let issued = now
        let claims = IDTokenClaims(
            iss: issuer, sub: subject(userId: userId), aud: client.id, exp: issued + Self.idTokenTTL,
            iat: issued, authTime: authTime, nonce: nonce, email: userId,
            emailVerified: true, amr: approval == nil ? ["pin", "zkp"] : ["pin", "zkp", "dvs"], azp: client.id, approval: approval, sid: sid)
        let idToken: String
        do { idToken = try await keys.current(SigningKey.Algorithm(rawValue: client.idTokenAlg) ?? .es256).sign(claims) } catch {
            throw .serverError("the ID token could not be signed")
        }
        let access = OIDCAccessToken(
            hash: Tokens.hash(accessToken), clientId: client.id, userId: userId, mpinId: mpinId,
            scope: scope, codeHash: family, expires: issued + Self.accessTokenTTL)
        let refresh = refreshToken.flatMap { token in
            refreshExpires.map {
                OIDCRefreshToken(
                    hash: Tokens.hash(token), clientId: client.id, userId: userId, mpinId: mpinId,
                    scope: scope, authTime: authTime, family: family, expires: $0, sid: sid)
            }
        }
        let login =
            newLogin
            ? OIDCLogin(
                family: family, clientId: client.id, userId: userId, mpinId: mpinId, sid: sid, created: issued,
                expires: issued + Self.refreshTokenTTL) : nil
        // Stored only while the identity is active (it may have been revoked or blocked since the
        // login) and the family stands (a concurrent reuse that revoked it wins).
        let row = AuditEvent(time: issued, kind: "oidc_token", userId: userId, mpinId: mpinId, address: address, detail: "client \(client.id)")
        switch try await stored({ try await $0.storeOIDCTokens(access, refresh: refresh, login: login, audit: row) }) {
        case .stored: break
        case .identityInactive: throw .invalidGrant("the identity is no longer active")
        case .familyRevoked: throw .invalidGrant("the tokens of this login were revoked (a code or refresh token was used twice)")
        }
        metrics.tokens.increment()
        return TokenResponse(
            access_token: accessToken, expires_in: Self.accessTokenTTL, id_token: idToken, scope: scope,
            refresh_token: refreshToken)
    }
}
