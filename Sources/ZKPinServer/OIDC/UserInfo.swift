/// What `/oauth/userinfo` answers (OpenID Connect Core 5.3).
struct UserInfo: Codable, Sendable {
    var sub: String
    var email: String?
    var email_verified: Bool?
}

extension OIDCProvider {
    /// `GET|POST /oauth/userinfo` with a Bearer access token.
    func userInfo(accessToken: String?) async -> UserInfo? {
        guard let accessToken, !accessToken.isEmpty, accessToken.utf8.count <= 256,
              let token = try? await rp.store.oidcAccessToken(hash: Tokens.hash(accessToken), now: now) else { return nil }
        let withEmail = token.scope.split(separator: " ").contains("email")
        return UserInfo(sub: subject(userId: token.userId), email: withEmail ? token.userId : nil, email_verified: withEmail ? true : nil)
    }
}
