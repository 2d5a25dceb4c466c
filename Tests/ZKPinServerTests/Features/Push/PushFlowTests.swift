import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Web Push end to end in process, against tools/lib/push_service.py on loopback (its origin
/// is the server's `--push-services`): a subscribed device gets a site's request as a message
/// the service decrypts with its own keys and whose VAPID token it checks; gone subscriptions
/// go; a service that is down delays, never loses; only allowed endpoints are stored.
@Suite(.enabled(if: PythonWebPush.available, "python3 with cryptography and PyJWT is needed (tools/test installs them)"))
struct PushFlowTests {
    static func harness(_ peer: PushServicePeer) async throws -> Harness {
        try await Harness.make { $0.pushServices = peer.origin }
    }

    static func subscribe(_ t: any Transport, _ user: TestUser, _ s: PushServicePeer.Subscription) async throws -> Reply {
        try await t.json(
            "POST", "/rps/push/subscriptions",
            PushSubscribeRequest(
                mpinId: user.mpinId, holder: try #require(user.registrationHolder), endpoint: s.endpoint,
                keys: PushKeys(p256dh: Base64URL.encode(s.keys.p256dh), auth: Base64URL.encode(s.keys.auth))))
    }

    static func list(_ t: any Transport, _ user: TestUser) async throws -> [PushSubscriptionView] {
        let r = try await t.json("POST", "/rps/push/subscriptions/list", PushListRequest(mpinId: user.mpinId, holder: user.registrationHolder ?? ""))
        #expect(r.status == 200, "\(r.text)")
        return try r.json(PushListResponse.self).subscriptions
    }

    @Test func aSitesRequestReachesTheSubscribedDeviceEncryptedAndSigned() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await Self.harness(peer)
        let site = try await BackchannelRequestTests.addSite(h)
        try await h.run { t in
            let settings = try await t.get("/rps/push/settings").json(PushSettings.self)
            #expect(settings.services == [peer.origin])
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let device = try await peer.subscribe(applicationServerKey: settings.vapidPublicKey)
            let stored = try await Self.subscribe(t, alice, device)
            #expect(stored.status == 200, "\(stored.text)")
            #expect(try await Self.list(t, alice).map(\.endpoint) == [device.endpoint])

            let asked = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment).json(BackchannelResponse.self)
            // Nobody registered by that hint: nothing is queued for anyone.
            var stranger = BackchannelRequestTests.payment
            stranger["login_hint"] = "nobody@example.com"
            _ = try await BackchannelRequestTests.ask(t, site, stranger)
            #expect(try await h.rp.store.queuedPushDeliveries() == 1)
            #expect(try await h.assembly.background.deliverPushMessages() == 1)

            let messages = try await peer.messages(device.id)
            #expect(messages.count == 1)
            let payload = try JSONDecoder().decode(PushPayload.self, from: Data(try #require(messages.first?.payload).utf8))
            #expect(
                payload
                    == PushPayload(kind: "approval", id: asked.auth_req_id, site: "Bank", message: "Pay 100 EUR to Bob", expires: h.clock.now + 300))
            let headers = Dictionary(try #require(messages.first?.headers).map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
            #expect(headers["urgency"] == "high" && Int(headers["ttl"] ?? "") == 300, "\(headers)")
            #expect(try await h.rp.store.queuedPushDeliveries() == 0)
            #expect(try await Self.list(t, alice).first?.lastDelivery == h.clock.now)
            let metrics = try await t.get("/metrics").text
            #expect(metrics.contains("zkpin_push_sent_total 1") && metrics.contains("zkpin_push_queued_total 1"), "\(metrics)")
        }
    }

    @Test func aPingModeSitesRequestIsPushedToo() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await Self.harness(peer)
        let site = try await BackchannelRequestTests.addSite(h, mode: .ping)
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let device = try await peer.subscribe()
            #expect(try await Self.subscribe(t, alice, device).status == 200)
            var fields = BackchannelRequestTests.payment
            fields["client_notification_token"] = "ntok-1"
            let asked = try await BackchannelRequestTests.ask(t, site, fields)
            #expect(asked.status == 200, "\(asked.text)")
            #expect(try await h.assembly.background.deliverPushMessages() == 1)
            let payload = try #require(try await peer.messages(device.id).first?.payload)
            let message = try JSONDecoder().decode(PushPayload.self, from: Data(payload.utf8))
            let id = try asked.json(BackchannelResponse.self).auth_req_id
            #expect(message.kind == "approval" && message.id == id)
        }
    }

    @Test func onlyAllowedEndpointsAndValidKeysAreStored() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await Harness.make()  // the default services: browsers' push services only
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let device = try await peer.subscribe()
            let loopback = try await Self.subscribe(t, alice, device)
            #expect(loopback.status == 400 && loopback.text.contains("fcm.googleapis.com"), "\(loopback.text)")
            var elsewhere = device
            elsewhere.endpoint = "https://push.attacker.example/x"
            #expect(try await Self.subscribe(t, alice, elsewhere).status == 400)
            var lookalike = device
            lookalike.endpoint = "https://fcm.googleapis.com.attacker.example/x"
            #expect(try await Self.subscribe(t, alice, lookalike).status == 400)
            var allowed = device
            allowed.endpoint = "https://fcm.googleapis.com/fcm/send/abc"
            #expect(try await Self.subscribe(t, alice, allowed).status == 200)
            // Keys that are not a P-256 point and a 16-byte secret.
            let badKeys = PushSubscribeRequest(
                mpinId: alice.mpinId, holder: alice.registrationHolder ?? "", endpoint: allowed.endpoint,
                keys: PushKeys(p256dh: Base64URL.encode([4] + [UInt8](repeating: 1, count: 64)), auth: "AAAA"))
            let refused = try await t.json("POST", "/rps/push/subscriptions", badKeys)
            #expect(refused.status == 400 && refused.text.contains("keys"), "\(refused.text)")
            #expect(try await Self.list(t, alice).map(\.endpoint) == [allowed.endpoint])
            // Someone else's holder proof: 403, and the address is limited.
            let wrong = PushListRequest(mpinId: alice.mpinId, holder: String(repeating: "0", count: 64))
            for _ in 0..<PushSubscriptions.wrongProofsPerAddress.limit {
                #expect(try await t.json("POST", "/rps/push/subscriptions/list", wrong).status == 403)
            }
            #expect(try await t.json("POST", "/rps/push/subscriptions/list", wrong).status == 429)
            #expect(try await peer.pushRequests() == 0)
        }
    }

    @Test func aGoneSubscriptionIsRemoved() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await Self.harness(peer)
        let site = try await BackchannelRequestTests.addSite(h)
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let device = try await peer.subscribe()
            #expect(try await Self.subscribe(t, alice, device).status == 200)
            try await peer.control(device.id, ["answer": 410])
            _ = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment)
            #expect(try await h.assembly.background.deliverPushMessages() == 1)
            #expect(try await Self.list(t, alice).isEmpty)
            #expect(try await h.rp.store.queuedPushDeliveries() == 0)
            #expect(try await t.get("/metrics").text.contains("zkpin_push_gone_total 1"))
        }
    }

    @Test func aPushServiceThatIsDownDelaysButNeverLoses() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await Self.harness(peer)
        let site = try await BackchannelRequestTests.addSite(h)
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let device = try await peer.subscribe()
            #expect(try await Self.subscribe(t, alice, device).status == 200)
            try await peer.control(device.id, ["answer": 500])
            _ = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment)
            #expect(try await h.assembly.background.deliverPushMessages() == 1)
            #expect(try await h.rp.store.queuedPushDeliveries() == 1)
            // Not due again before the backoff (5 s after the first failure).
            #expect(try await h.assembly.background.deliverPushMessages() == 0)
            h.clock.advance(5)
            try await peer.control(device.id, ["answer": 429, "retry_after": 30])
            #expect(try await h.assembly.background.deliverPushMessages() == 1)
            h.clock.advance(29)
            #expect(try await h.assembly.background.deliverPushMessages() == 0, "Retry-After is honoured")
            h.clock.advance(1)
            try await peer.control(device.id, ["answer": NSNull()])
            #expect(try await h.assembly.background.deliverPushMessages() == 1)
            #expect(try await peer.messages(device.id).count == 1)
            #expect(try await h.rp.store.queuedPushDeliveries() == 0)
        }
    }

    /// A server killed between queueing and sending, or while sending: the queue is in the
    /// store, so a server started on the same data folder sends it (a claimed one after its
    /// lease).
    @Test func aRestartLosesNoMessage() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await Self.harness(peer)
        let site = try await BackchannelRequestTests.addSite(h)
        let device = try await peer.subscribe()
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            #expect(try await Self.subscribe(t, alice, device).status == 200)
            _ = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment)
            var second = BackchannelRequestTests.payment
            second["binding_message"] = "Pay 5 EUR to Carol"
            _ = try await BackchannelRequestTests.ask(t, site, second)
        }
        // The first instance claimed one and died before sending it.
        let claimed = try await h.rp.store.claimPushDeliveries(now: h.clock.now, lease: 60, limit: 1)
        #expect(claimed.count == 1)
        var o = ServeOptions()
        o.dataDirectory = h.dir
        o.curve = .bn254cx
        o.publicURL = "http://127.0.0.1:8080"
        o.pushServices = peer.origin
        let (rp, dta2) = try await ZKPinServerApp.makeRelyingParty(o, clock: h.clock.clock)
        let restarted = try ZKPinServerApp.assemble(rp: rp, dta2: dta2, options: o, logger: .init(label: "test"))
        #expect(try await restarted.background.deliverPushMessages() == 1)
        h.clock.advance(60)
        #expect(try await restarted.background.deliverPushMessages() == 1)
        let messages = try await peer.messages(device.id).compactMap(\.payload).map {
            try JSONDecoder().decode(PushPayload.self, from: Data($0.utf8)).message
        }
        #expect(Set(messages) == ["Pay 100 EUR to Bob", "Pay 5 EUR to Carol"])
    }

    @Test func revokedAndBlockedIdentitiesGetNothingAndLoseTheirSubscriptions() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await Self.harness(peer)
        let site = try await BackchannelRequestTests.addSite(h)
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let device = try await peer.subscribe()
            #expect(try await Self.subscribe(t, alice, device).status == 200)
            _ = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment)
            #expect(try await h.rp.store.revoke(userId: "alice@example.com") == 1)
            // Queued before the revocation: never sent.
            #expect(try await h.assembly.background.deliverPushMessages() == 0)
            try await h.rp.store.purgeExpiredPush(now: h.clock.now)
            #expect(try await h.rp.store.pushSubscriptions(mpinId: alice.mpinId).isEmpty)
            #expect(try await h.rp.store.queuedPushDeliveries() == 0)
            #expect(try await peer.pushRequests() == 0)
        }
    }

    /// A new identity for the person's e-mail is told to their other devices, not to itself.
    @Test func aNewIdentityIsToldToThePersonsOtherDevices() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await Self.harness(peer)
        try await h.run { t in
            let laptop = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox, device: "laptop")
            let device = try await peer.subscribe()
            #expect(try await Self.subscribe(t, laptop, device).status == 200)
            _ = try await TestUser.register(t, email: "alice@example.com", pin: 4321, outbox: h.outbox, device: "phone")
            #expect(try await h.assembly.background.deliverPushMessages() == 1)
            let payload = try JSONDecoder().decode(PushPayload.self, from: Data(try #require(try await peer.messages(device.id).first?.payload).utf8))
            #expect(payload.kind == "identity" && payload.device == "phone")
        }
    }
}
