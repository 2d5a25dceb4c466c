import ZKPinWire

/// An answer other than success: an HTTP status with the `{"error","message"}` body.
public struct APIError: Error, Sendable, Equatable {
    public var status: Int
    public var body: ErrorBody

    public init(_ code: ErrorCode, _ message: String, attemptsLeft: Int? = nil) {
        status = code.httpStatus
        body = ErrorBody(code, message, attemptsLeft: attemptsLeft)
    }

    public init(status: Int, code: ErrorCode, _ message: String) {
        self.status = status
        body = ErrorBody(code, message)
    }

    static func bad(_ message: String) -> APIError { APIError(.badRequest, message) }
}
