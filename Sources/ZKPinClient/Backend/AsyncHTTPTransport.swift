import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// `HTTPTransport` over AsyncHTTPClient, failing fast: a refused connection or an unknown host
/// is reported at once (the shared client retries a failed connection until the deadline, 30 s
/// of silence), and every request ends within `timeoutSeconds`.
public struct AsyncHTTPTransport: HTTPTransport {
    /// Per request (`zkpin --timeout`).
    public var timeoutSeconds: Int64
    /// Answers larger than this are refused (no M-Pin answer comes close).
    public var maxBodyBytes: Int

    public init(timeoutSeconds: Int64 = 5, maxBodyBytes: Int = 1 << 20) {
        self.timeoutSeconds = timeoutSeconds
        self.maxBodyBytes = maxBodyBytes
    }

    /// One client for the process, never shut down: a command runs a handful of requests and
    /// exits. Its connect timeout is long; each request's deadline is what bounds the wait.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(600))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body, serverHoldSeconds: 0)
    }

    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, headers: [(String, String)]) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body, serverHoldSeconds: 0, headers: headers)
    }

    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, serverHoldSeconds: Int64) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body, serverHoldSeconds: serverHoldSeconds, headers: [])
    }

    func send(
        _ verb: HTTPVerb, _ url: String, json body: [UInt8]?, serverHoldSeconds: Int64,
        headers: [(String, String)]
    ) async throws(ClientError) -> HTTPResult {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.method = HTTPMethod(rawValue: verb.rawValue)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "zkpin")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        let seconds = timeoutSeconds + serverHoldSeconds
        do {
            let response = try await Self.client.execute(request, timeout: .seconds(seconds))
            let buffer = try await response.body.collect(upTo: maxBodyBytes)
            return HTTPResult(status: Int(response.status.code), body: Array(buffer.readableBytesView))
        } catch {
            throw Self.clientError(error, url: url, seconds: seconds)
        }
    }

    /// The person's reading of an AsyncHTTPClient failure.
    static func clientError(_ error: any Error, url: String, seconds: Int64) -> ClientError {
        if let error = error as? HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error) {
                return .timeout(url: url, seconds: Int(seconds))
            }
            if [.invalidURL, .emptyHost, .emptyScheme].contains(error) { return .malformedURL(url) }
        }
        return .networkError(url: url, reason: NetworkErrorText.reason(error))
    }

    /// Kept for the load driver's transport.
    package static func describe(_ error: any Error) -> String { NetworkErrorText.reason(error) }
}
