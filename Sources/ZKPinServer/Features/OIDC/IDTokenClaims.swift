import JWTKit

/// The claims of an ID token (OpenID Connect Core 1.0, section 2) plus the e-mail claims of
/// section 5.1. `amr` names the factors: a PIN proved in zero knowledge (RFC 8176 "pin").
struct IDTokenClaims: JWTPayload, Equatable {
    var iss: String
    var sub: String
    var aud: String
    var exp: Int
    var iat: Int
    var authTime: Int
    var nonce: String?
    var email: String
    var emailVerified: Bool
    var amr: [String]
    var azp: String
    /// A CIBA grant's signed approval.
    var approval: ApprovalClaim? = nil
    /// The ZKPin web session the login came from (Back-Channel Logout 1.0, section 2.1), so a
    /// site can match a logout token to its session; none for CIBA and device grants.
    var sid: String? = nil

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, email, amr, azp, approval, sid
        case authTime = "auth_time"
        case emailVerified = "email_verified"
    }

    /// Tokens are only verified here as `id_token_hint` of a logout, whose expiry does not
    /// matter (OpenID Connect RP-Initiated Logout 1.0, section 2); the caller checks `iss`.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
