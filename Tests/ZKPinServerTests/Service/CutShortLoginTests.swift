import Foundation
import Testing

@testable import ZKPinServer

/// Logins in flight when a server dies keep their attempts reserved until the hold ends (the
/// store cannot tell them from slow ones): right after a restart their identity answers 429,
/// saying how long (`Retry-After`), and signs in once the hold is over, with no attempt lost.
@Suite struct CutShortLoginTests {
    @Test func aRestartedServerSaysHowLongTheCutShortLoginsHold() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "kim@example.com", pin: 4321, outbox: h.outbox)
            // What a server killed with logins in flight leaves: every attempt reserved, 10 s ago.
            let hold = h.rp.config.attemptHold
            for _ in 0..<h.rp.config.maxAttempts {
                #expect(
                    try await h.rp.store.reserveAttempt(mpinId: user.mpinId, maxAttempts: h.rp.config.maxAttempts, now: h.clock.now - 10, hold: hold)
                        == .reserved)
            }
            let busy = try await user.login(t)
            #expect(busy.status == 429, "\(busy.text)")
            #expect(busy.header("Retry-After") == String(hold - 10), "\(busy.header("Retry-After") ?? "none")")
            #expect(busy.text.contains("cut short by a server restart") && busy.text.contains("try again in \(hold - 10) s"), "\(busy.text)")

            h.clock.advance(hold - 10)
            let after = try await user.login(t)
            #expect(after.status == 200, "\(after.text)")
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.failedAttempts == 0, "no attempt was lost to the crash")
        }
    }
}
