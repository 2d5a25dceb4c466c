import Foundation
import ZKPinClientCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HTTPTransport` on URLSession (FoundationNetworking on Linux): no SwiftNIO in an app. Every
/// request ends within `timeoutSeconds`, plus the time the server may hold it on purpose.
public struct URLSessionTransport: HTTPTransport {
    public let session: URLSession
    /// Per request.
    public var timeoutSeconds: Int64

    public init(session: URLSession = URLSession(configuration: .ephemeral), timeoutSeconds: Int64 = 10) {
        self.session = session
        self.timeoutSeconds = timeoutSeconds
    }

    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body, serverHoldSeconds: 0, headers: [])
    }

    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, serverHoldSeconds: Int64) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body, serverHoldSeconds: serverHoldSeconds, headers: [])
    }

    public func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, headers: [(String, String)]) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body, serverHoldSeconds: 0, headers: headers)
    }

    func send(
        _ verb: HTTPVerb, _ url: String, json body: [UInt8]?, serverHoldSeconds: Int64, headers: [(String, String)]
    ) async throws(ClientError) -> HTTPResult {
        guard let target = URL(string: url), target.scheme == "http" || target.scheme == "https" else { throw .malformedURL(url) }
        let seconds = timeoutSeconds + serverHoldSeconds
        var request = URLRequest(url: target, timeoutInterval: TimeInterval(seconds))
        request.httpMethod = verb.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("ZKPinKit", forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body)
        }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw ClientError.networkError(url: url, reason: "the answer is not HTTP")
            }
            return HTTPResult(status: http.statusCode, body: Array(data))
        } catch let error as ClientError {
            throw error
        } catch let error as URLError where error.code == .timedOut {
            throw .timeout(url: url, seconds: Int(seconds))
        } catch {
            throw .networkError(url: url, reason: error.localizedDescription)
        }
    }
}
