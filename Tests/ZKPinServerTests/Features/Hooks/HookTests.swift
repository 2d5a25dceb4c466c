import Foundation
import Hummingbird
import Logging
import Synchronization
import Testing
import ZKPinWire

@testable import ZKPinServer

/// A receiver of security events on loopback (RFC 8935: the token is the body): records each
/// token and answers the next status of its script (202 once it is used up).
final class EventReceiver: Sendable {
    let tokens = Mutex<[String]>([])
    let script = Mutex<[Int]>([])
    let port: Int
    private let running: Task<Void, any Error>

    static func start() async throws -> EventReceiver {
        let router = Router()
        let (ports, bound) = AsyncStream<Int>.makeStream()
        let receiver = Mutex<EventReceiver?>(nil)
        router.post("/events") { request, _ in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
            guard let r = receiver.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            let status = r.script.withLock { $0.isEmpty ? 202 : $0.removeFirst() }
            if status == 202 || status == 200 { r.tokens.withLock { $0.append(body) } }
            return Response(status: .init(code: status))
        }
        var quiet = Logger(label: "event-receiver")
        quiet.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in bound.yield(channel.localAddress?.port ?? 0) }, logger: quiet)
        let running = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        let made = EventReceiver(port: try #require(await iterator.next()), running: running)
        receiver.withLock { $0 = made }
        return made
    }

    private init(port: Int, running: Task<Void, any Error>) {
        self.port = port
        self.running = running
    }

    var url: String { "http://127.0.0.1:\(port)/events" }
    func stop() { running.cancel() }

    /// The event names of the tokens taken, in order.
    var events: [String] {
        tokens.withLock { $0 }.compactMap { token in
            (LogoutTokenChecker.claims(token)["events"] as? [String: Any])?.keys.first?.replacingOccurrences(of: "urn:zkpin:secevent:", with: "")
        }
    }
}

/// Security events reach the operator's receivers as signed tokens, in order, at least once,
/// whatever happens to the receiver or the server in between.
@Suite struct HookTests {
    static func runRounds(_ h: Harness, _ n: Int = 3) async throws {
        for _ in 0..<n { try await h.assembly.background.deliverHookEvents() }
    }

