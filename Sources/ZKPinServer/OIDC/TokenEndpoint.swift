import Foundation
import ZKPinWire

/// The form fields of `POST /oauth/token`.
struct TokenParameters: Decodable, Sendable {
    var grant_type: String?
    var code: String?
    var redirect_uri: String?
    var client_id: String?
    var client_secret: String?
    var code_verifier: String?
}

/// The success answer of RFC 6749 section 5.1 with the ID token of OpenID Connect Core 3.1.3.3.
struct TokenResponse: Codable, Sendable {
    var access_token: String
    var token_type = "Bearer"
    var expires_in: Int
    var id_token: String
    var scope: String
}

/// What `/oauth/userinfo` answers (OpenID Connect Core 5.3).
struct UserInfo: Codable, Sendable {
    var sub: String
    var email: String?
    var email_verified: Bool?
}

/// HTTP Basic client credentials (RFC 6749 section 2.3.1: both parts form-urlencoded).
struct BasicCredentials: Sendable, Equatable {
    var id: String
    var secret: String

    /// nil when the header is not Basic; throws when it is Basic but malformed.
    static func parse(_ header: String?) throws(OAuthError) -> BasicCredentials? {
        guard let header, header.lowercased().hasPrefix("basic ") else { return nil }
        let encoded = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { throw .invalidClient("malformed Basic credentials") }
        func decode(_ s: Substring) -> String? { String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
        guard let id = decode(text[..<colon]), let secret = decode(text[text.index(after: colon)...])
        else { throw .invalidClient("malformed Basic credentials") }
        return BasicCredentials(id: id, secret: secret)
    }
}

extension OIDCProvider {
    /// `POST /oauth/token`, grant `authorization_code` (RFC 6749 4.1.3, RFC 7636 4.5).
    func token(_ p: TokenParameters, basic: BasicCredentials?, address: String) async throws(OAuthError) -> TokenResponse {
        guard let grant = p.grant_type, !grant.isEmpty else { throw .invalidRequest("grant_type is missing") }
        guard grant == "authorization_code" else { throw .unsupportedGrantType("only authorization_code is supported") }
        let client = try await authenticateClient(p, basic: basic)
        guard let code = p.code, !code.isEmpty, code.utf8.count <= 256 else { throw .invalidRequest("code is missing") }
        guard let redirectURI = p.redirect_uri, !redirectURI.isEmpty else { throw .invalidRequest("redirect_uri is missing") }
        let codeHash = Tokens.hash(code)

        let redeemed: AuthorizationCode?
        do { redeemed = try await rp.store.redeemAuthorizationCode(hash: codeHash, now: now) }
        catch { throw .serverError("storage failed") }
        guard let grantCode = redeemed else {
            // A second use: revoke what the first one issued (RFC 6749 section 4.1.2).
            if (try? await rp.store.authorizationCodeWasUsed(hash: codeHash)) == true {
                let revoked = (try? await rp.store.revokeOIDCAccessTokens(codeHash: codeHash)) ?? 0
                await rp.audit("oidc_code_reuse", address: address, "client \(client.id), \(revoked) access tokens revoked")
                throw .invalidGrant("the code was used already; the tokens issued for it are revoked")
            }
            throw .invalidGrant("the code is unknown or expired")
        }
        guard grantCode.clientId == client.id else { throw .invalidGrant("the code was issued to another client") }
        guard grantCode.redirectURI == redirectURI else { throw .invalidGrant("redirect_uri differs from the authorization request's") }
        if let challenge = grantCode.codeChallenge {
            guard let verifier = p.code_verifier else { throw .invalidGrant("code_verifier is missing") }
            guard PKCE.matches(verifier: verifier, challenge: challenge) else { throw .invalidGrant("code_verifier does not match the code_challenge") }
        } else if p.code_verifier != nil {
            throw .invalidGrant("code_verifier given but the authorization request had no code_challenge")
        }
        // The identity may have been revoked or blocked since the login.
        guard let identity = try? await rp.store.identity(mpinId: grantCode.mpinId), identity.state == .active else {
            throw .invalidGrant("the identity is no longer active")
        }

        let accessToken = Tokens.fresh()
        let issued = now
        let claims = IDTokenClaims(iss: issuer, sub: subject(userId: grantCode.userId), aud: client.id, exp: issued + Self.idTokenTTL,
                                   iat: issued, authTime: grantCode.authTime, nonce: grantCode.nonce, email: grantCode.userId,
                                   emailVerified: true, amr: ["pin", "zkp"], azp: client.id)
        let idToken: String
        do {
            idToken = try await keys.current(SigningKey.Algorithm(rawValue: client.idTokenAlg) ?? .es256).sign(claims)
            try await rp.store.insertOIDCAccessToken(OIDCAccessToken(
                hash: Tokens.hash(accessToken), clientId: client.id, userId: grantCode.userId, mpinId: grantCode.mpinId,
                scope: grantCode.scope, codeHash: codeHash, expires: issued + Self.accessTokenTTL))
        } catch { throw .serverError("the token could not be issued") }
        metrics.tokens.increment()
        await rp.audit("oidc_token", userId: grantCode.userId, mpinId: grantCode.mpinId, address: address, "client \(client.id)")
        return TokenResponse(access_token: accessToken, expires_in: Self.accessTokenTTL, id_token: idToken, scope: grantCode.scope)
    }

    /// client_secret_basic, client_secret_post, or none (public clients, which must use PKCE).
    func authenticateClient(_ p: TokenParameters, basic: BasicCredentials?) async throws(OAuthError) -> OIDCClient {
        if basic != nil && p.client_secret != nil { throw .invalidRequest("use one client authentication method, not two") }
        if let basic, let id = p.client_id, id != basic.id { throw .invalidRequest("client_id differs from the Basic credentials") }
        guard let id = basic?.id ?? p.client_id, !id.isEmpty, id.utf8.count <= 256 else {
            throw .invalidClient("no client authentication")
        }
        let found: OIDCClient?
        do { found = try await client(id: id) } catch { throw .serverError("storage failed") }
        guard let client = found else { throw .invalidClient("client authentication failed") }
        let secret = basic?.secret ?? p.client_secret
        if let stored = client.secretHash {
            guard let secret, Tokens.equal(Tokens.hash(secret), stored) else { throw .invalidClient("client authentication failed") }
        } else if secret != nil && secret != "" {
            throw .invalidClient("this client is public: it has no secret")
        }
        return client
    }

    /// `GET|POST /oauth/userinfo` with a Bearer access token.
    func userInfo(accessToken: String?) async -> UserInfo? {
        guard let accessToken, !accessToken.isEmpty, accessToken.utf8.count <= 256,
              let token = try? await rp.store.oidcAccessToken(hash: Tokens.hash(accessToken), now: now) else { return nil }
        let withEmail = token.scope.split(separator: " ").contains("email")
        return UserInfo(sub: subject(userId: token.userId), email: withEmail ? token.userId : nil, email_verified: withEmail ? true : nil)
    }
}
