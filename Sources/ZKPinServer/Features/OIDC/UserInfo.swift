/// What `/oauth/userinfo` answers (OpenID Connect Core 5.3).
struct UserInfo: Codable, Sendable {
    var sub: String
    var email: String?
    var email_verified: Bool?
}

extension OIDCProvider {
    /// `GET|POST /oauth/userinfo` with a Bearer access token.
    /// Nil for a missing, unknown or expired token; `temporarily_unavailable` when the store fails.
    func userInfo(accessToken: String?) async throws(OAuthError) -> UserInfo? {
        guard let accessToken, !accessToken.isEmpty, accessToken.utf8.count <= 256 else { return nil }
        let now = self.now
        guard let token = try await stored({ try await $0.oidcAccessToken(hash: Tokens.hash(accessToken), now: now) }) else { return nil }
        let withEmail = token.scope.split(separator: " ").contains("email")
        return UserInfo(sub: subject(userId: token.userId), email: withEmail ? token.userId : nil, email_verified: withEmail ? true : nil)
    }
}
