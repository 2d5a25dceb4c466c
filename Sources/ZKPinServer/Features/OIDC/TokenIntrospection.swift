import Foundation

/// The form fields of `POST /oauth/revoke` (RFC 7009) and `POST /oauth/introspect` (RFC 7662).
struct TokenHintParameters: Decodable, Sendable {
    var token: String?
    var token_type_hint: String?
    var client_id: String?
    var client_secret: String?
}

/// RFC 7662 section 2.2; `active: false` alone when the token is not live (or not this
/// client's to see).
struct IntrospectionResponse: Codable, Sendable, Equatable {
    var active: Bool
    var scope: String? = nil
    var client_id: String? = nil
    var username: String? = nil
    var token_type: String? = nil
    var exp: Int? = nil
    var iat: Int? = nil
    var sub: String? = nil
    var aud: String? = nil
    var iss: String? = nil
}

/// Revocation and introspection for sites and for resource servers (clients registered with
/// `--introspect`). A token is live while it has not expired, its login family stands (no
/// revocation, no reuse) and its identity is active: so `active` turns false at once after a
/// revocation here, a sign-out that revoked the family, or `admin revoke`.
extension OIDCProvider {
    static let tokenTypeHints = ["access_token", "refresh_token"]

    /// `POST /oauth/revoke`: a client ends its own access or refresh token; a refresh token ends
    /// its whole family (every access and refresh token of the login). An unknown, expired or
    /// already revoked token is a 200 as well (RFC 7009 section 2.2); another client's token
    /// is refused (section 2.1) and left alone.
    func revoke(_ p: TokenHintParameters, basic: BasicCredentials?, address: String) async throws(OAuthError) {
        let client = try await authenticateClient(id: p.client_id, secret: p.client_secret, basic: basic)
        let token = try Self.hinted(p)
        let hash = Tokens.hash(token)
        if let access = try await stored({ try await $0.oidcAccessTokenRow(hash: hash) }) {
            guard access.clientId == client.id else { throw .unauthorizedClient("the token was issued to another client") }
            _ = try await stored { try await $0.deleteOIDCAccessToken(hash: hash) }
            await audit.record("oidc_revoke", userId: access.userId, mpinId: access.mpinId, address: address, "client \(client.id): access token")
        } else if let refresh = try await stored({ try await $0.oidcRefreshTokenRow(hash: hash) }) {
            guard refresh.clientId == client.id else { throw .unauthorizedClient("the token was issued to another client") }
            let revoked = try await stored { try await $0.revokeOIDCAccessTokens(codeHash: refresh.family) }
            await audit.record(
                "oidc_revoke", userId: refresh.userId, mpinId: refresh.mpinId, address: address,
                "client \(client.id): refresh token, its family (\(revoked) access tokens)")
        }
        metrics.revocations.increment()
    }

    /// `POST /oauth/introspect`: whether a token is live, and what it stands for. A client
    /// registered with `--introspect` sees any client's tokens; any other confidential client
    /// only its own (another's is `active: false`, as an unknown one).
    func introspect(_ p: TokenHintParameters, basic: BasicCredentials?) async throws(OAuthError) -> IntrospectionResponse {
        let client = try await authenticateClient(id: p.client_id, secret: p.client_secret, basic: basic)
        guard !client.isPublic else { throw .unauthorizedClient("a public client cannot introspect tokens") }
        let token = try Self.hinted(p)
        let hash = Tokens.hash(token)
        let now = self.now
        metrics.introspections.increment()
        // A revoked family's tokens are deleted with the revocation, so a stored, live token's
        // family stands: no second look is needed.
        func access() async throws(OAuthError) -> IntrospectionResponse? {
            guard let a = try await stored({ try await $0.oidcAccessToken(hash: hash, now: now) }) else { return nil }
            guard client.introspect || a.clientId == client.id else { return IntrospectionResponse(active: false) }
            return IntrospectionResponse(
                active: true, scope: a.scope, client_id: a.clientId, username: a.userId, token_type: "Bearer", exp: a.expires,
                iat: a.expires - Self.accessTokenTTL, sub: subject(userId: a.userId), aud: a.clientId, iss: issuer)
        }
        func refresh() async throws(OAuthError) -> IntrospectionResponse? {
            guard let r = try await stored({ try await $0.liveOIDCRefreshToken(hash: hash, now: now) }) else { return nil }
            guard client.introspect || r.clientId == client.id else { return IntrospectionResponse(active: false) }
            return IntrospectionResponse(
                active: true, scope: r.scope, client_id: r.clientId, username: r.userId, token_type: "refresh_token", exp: r.expires,
                iat: r.authTime, sub: subject(userId: r.userId), aud: r.clientId, iss: issuer)
        }
        // The hint says where to look first (RFC 7662 section 2.1); the other kind is looked at too.
        let refreshFirst = p.token_type_hint == "refresh_token"
        if let first = refreshFirst ? try await refresh() : try await access() { return first }
        return try await (refreshFirst ? access() : refresh()) ?? IntrospectionResponse(active: false)
    }

    /// The token, and a hint that is one of RFC 7009's (an unknown hint is
    /// `unsupported_token_type`, section 2.2.1).
    static func hinted(_ p: TokenHintParameters) throws(OAuthError) -> String {
        guard let token = p.token, !token.isEmpty, token.utf8.count <= 256 else { throw .invalidRequest("token is missing") }
        if let hint = p.token_type_hint, !tokenTypeHints.contains(hint) {
            throw OAuthError(code: "unsupported_token_type", description: "token_type_hint is access_token or refresh_token")
        }
        return token
    }
}
