import Foundation
import Hummingbird
import Synchronization
import Testing
import ZKPinWire

@testable import ZKPinServer

/// A CIBA ping client's notification endpoint answers with a redirect to another address (an
/// internal one, in the attack): the server's request is not followed there, and the failed
/// ping is audited with the redirect's status.
@Suite struct PingRedirectTests {
    @Test func aPingIsNeverFollowedToARedirect() async throws {
        let followed = Mutex(0)
        let router = Router()
        let (ports, bound) = AsyncStream<Int>.makeStream()
        let port = Mutex(0)
        router.post("/ciba") { _, _ in
            Response(status: .found, headers: [.location: "http://127.0.0.1:\(port.withLock { $0 })/internal"])
        }
        router.post("/internal") { _, _ in
            followed.withLock { $0 += 1 }
            return Response(status: .ok)
        }
        let site = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in bound.yield(channel.localAddress?.port ?? 0) })
        let running = Task { try await site.runService() }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        let sitePort = try #require(await iterator.next())
        port.withLock { $0 = sitePort }

        let h = try await Harness.make()
        let (client, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: "Bank", redirectURIs: [], postLogoutURIs: [], isPublic: false, ciba: .ping,
            notificationEndpoint: "http://127.0.0.1:\(sitePort)/ciba", now: h.clock.now)
        let bank = (id: client.id, secret: try #require(secret))
        try await h.run { t in
            let alice = try await ApprovalTests.Signer.register(t, h, email: "alice@example.com", pin: 1234)
            var fields = BackchannelRequestTests.payment
            fields["client_notification_token"] = "token-for-the-bank"
            let asked = try await BackchannelRequestTests.ask(t, bank, fields)
            #expect(asked.status == 200, "\(asked.text)")
            let request = try await alice.list(t, time: h.clock.now).json(ApprovalsResponse.self).requests[0]
            #expect(try await alice.answer(t, request, approve: true, time: h.clock.now).status == 200)
        }
        // The ping is sent in the background: wait for its audit row.
        var pings: [AuditEvent] = []
        for _ in 0..<100 {
            pings = try await h.rp.store.auditLog(limit: 100).filter { $0.kind.hasPrefix("ciba_ping") }
            if !pings.isEmpty { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(pings.map(\.kind) == ["ciba_ping_failed"] && pings.first?.detail.contains("302") == true, "\(pings)")
        #expect(followed.withLock { $0 } == 0, "the redirect was followed")
    }
}
