import Foundation
import Logging
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// Expired rows do not pile up: after their expiry the purge empties every expiring table of
/// what a login, a page view, a registration and an abandoned pass 1 left, and `/metrics`
/// shows the sizes.
@Suite struct ExpiryPurgeTests {
    @Test(arguments: StoreKind.available) func thePurgeEmptiesTheExpiringTables(kind: StoreKind) async throws {
        let database = kind == .postgres ? try await TestPostgres.freshDatabase() : nil
        let h = try await Harness.make(configure: { o in o.database = database })
        try await h.run { t in
            let user = try await TestUser.register(t, email: "uma@example.com", pin: 8642, outbox: h.outbox)
            #expect(try await user.login(t).status == 200)
            _ = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "vic@example.com"))
            _ = try await t.json("POST", "/rps/getAccessNumber", [String: String]())
            let state = try user.suite.clientPass1(id: user.id, token: user.token, pin: 1, timePermit: nil, date: 0)
            _ = try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: user.mpinId, u: Hex.encode(state.u)))  // never finished
            let purger = ExpiryPurger(rp: h.rp, logger: Logger(label: "test"))
            #expect(await purger.purgeOnce())
            let before = try await h.rp.store.expiringRowCounts()
            #expect(before["challenges"] == 1 && before["access_sessions"] == 1 && before["registrations"] == 2, "\(before)")
            #expect(before["rate_limits"] ?? 0 > 0, "\(before)")
            // A day later (access sessions are kept an hour past expiry for late polls).
            h.clock.advance(86_400)
            #expect(await purger.purgeOnce())
            let after = try await h.rp.store.expiringRowCounts()
            #expect(after.values.allSatisfy { $0 == 0 }, "\(after)")
            #expect(Set(after.keys) == Set(ServerSchema.changes.expiringTables) && after.keys.contains("push_deliveries"))
            let metrics = try await t.get("/metrics").text
            #expect(metrics.contains("zkpin_expiry_purges_total 2") && metrics.contains(#"zkpin_rows{table="challenges"} 0"#), "\(metrics)")
            // The identity itself stays: it does not expire.
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.state == .active)
        }
    }
}
