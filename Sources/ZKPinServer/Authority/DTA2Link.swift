import AsyncHTTPClient
import Foundation
import NIOCore
import ZKPinWire

/// How the relying party reaches D-TA 2: in the same process (demo) or over HTTP.
public enum DTA2Link: Sendable {
    /// D-TA 2 runs in this process under `/dta2` (demo and development only).
    case inProcess(DTA2Service)
    /// D-TA 2 is its own service at `url`.
    case remote(url: String)

    /// What `clientSettings.dta2URL` says.
    public var clientURL: String {
        switch self {
        case .inProcess: return "/dta2"
        case .remote(let url): return url.hasSuffix("/") ? String(url.dropLast()) : url
        }
    }
}

/// A small JSON-over-HTTP GET used for D-TA 2 and by tests.
public enum HTTPJSON {
    public struct Failure: Error, CustomStringConvertible {
        public var status: Int
        public var body: String
        public var description: String { "HTTP \(status): \(body)" }
    }

    public static func get<T: Decodable>(_ url: String, as: T.Type) async throws -> T {
        let request = HTTPClientRequest(url: url)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(15))
        let body = try await response.body.collect(upTo: 1 << 20)
        let bytes = Data(body.readableBytesView)
        guard response.status.code == 200 else {
            throw Failure(status: Int(response.status.code), body: String(decoding: bytes, as: UTF8.self))
        }
        return try JSONDecoder().decode(T.self, from: bytes)
    }
}

extension HTTPJSON {
    /// Redirects are answers here (a 303 with its cookie), not something to follow. Lives as
    /// long as the process, like `HTTPClient.shared`.
    static let noRedirects = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: noRedirectConfiguration)

    static var noRedirectConfiguration: HTTPClient.Configuration {
        var c = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(60)))
        // Load tests open many logins at once; queueing them behind 8 connections times out.
        c.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        return c
    }

    /// One HTTP exchange (tools and loopback tests): status, headers, body.
    public static func send(
        method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeout: Int64 = 30
    ) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (k, v) in headers { request.headers.add(name: k, value: v) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await noRedirects.execute(request, timeout: .seconds(timeout))
        let bytes = try await response.body.collect(upTo: 4 << 20)
        return (Int(response.status.code), response.headers.map { ($0.name, $0.value) }, Array(bytes.readableBytesView))
    }
}
