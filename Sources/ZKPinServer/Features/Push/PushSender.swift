import AsyncHTTPClient
import Foundation
import NIOCore

/// RFC 8030 section 5.3: how soon the push service should wake the device.
public enum PushUrgency: String, Sendable {
    case normal
    case high
}

/// One message for one subscription, before encryption.
public struct PushMessage: Sendable {
    public var payload: [UInt8]
    /// How long the push service may keep the message for an offline device, in seconds.
    public var ttl: Int
    public var urgency: PushUrgency

    public init(payload: [UInt8], ttl: Int, urgency: PushUrgency = .normal) {
        self.payload = payload
        self.ttl = max(0, ttl)
        self.urgency = urgency
    }
}

/// What became of one send, and so what the delivery queue does next.
public enum PushOutcome: Sendable, Equatable {
    /// 200, 201 or 202 (any 2xx): the push service took the message.
    case delivered(status: Int)
    /// 404 or 410: the subscription is gone; remove it.
    case gone(status: Int)
    /// 429, 5xx, a timeout or a connection error: try again, not before `after` seconds when
    /// the push service said so (Retry-After).
    case retryLater(after: Int?, reason: String)
    /// Any other 4xx (400, 401, 403, 413...), an endpoint the allow-list refuses (no status: no
    /// request was made), or a message that cannot be encrypted: log it, do not retry.
    case refused(status: Int?, reason: String)
    /// A 3xx: never followed (the allow-list holds only for the address first called); treat
    /// as refused.
    case redirected(status: Int, location: String?)
}

/// Sends one encrypted, VAPID-signed message to one push endpoint (RFC 8030, 8291, 8292).
/// It checks the endpoint against the allow-list before any connection, never follows a
/// redirect, and bounds the connection (the client's connect timeout) and the whole call.
/// It holds no state: the delivery queue decides what to do with each outcome.
public struct PushSender: Sendable {
    public let services: PushServices
    public let vapid: VAPIDKey
    /// The operator's contact for VAPID's `sub` (`mailto:` or https).
    public let subject: String
    public let callTimeout: TimeAmount
    let client: HTTPClient

    /// The process's client for push services: redirects disallowed, 5 s to connect. Lives as
    /// long as the process, like `HTTPClient.shared`.
    public static let sharedClient = makeClient(connectTimeout: .seconds(5))

    /// A client that does not follow redirects (tests make their own and shut it down).
    public static func makeClient(connectTimeout: TimeAmount) -> HTTPClient {
        HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: connectTimeout)))
    }

    public init(
        services: PushServices, vapid: VAPIDKey, subject: String, client: HTTPClient = PushSender.sharedClient,
        callTimeout: TimeAmount = .seconds(15)
    ) {
        self.services = services
        self.vapid = vapid
        self.subject = subject
        self.client = client
        self.callTimeout = callTimeout
    }

    public func send(_ message: PushMessage, to endpoint: String, keys: WebPushReceiverKeys, now: Date = Date()) async -> PushOutcome {
        let body: [UInt8]
        let authorization: String
        do {
            _ = try services.check(endpoint: endpoint)
            body = try WebPushEncryption.encrypt(message.payload, for: keys)
            authorization = try vapid.authorization(endpoint: endpoint, subject: subject, now: now)
        } catch {
            return .refused(status: nil, reason: "\(error)")
        }
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "TTL", value: String(message.ttl))
        request.headers.add(name: "Urgency", value: message.urgency.rawValue)
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Authorization", value: authorization)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let deadline = NIODeadline.now() + callTimeout
            let response = try await client.execute(request, deadline: deadline)
            // Read (and so release) the answer; its start says why a push service refused.
            let answer = (try? await response.body.collect(upTo: 64 * 1024)).map { String(buffer: $0) } ?? ""
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return Self.outcome(
                status: Int(response.status.code), retryAfter: retryAfter.flatMap { $0 >= 0 ? $0 : nil },
                location: response.headers.first(name: "Location"), answer: answer)
        } catch {
            // Timeouts, refused connections, TLS failures, resets: the service may be back later.
            return .retryLater(after: nil, reason: "\(error)")
        }
    }

    static func outcome(status: Int, retryAfter: Int?, location: String?, answer: String) -> PushOutcome {
        let said = answer.isEmpty ? "" : ": " + String(answer.prefix(300)).trimmingCharacters(in: .whitespacesAndNewlines)
        switch status {
        case 200..<300: return .delivered(status: status)
        case 300..<400: return .redirected(status: status, location: location)
        case 404, 410: return .gone(status: status)
        case 429, 500..<600: return .retryLater(after: retryAfter, reason: "HTTP \(status)\(said)")
        default: return .refused(status: status, reason: "HTTP \(status)\(said)")
        }
    }
}
