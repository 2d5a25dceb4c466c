/// The HTTP methods the client uses.
public enum HTTPVerb: String, Sendable {
    case get = "GET"
    case put = "PUT"
    case post = "POST"
    case delete = "DELETE"
}

/// One HTTP answer: status and body bytes.
public struct HTTPResult: Sendable {
    public var status: Int
    public var body: [UInt8]
    public init(status: Int, body: [UInt8]) { self.status = status; self.body = body }
}

/// Sends one request. The client's flows talk to the server only through this, so tests can
/// script answers; `AsyncHTTPTransport` is the real one.
public protocol HTTPTransport: Sendable {
    /// Throws only `networkError` or `timeout`; any HTTP status is a result.
    func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?) async throws(ClientError) -> HTTPResult

    /// The same, for a request the server may hold on purpose for up to `serverHoldSeconds`
    /// (`/rps/authenticate` waits for the page): the timeout starts after that hold.
    func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, serverHoldSeconds: Int64) async throws(ClientError) -> HTTPResult

    /// The same with extra request headers (the regOTT travels in one, never in the URL).
    func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, headers: [(String, String)]) async throws(ClientError) -> HTTPResult
}

extension HTTPTransport {
    /// Transports without a timeout of their own (test fakes) ignore the hold.
    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, serverHoldSeconds: Int64) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body)
    }
}
