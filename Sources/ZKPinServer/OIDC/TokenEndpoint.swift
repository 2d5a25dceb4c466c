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
}
