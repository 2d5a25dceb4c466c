import Foundation
import NIOCore
import Testing
import ZKPinTestSupport

@testable import ZKPinServer

/// PushSender against a real Web Push service on loopback (tools/lib/push_service.py): it
/// checks the VAPID header, decrypts with its own code and records, or answers as told.
@Suite(.enabled(if: PythonWebPush.available, "needs python3 with cryptography and PyJWT"))
struct PushSenderTests {
    static let subject = "mailto:operator@example.com"

    /// A push service, the sender allowed to call it, and a fresh VAPID key.
    static func withPeer(
        callTimeout: TimeAmount = .seconds(15), _ body: (PushServicePeer, PushSender) async throws -> Void
    ) async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let sender = PushSender(
            services: try PushServices(parsing: peer.origin), vapid: try VAPIDKey(rawScalar: WebPushEncryptionTests.randomScalar()),
            subject: subject, callTimeout: callTimeout)
        try await body(peer, sender)
    }

    static let message = PushMessage(payload: Array(#"{"kind":"ciba","site":"Bank"}"#.utf8), ttl: 60, urgency: .high)

    @Test func deliveredDecryptedWithTheHeadersRFC8030Asks() async throws {
        try await Self.withPeer { peer, sender in
            let sub = try await peer.subscribe(applicationServerKey: sender.vapid.applicationServerKey)
            let outcome = await sender.send(Self.message, to: sub.endpoint, keys: sub.keys)
            #expect(outcome == .delivered(status: 201))
            let recorded = try await peer.messages(sub.id)
            try #require(recorded.count == 1)
            #expect(recorded[0].payload == #"{"kind":"ciba","site":"Bank"}"#)
            let headers = Dictionary(uniqueKeysWithValues: recorded[0].headers.map { ($0.key.lowercased(), $0.value) })
            #expect(headers["ttl"] == "60" && headers["urgency"] == "high")
            #expect(headers["content-encoding"] == "aes128gcm" && headers["content-type"] == "application/octet-stream")
            #expect(headers["authorization"]?.hasPrefix("vapid t=") == true)
        }
    }

    @Test func goneRetryAndRefusedAnswers() async throws {
        try await Self.withPeer { peer, sender in
            let sub = try await peer.subscribe()
            try await peer.control(sub.id, ["answer": 410])
            #expect(await sender.send(Self.message, to: sub.endpoint, keys: sub.keys) == .gone(status: 410))
            try await peer.control(sub.id, ["answer": 404])
            #expect(await sender.send(Self.message, to: sub.endpoint, keys: sub.keys) == .gone(status: 404))

            try await peer.control(sub.id, ["answer": 429, "retry_after": 7])
            guard case .retryLater(after: 7, _) = await sender.send(Self.message, to: sub.endpoint, keys: sub.keys) else {
                Issue.record("429 with Retry-After: 7 is not retry later after 7 s")
                return
            }
            try await peer.control(sub.id, ["answer": 500])
            guard case .retryLater(after: nil, let reason) = await sender.send(Self.message, to: sub.endpoint, keys: sub.keys) else {
                Issue.record("500 is not retry later")
                return
            }
            #expect(reason.hasPrefix("HTTP 500"))
            try await peer.control(sub.id, ["answer": 413])
            guard case .refused(status: 413, _) = await sender.send(Self.message, to: sub.endpoint, keys: sub.keys) else {
                Issue.record("413 is not refused")
                return
            }
            try await peer.control(sub.id, ["answer": NSNull()])
            #expect(await sender.send(Self.message, to: sub.endpoint, keys: sub.keys) == .delivered(status: 201))
            #expect(try await peer.messages(sub.id).count == 1)

            // An unknown subscription (the service forgot it): 404, gone.
            let forgotten = sub.endpoint.replacingOccurrences(of: sub.id, with: "unknown")
            #expect(await sender.send(Self.message, to: forgotten, keys: sub.keys) == .gone(status: 404))
        }
    }

    @Test func aPushServiceRefusingTheVAPIDKeyIsRefusedNotRetried() async throws {
        try await Self.withPeer { peer, sender in
            // Subscribed for another application server's key: the service answers 403.
            let other = try VAPIDKey(rawScalar: WebPushEncryptionTests.randomScalar())
            let sub = try await peer.subscribe(applicationServerKey: other.applicationServerKey)
            let outcome = await sender.send(Self.message, to: sub.endpoint, keys: sub.keys)
            guard case .refused(status: 403, let reason) = outcome else {
                Issue.record("\(outcome)")
                return
            }
            #expect(reason.contains("k is not the key"), "\(reason)")
            #expect(try await peer.messages(sub.id).isEmpty)
        }
    }

    @Test func aRedirectIsNeverFollowed() async throws {
        try await Self.withPeer { peer, sender in
            let sub = try await peer.subscribe()
            let target = try await peer.subscribe()
            try await peer.control(sub.id, ["answer": 302, "location": target.endpoint])
            let before = try await peer.pushRequests()
            #expect(await sender.send(Self.message, to: sub.endpoint, keys: target.keys) == .redirected(status: 302, location: target.endpoint))
            #expect(try await peer.pushRequests() == before + 1)
            #expect(try await peer.messages(target.id).isEmpty)
        }
    }

    @Test func anEndpointOutsideTheAllowListIsRefusedWithoutAConnection() async throws {
        try await Self.withPeer { peer, sender in
            let sub = try await peer.subscribe()
            let elsewhere = PushSender(
                services: try PushServices(parsing: "http://127.0.0.1:\(peer.port == 1 ? 2 : peer.port - 1)"), vapid: sender.vapid,
                subject: Self.subject)
            let outcome = await elsewhere.send(Self.message, to: sub.endpoint, keys: sub.keys)
            #expect(outcome == .refused(status: nil, reason: "push endpoint origin \(peer.origin) is not one of the allowed push services"))
            let https = await PushSender(services: .default, vapid: sender.vapid, subject: Self.subject)
                .send(Self.message, to: "https://push.internal.example/x", keys: sub.keys)
            guard case .refused(status: nil, _) = https else {
                Issue.record("\(https)")
                return
            }
            #expect(try await peer.pushRequests() == 0)
        }
    }

    @Test func aPushServiceThatNeverAnswersOrIsDownMeansRetryLater() async throws {
        try await Self.withPeer(callTimeout: .seconds(1)) { peer, sender in
            let sub = try await peer.subscribe()
            try await peer.control(sub.id, ["hang": true])
            let outcome = await sender.send(Self.message, to: sub.endpoint, keys: sub.keys)
            guard case .retryLater(after: nil, _) = outcome else {
                Issue.record("a hung push service gave \(outcome)")
                return
            }
            try await peer.control(sub.id, ["answer": NSNull()])
            #expect(try await peer.pushRequests() == 1)
        }
        // Nobody listening on an allowed origin: the connection is refused (the HTTP client
        // tries again until the connect timeout or the call's deadline, whichever is first).
        let port = try #require(LoopbackPort.free())
        let sender = PushSender(
            services: try PushServices(parsing: "http://127.0.0.1:\(port)"), vapid: try VAPIDKey(rawScalar: WebPushEncryptionTests.randomScalar()),
            subject: Self.subject, callTimeout: .seconds(1))
        let keys = try WebPushReceiverKeys(p256dh: WebPushEncryptionTests.Appendix.uaPublic, auth: WebPushEncryptionTests.Appendix.auth)
        let outcome = await sender.send(Self.message, to: "http://127.0.0.1:\(port)/push/x", keys: keys)
        guard case .retryLater(after: nil, _) = outcome else {
            Issue.record("a closed port gave \(outcome)")
            return
        }
    }

    @Test func outcomesForEachStatus() {
        #expect(PushSender.outcome(status: 200, retryAfter: nil, location: nil, answer: "") == .delivered(status: 200))
        #expect(PushSender.outcome(status: 202, retryAfter: nil, location: nil, answer: "") == .delivered(status: 202))
        #expect(
            PushSender.outcome(status: 301, retryAfter: nil, location: "https://x", answer: "") == .redirected(status: 301, location: "https://x"))
        #expect(
            PushSender.outcome(status: 400, retryAfter: nil, location: nil, answer: "bad TTL\n") == .refused(status: 400, reason: "HTTP 400: bad TTL")
        )
        #expect(PushSender.outcome(status: 401, retryAfter: 5, location: nil, answer: "") == .refused(status: 401, reason: "HTTP 401"))
        #expect(PushSender.outcome(status: 503, retryAfter: 30, location: nil, answer: "") == .retryLater(after: 30, reason: "HTTP 503"))
    }
}