    @Test func blocksUnblocksRevocationsAndApprovalsArriveSignedAndInOrder() async throws {
        let receiver = try await EventReceiver.start()
        defer { receiver.stop() }
        let h = try await Harness.make()
        let hook = try await HookRegistry.add(to: h.rp.store, url: receiver.url, events: nil, now: h.clock.now)
        let (bank, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: "Bank", redirectURIs: [], postLogoutURIs: [], isPublic: false, ciba: .poll, now: h.clock.now)
        try await h.run { t in
            let alice = try await ApprovalTests.Signer.register(t, h, email: "alice@example.com", pin: 1234)
            let asked = try await BackchannelRequestTests.ask(t, (bank.id, try #require(secret)), BackchannelRequestTests.payment)
            #expect(asked.status == 200, "\(asked.text)")
            let request = try await alice.list(t, time: h.clock.now).json(ApprovalsResponse.self).requests[0]
            #expect(try await alice.answer(t, request, approve: true, time: h.clock.now).status == 200)
            for pin in [1111, 2222, 3333] { _ = try await alice.user.login(t, pin: pin) }
            #expect(try await h.rp.store.identity(mpinId: alice.user.mpinId)?.state == .blocked)
        }
        // The operator's commands, on the database as they run.
        #expect(try await AdminCommandTests.admin(["unblock", "alice@example.com", "--data", h.dir]).status == 0)
        #expect(try await AdminCommandTests.admin(["revoke", "alice@example.com", "--data", h.dir]).status == 0)
        try await Self.runRounds(h)

        let events = receiver.events
        let wanted = ["identity-registered", "identity-activated", "approval-approved", "identity-blocked", "identity-unblocked", "identity-revoked"]
        #expect(events.filter(wanted.contains) == wanted, "\(events)")
        #expect(events.contains("client-added"))
        // Each token verifies on the provider's JWKS, for this hook, about alice, numbered in order.
        let jwks = try await h.run { t in try await t.get("/oauth/jwks").body }
        let checker = try LogoutTokenChecker(issuer: h.rp.config.publicURL, audience: hook.url, jwks: jwks)
        var last = 0
        for token in receiver.tokens.withLock({ $0 }) {
            let claims = try checker.verified(token)
            #expect(claims.header["typ"] as? String == "secevent+jwt")
            let txn = try #require(Int(claims.payload["txn"] as? String ?? ""))
            #expect(txn > last, "out of order: \(txn) after \(last)")
            last = txn
            #expect(claims.payload["jti"] is String && claims.payload["iat"] is Int && claims.payload["toe"] is Int)
            if let subject = claims.payload["sub_id"] as? [String: Any] {
                #expect(subject["format"] as? String == "email" && subject["email"] as? String == "alice@example.com")
            }
        }
    }

    /// A receiver that fails gets nothing skipped: after its backoff, every event in order. A
    /// "restarted" server (another assembly on the same database) goes on where the last one was.
    @Test func aReceiverThatFailsGetsEverythingAfterwardsAndARestartLosesNothing() async throws {
        let receiver = try await EventReceiver.start()
        defer { receiver.stop() }
        let h = try await Harness.make()
        _ = try await HookRegistry.add(to: h.rp.store, url: receiver.url, events: ["identity-registered", "sign-in"], now: h.clock.now)
        receiver.script.withLock { $0 = [503, 500] }
        try await h.run { t in
            let kim = try await TestUser.register(t, email: "kim@example.com", pin: 2468, outbox: h.outbox)
            #expect(try await kim.login(t).status == 200)
            #expect(try await kim.login(t).status == 200)
        }
        try await Self.runRounds(h)
        #expect(receiver.events.isEmpty, "the first try failed")
        h.clock.advance(HookDeliverer.backoff(attempts: 1))
        try await Self.runRounds(h)
        #expect(receiver.events.isEmpty, "the second try failed too")
        // The server dies here; another one on the same database sends everything, in order.
        h.clock.advance(HookDeliverer.backoff(attempts: 2))
        let restarted = try ZKPinServerApp.assemble(rp: h.rp, dta2: nil, options: ServeOptions(), logger: .init(label: "test"))
        try await restarted.background.deliverHookEvents()
        #expect(receiver.events == ["identity-registered", "sign-in", "sign-in"], "\(receiver.events)")
        // Nothing twice.
        try await restarted.background.deliverHookEvents()
        try await Self.runRounds(h)
        #expect(receiver.events.count == 3)
    }

    @Test func aRefusedEventIsSkippedAndOldOnesDropped() async throws {
        let receiver = try await EventReceiver.start()
        defer { receiver.stop() }
        let h = try await Harness.make { $0.hookMaxAge = 60 }
        _ = try await HookRegistry.add(to: h.rp.store, url: receiver.url, events: ["sign-in"], now: h.clock.now)
        receiver.script.withLock { $0 = [400] }
        try await h.run { t in
            let kim = try await TestUser.register(t, email: "kim@example.com", pin: 2468, outbox: h.outbox)
            #expect(try await kim.login(t).status == 200)
            #expect(try await kim.login(t).status == 200)
            try await Self.runRounds(h)
            #expect(receiver.events == ["sign-in"], "the refused first one is skipped, the second taken")
            #expect(try await kim.login(t).status == 200)
            h.clock.advance(61)
            try await Self.runRounds(h)
            #expect(receiver.events.count == 1, "an event older than hook-max-age is dropped")
            #expect(try await t.get("/metrics").text.contains("zkpin_hook_events_dropped_total 1"))
        }
    }

    @Test func registrationRefusesWhatItCannotSend() async throws {
        let h = try await Harness.make()
        func add(_ url: String, _ events: [String]? = nil) async -> String? {
            do { _ = try await HookRegistry.add(to: h.rp.store, url: url, events: events, now: h.clock.now) } catch { return "\(error)" }
            return nil
        }
        #expect(await add("http://siem.example.com/events")?.contains("https") == true)
        #expect(await add("https://siem.example.com/events", ["identity-blocked,nonsense"])?.contains("nonsense is not an event") == true)
        #expect(await add("https://siem.example.com/events", ["identity-blocked", "sign-in"]) == nil)
        #expect(try await h.rp.store.hooks().map(\.events) == [["identity-blocked", "sign-in"]])
    }
}
