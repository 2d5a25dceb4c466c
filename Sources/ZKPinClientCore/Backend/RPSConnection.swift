import Foundation
import ZKPinWire

/// JSON requests to one M-Pin server, with the error body of the HTTP API (openapi.yaml) decoded.
public struct RPSConnection: Sendable {
    public let transport: any HTTPTransport

    public init(transport: any HTTPTransport) { self.transport = transport }

    /// A response whose status the caller interprets step by step.
    public struct Answer: Sendable {
        public var url: String
        public var status: Int
        public var body: [UInt8]

        /// The `{"error","message"}` body, when there is one.
        public var error: ErrorBody? { try? JSONDecoder().decode(ErrorBody.self, from: Data(body)) }

        public var isSuccess: Bool { (200..<300).contains(status) }

        /// Decodes a 2xx body as `T`; anything else is "not an M-Pin server" for discovery and
        /// "unexpected answer" later.
        public func decode<T: Decodable>(_ type: T.Type, discovery: Bool = false) throws(ClientError) -> T {
            guard isSuccess else { throw unexpected() }
            do {
                return try JSONDecoder().decode(T.self, from: Data(body))
            } catch {
                let reason = "its answer is not the JSON a \(String(describing: T.self)) needs"
                if discovery { throw .notMPinServer(url: url, reason: reason) }
                throw .unexpectedResponse(url: url, status: status, detail: reason)
            }
        }

        /// The generic error for a status the step does not expect.
        public func unexpected() -> ClientError {
            if status == 429 { return .rateLimited(url: url, detail: error?.message) }
            let detail: String
            if let error {
                detail = "\(error.error): \(error.message)"
            } else if body.isEmpty {
                detail = "no explanation"
            } else {
                detail = String(decoding: body.prefix(200), as: UTF8.self)
            }
            return .unexpectedResponse(url: url, status: status, detail: detail)
        }
    }

    public func get(_ url: String) async throws(ClientError) -> Answer {
        let result = try await transport.send(.get, url, json: nil)
        return Answer(url: url, status: result.status, body: result.body)
    }

    /// A GET with extra headers (for values that must stay out of URLs and so out of logs).
    public func get(_ url: String, headers: [(String, String)]) async throws(ClientError) -> Answer {
        let result = try await transport.send(.get, url, json: nil, headers: headers)
        return Answer(url: url, status: result.status, body: result.body)
    }

    /// `serverHoldSeconds`: how long the server may hold this request on purpose (see
    /// `HTTPTransport`).
    public func send<Body: Encodable>(
        _ verb: HTTPVerb, _ url: String, _ body: Body,
        serverHoldSeconds: Int64 = 0
    ) async throws(ClientError) -> Answer {
        let bytes: [UInt8]
        do { bytes = Array(try JSONEncoder().encode(body)) } catch {
            throw .badInput("The request to \(url) could not be encoded: \(error)")
        }
        let result =
            serverHoldSeconds > 0
            ? try await transport.send(verb, url, json: bytes, serverHoldSeconds: serverHoldSeconds)
            : try await transport.send(verb, url, json: bytes)
        return Answer(url: url, status: result.status, body: result.body)
    }
}
