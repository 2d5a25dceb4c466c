/// What CIBA and the device grant share on the token side: the polling answers (CIBA Core
/// 1.0 section 11, RFC 8628 section 3.5), the scopes such a grant may ask, and its tokens.
extension OAuthError {
    static let authorizationPending = OAuthError(code: "authorization_pending", description: "the person has not answered yet")
    static func slowDown(_ interval: Int) -> OAuthError {
        OAuthError(code: "slow_down", description: "polling too fast: wait at least \(interval) seconds between polls")
    }
    static let expiredToken = OAuthError(code: "expired_token", description: "the request expired before the person answered")
    static let accessDenied = OAuthError(code: "access_denied", description: "the person denied the request")
}

extension OIDCProvider {
    /// The scopes a grant answered elsewhere may ask for (no redirect, no consent page).
    static func answeredGrantScope(_ scope: String?) throws(OAuthError) -> String {
        let values = (scope ?? "").split(separator: " ").map(String.init)
        guard values.contains("openid") else { throw .invalidScope("scope must include openid") }
        let known: Set = ["openid", "email", "profile", "offline_access"]
        guard values.allSatisfy(known.contains) else {
            throw .invalidScope("the scopes are openid, email, profile and offline_access")
        }
        return values.joined(separator: " ")
    }

    /// The tokens of a grant a person answered elsewhere (CIBA, the device grant). The grant is
    /// recorded as a used code, the root of its token family, so that revoking the identity or
    /// reusing a refresh token ends these tokens as it ends a browser login's.
    func issueAnsweredGrant(
        root: String, client: OIDCClient, userId: String, mpinId: String, scope: String, authTime: Int, address: String,
        approval: ApprovalClaim?
    ) async throws(OAuthError) -> TokenResponse {
        let now = self.now
        let code = AuthorizationCode(
            hash: root, clientId: client.id, redirectURI: "", userId: userId, mpinId: mpinId, scope: scope, nonce: nil,
            codeChallenge: nil, authTime: authTime, created: now, expires: now)
        _ = try await stored { try await $0.insertAuthorizationCode(code) }
        let offline = scope.split(separator: " ").contains("offline_access")
        return try await issue(
            client: client, userId: userId, mpinId: mpinId, scope: scope, authTime: authTime, nonce: nil, family: root,
            refreshExpires: offline ? now + Self.refreshTokenTTL : nil, address: address, approval: approval, newLogin: true)
    }
}
