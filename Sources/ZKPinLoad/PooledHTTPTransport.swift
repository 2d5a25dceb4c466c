import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import ZKPinClient

/// An `HTTPTransport` with a client of its own whose pool allows `connections` connections per
/// host: the shared client allows 8, which would cap a load test at 8 requests in flight.
public final class PooledHTTPTransport: HTTPTransport {
    let client: HTTPClient
    let timeoutSeconds: Int64

    public init(connections: Int, timeoutSeconds: Int64 = 30) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(connections, 1))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.timeoutSeconds = timeoutSeconds
    }

    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body, headers: [])
    }

    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, headers: [(String, String)]) async throws(ClientError) -> HTTPResult {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.method = HTTPMethod(rawValue: verb.rawValue)
        request.headers.add(name: "Accept", value: "application/json")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        do {
            let response = try await client.execute(request, timeout: .seconds(timeoutSeconds))
            let buffer = try await response.body.collect(upTo: 1 << 20)
            return HTTPResult(status: Int(response.status.code), body: Array(buffer.readableBytesView))
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error) {
            throw .timeout(url: url)
        } catch {
            throw .networkError(url: url, reason: AsyncHTTPTransport.describe(error))
        }
    }

    public func shutdown() async { try? await client.shutdown() }
}
