import JWTKit

/// The claims of a logout token (OpenID Connect Back-Channel Logout 1.0, section 2.4): who
/// signed out (`sub`, and `sid` when the sign-in came from a ZKPin web session), the event, a
/// fresh `jti` for the site's replay check, and never a `nonce`.
struct LogoutTokenClaims: JWTPayload, Equatable {
    static let event = "http://schemas.openid.net/event/backchannel-logout"
    /// The JOSE `typ` the specification recommends, so that a logout token is never taken for an ID token.
    static let type = "logout+jwt"
    /// A logout token is posted at once; a site should not accept one much older.
    static let lifetime = 120

    var iss: String
    var aud: String
    var iat: Int
    var exp: Int
    var jti: String
    var sub: String
    var sid: String?
    var events: [String: [String: String]] = [Self.event: [:]]

    /// Tokens are only signed here.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
