import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// `HTTPTransport` over AsyncHTTPClient's shared client.
public struct AsyncHTTPTransport: HTTPTransport {
    /// Per request; `/rps/authenticate` itself may wait up to 10 s for the page.
    public var timeoutSeconds: Int64
    /// Answers larger than this are refused (no M-Pin answer comes close).
    public var maxBodyBytes: Int

    public init(timeoutSeconds: Int64 = 30, maxBodyBytes: Int = 1 << 20) {
        self.timeoutSeconds = timeoutSeconds
        self.maxBodyBytes = maxBodyBytes
    }

    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?) async throws(ClientError) -> HTTPResult {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: verb.rawValue)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "zkpin")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(timeoutSeconds))
            let buffer = try await response.body.collect(upTo: maxBodyBytes)
            return HTTPResult(status: Int(response.status.code), body: Array(buffer.readableBytesView))
        } catch let error as HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error) {
                throw .timeout(url: url)
            }
            if [.invalidURL, .emptyHost, .emptyScheme].contains(error) { throw .malformedURL(url) }
            throw .networkError(url: url, reason: Self.describe(error))
        } catch {
            throw .networkError(url: url, reason: Self.describe(error))
        }
    }

    /// A short reason a person can act on, from NIO's error texts.
    package static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return "connection refused (is the server running at that address?)"
        }
        if text.contains("NXDOMAIN") || text.contains("lookup") || text.contains("resolve") {
            return "the host name could not be resolved"
        }
        if text.contains("responseBodyTooBig") || text.contains("TooMany") || text.contains("tooMany") {
            return "the answer was too large"
        }
        return text.count > 200 ? String(text.prefix(200)) + "..." : text
    }
}
