import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// `POST /rps/pass2` with `complete: true` answers as `/rps/authenticate` would, with the same
/// counts and audit rows, and leaves no authOTT behind; without it, the M-Pin answer stands.
@Suite struct CompletingPass2Tests {
    @Test func aGoodPINSignsInWithTwoRequests() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "cora@example.com", pin: 4826, outbox: h.outbox)
            let reply = try await user.pass12(t, complete: true)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json(AuthenticateResponse.self).userId == "cora@example.com")
            #expect(!reply.text.contains("authOTT"))
            let kinds = try await h.rp.store.auditLog(limit: 20).map(\.kind)
            #expect(kinds.filter { $0 == "login" }.count == 1)
            // Nothing waits for /rps/authenticate.
            #expect(try await h.rp.store.expiringRowCounts()["auth_tokens"] == 0)
            // Without the flag: the M-Pin answer.
            let classic = try await user.pass12(t)
            #expect(classic.status == 200)
            #expect(try classic.json(Pass2Response.self).authOTT.count == 64)
        }
    }

    @Test func wrongPINsCountAndBlockAsAtAuthenticate() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "dan@example.com", pin: 4826, outbox: h.outbox)
            let first = try await user.pass12(t, pin: 1111, complete: true)
            #expect(first.status == 401 && first.error?.error == "wrong_pin" && first.error?.attemptsLeft == 2, "\(first.text)")
            let second = try await user.pass12(t, pin: 1112, complete: true)
            #expect(second.status == 401 && second.error?.attemptsLeft == 1)
            let third = try await user.pass12(t, pin: 1113, complete: true)
            #expect(third.status == 410 && third.error?.error == "blocked", "\(third.text)")
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.state == .blocked)
            // Blocked: the right PIN is refused before any pairing, as without the flag.
            #expect(try await user.pass12(t, complete: true).status == 410)
        }
    }

    @Test func aStrangersRandomValuesAreInvalidTokens() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "eve@example.com", pin: 4826, outbox: h.outbox)
            let fake = try user.suite.extractPIN(
                clientSecret: try user.suite.clientSecretShare(master: user.suite.randomScalar(), id: user.id), id: user.id, pin: 1234)
            let stranger = TestUser(email: user.email, mpinId: user.mpinId, token: fake, pin: 1234, suite: user.suite, usePermits: false)
            let reply = try await stranger.pass12(t, complete: true)
            #expect(reply.status == 401 && reply.error?.error == "invalid_token", "\(reply.text)")
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.failedAttempts == 0)
        }
    }
}
