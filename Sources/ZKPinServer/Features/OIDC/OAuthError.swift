/// An error answer of RFC 6749: `error` code (sections 4.1.2.1 and 5.2) and a description.
struct OAuthError: Error, Sendable, Equatable {
    var code: String
    var description: String
    /// The token endpoint's status: 400, or 401 for invalid_client.
    var statusCode: Int = 400
    /// Seconds for `Retry-After` (429 and 503).
    var retryAfter: Int? = nil

    static func invalidRequest(_ d: String) -> OAuthError { OAuthError(code: "invalid_request", description: d) }
    static func invalidClient(_ d: String) -> OAuthError { OAuthError(code: "invalid_client", description: d, statusCode: 401) }
    static func invalidGrant(_ d: String) -> OAuthError { OAuthError(code: "invalid_grant", description: d) }
    static func unauthorizedClient(_ d: String) -> OAuthError { OAuthError(code: "unauthorized_client", description: d) }
    static func unsupportedGrantType(_ d: String) -> OAuthError { OAuthError(code: "unsupported_grant_type", description: d) }
    static func unsupportedResponseType(_ d: String) -> OAuthError { OAuthError(code: "unsupported_response_type", description: d) }
    static func invalidScope(_ d: String) -> OAuthError { OAuthError(code: "invalid_scope", description: d) }
    static func loginRequired(_ d: String) -> OAuthError { OAuthError(code: "login_required", description: d) }
    static func serverError(_ d: String) -> OAuthError { OAuthError(code: "server_error", description: d, statusCode: 500) }
    /// Too many failures from this address (not an RFC 6749 code: 429 with Retry-After says it).
    static func tooManyRequests(_ retryAfter: Int) -> OAuthError {
        OAuthError(
            code: "too_many_requests", description: "too many failed attempts from this address; try again in \(retryAfter) seconds",
            statusCode: 429, retryAfter: retryAfter)
    }
    /// The database is unavailable: 503 with Retry-After, never an error that blames the client.
    static let temporarilyUnavailable = OAuthError(
        code: "temporarily_unavailable",
        description: "the service's database is unavailable right now; try again in a few seconds",
        statusCode: 503)
}

/// Why the authorization endpoint shows an error page instead of redirecting (RFC 6749
/// section 4.1.2.1: never redirect to an unverified URI).
struct AuthorizationPageError: Error, Sendable, Equatable {
    var message: String
}
