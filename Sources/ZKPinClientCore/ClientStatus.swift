/// The client status codes of the HTTP API ("Client states and status codes": openapi.yaml and docs/api.md), as a script
/// sees them in `--json` output.
public enum ClientStatus: String, Codable, Sendable, CaseIterable {
    case ok = "OK"
    /// A payload without `#`, or an access code with a wrong check digit.
    case invalidAccessCode = "INVALID_ACCESS_CODE"
    /// 403: the identity is revoked or unknown to the server.
    case identityNotAuthorized = "IDENTITY_NOT_AUTHORIZED"
    /// 400/401 at the signature step: not activated, expired or a wrong regOTT.
    case identityNotVerified = "IDENTITY_NOT_VERIFIED"
    /// 401 `wrong_pin`.
    case incorrectPIN = "INCORRECT_PIN"
    /// 401 `invalid_token`.
    case invalidToken = "INVALID_TOKEN"
    /// 410: blocked; the client deleted its token.
    case blocked = "BLOCKED"
    /// 412: the access code is unknown, expired or used.
    case incorrectAccessNumber = "INCORRECT_ACCESS_NUMBER"
    /// 408: the web page did not take the login up.
    case authenticationTimeout = "AUTHENTICATION_TIMEOUT"
    /// The server could not be reached or did not answer in time.
    case networkError = "NETWORK_ERROR"
    /// The server answered, but not as an M-Pin server does.
    case unexpectedResponse = "UNEXPECTED_RESPONSE"
    /// 429: a limit of the server; the message says which, and to wait.
    case rateLimited = "RATE_LIMITED"
    /// Input the client refuses before talking to anyone (URL, PIN, e-mail, image, identity).
    case badInput = "BAD_INPUT"
    /// The person declined to go on (host mismatch, PIN prompt closed).
    case cancelled = "CANCELLED"
}
