import HTTPTypes
import ZKPinWire

/// An answer other than success: an HTTP status with the `{"error","message"}` body. It is
/// Hummingbird's `HTTPResponseError` (see `HTTP/APIErrorResponse.swift`), so services throw it
/// and the router turns it into the response.
public struct APIError: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var body: ErrorBody
    /// Seconds for `Retry-After` (a 503, and a 429 that knows when it ends).
    public var retryAfter: Int?
    /// The `Allow` header's methods (405 only).
    public var allow: [HTTPRequest.Method] = []

    public init(_ code: ErrorCode, _ message: String, attemptsLeft: Int? = nil) {
        status = HTTPResponse.Status(code: code.httpStatus)
        body = ErrorBody(code, message, attemptsLeft: attemptsLeft)
    }

    public init(status: HTTPResponse.Status, code: ErrorCode, _ message: String) {
        self.status = status
        body = ErrorBody(code, message)
    }

    static func bad(_ message: String) -> APIError { APIError(.badRequest, message) }

    /// The path exists, but not for `method`.
    static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> APIError {
        let names = allowed.map(\.rawValue).joined(separator: ", ")
        var error = APIError(status: .methodNotAllowed, code: .badRequest, "\(method.rawValue) is not allowed here; use \(names)")
        error.allow = allowed
        return error
    }

    /// The one answer to every storage failure: the person did nothing wrong, so never a 4xx
    /// (which would tell them their code expired or their identity is unknown).
    public static let storageUnavailable: APIError = {
        var error = APIError(.unavailable, "the service's database is unavailable right now; try again in a few seconds")
        error.retryAfter = 5
        return error
    }()
}
