// The error body of every 4xx and 5xx answer: `{"error": "<code>", "message": "<text>"}`.

/// `{"error", "message"}`, plus `attemptsLeft` for `wrong_pin`.
public struct ErrorBody: Codable, Sendable, Equatable, Error {
    /// A machine-readable code, one of `ErrorCode` (clients should still accept others).
    public var error: String
    /// Human text for the person.
    public var message: String
    /// Only with `wrong_pin`.
    public var attemptsLeft: Int?

    public init(error: String, message: String, attemptsLeft: Int? = nil) {
        self.error = error; self.message = message; self.attemptsLeft = attemptsLeft
    }

    public init(_ code: ErrorCode, _ message: String, attemptsLeft: Int? = nil) {
        self.init(error: code.rawValue, message: message, attemptsLeft: attemptsLeft)
    }

    /// The code as a known case, nil for codes this version does not know.
    public var code: ErrorCode? { ErrorCode(rawValue: error) }
}

/// The error codes the server sends, with the HTTP status each comes with.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    /// 400: malformed JSON, missing field, bad hex, bad point, bad e-mail, ...
    case badRequest = "bad_request"
    /// 400 at `/rps/signature`: the regOTT does not match.
    case invalidRegOTT = "invalid_regott"
    /// 401 at `/rps/signature`: not activated yet.
    case notActivated = "not_activated"
    /// 401 at `/rps/authenticate`: a genuine token with a wrong PIN; `attemptsLeft` is set.
    case wrongPIN = "wrong_pin"
    /// 401 at `/rps/authenticate`: no genuine token (random or replayed values), or an
    /// unknown or used authOTT.
    case invalidToken = "invalid_token"
    /// 401 at `/otp/verify`: the service's client credentials are missing or wrong.
    case invalidClient = "invalid_client"
    /// 403: unknown or revoked identity.
    case identityNotAuthorized = "identity_not_authorized"
    /// 403 at pass 2: no live pass-1 challenge.
    case noChallenge = "no_challenge"
    /// 403: a same-origin check or a bad signature.
    case forbidden = "forbidden"
    /// 404.
    case notFound = "not_found"
    /// 408: the browser did not take the login up in time.
    case authenticationTimeout = "authentication_timeout"
    /// 410: the identity is blocked; the client deletes its token.
    case blocked = "blocked"
    /// 412: unknown, expired or used access code.
    case accessCodeExpired = "access_code_expired"
    /// 429.
    case rateLimited = "rate_limited"
    /// 500 (a bug) and 502/503 (D-TA 2 unreachable).
    case internalError = "internal_error"
    case unavailable = "unavailable"

    /// The HTTP status that goes with the code.
    public var httpStatus: Int {
        switch self {
        case .badRequest, .invalidRegOTT: return 400
        case .notActivated, .wrongPIN, .invalidToken, .invalidClient: return 401
        case .identityNotAuthorized, .noChallenge, .forbidden: return 403
        case .notFound: return 404
        case .authenticationTimeout: return 408
        case .blocked: return 410
        case .accessCodeExpired: return 412
        case .rateLimited: return 429
        case .internalError: return 500
        case .unavailable: return 503
        }
    }
}
