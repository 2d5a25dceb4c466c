import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// The page of an access code says what happened to the login made with it: wrong PIN (the
/// code still works), blocked after the last wrong PIN, refused for a token that is not
/// genuine or an identity that is revoked.
@Suite struct PageStatusTests {
    /// A fresh code and its webOTT, as the page gets them.
    func page(_ t: any Transport) async throws -> AccessNumberResponse {
        try await t.json("POST", "/rps/getAccessNumber", [String: String]()).json(AccessNumberResponse.self)
    }

    func status(_ t: any Transport, _ page: AccessNumberResponse) async throws -> AccessStatus {
        try await t.json("POST", "/rps/access", AccessRequest(webOTT: page.webOTT)).json(AccessResponse.self).status
    }

    /// pass 1, pass 2 with the code, then authenticate; the authenticate reply.
    func login(_ t: any Transport, _ user: TestUser, pin: Int, code: String) async throws -> Reply {
        let r2 = try await user.pass12(t, pin: pin, wid: code)
        guard r2.status == 200 else { return r2 }
        return try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try r2.json(Pass2Response.self).authOTT))
    }

    @Test func wrongPINsThenBlocked() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "wes@example.com", pin: 1111, outbox: h.outbox)
            let shown = try await page(t)
            for attemptsLeft in [2, 1] {
                let reply = try await login(t, user, pin: 2222, code: shown.accessNumber)
                #expect(reply.status == 401 && reply.error?.attemptsLeft == attemptsLeft)
                // The page shows the same number as the client.
                let answer = try await t.json("POST", "/rps/access", AccessRequest(webOTT: shown.webOTT)).json(AccessResponse.self)
                #expect(answer.status == .wrongPIN && answer.attemptsLeft == attemptsLeft)
            }
            let last = try await login(t, user, pin: 2222, code: shown.accessNumber)
            #expect(last.status == 410)
            #expect(try await status(t, shown) == .blocked)
            // A blocked identity's next try with a new code ends at pass 1 (410). Pass 1 names
            // the page's code (WID, as zkpin sends it), so that page says blocked too.
            let next = try await page(t)
            #expect(try await login(t, user, pin: 1111, code: next.accessNumber).status == 410)
            #expect(try await status(t, next) == .blocked)
            // A client that leaves WID out of pass 1 (other M-Pin clients) leaves its page waiting,
            // and a WID that is no live code changes nothing and still gets the refusal.
            let other = try await page(t)
            #expect(try await user.pass12(t, pin: 1111, wid: other.accessNumber, widAtPass1: false).status == 410)
            #expect(try await status(t, other) == .new)
            #expect(try await user.pass12(t, pin: 1111, wid: "1234567").status == 410)
        }
    }

    @Test func aTokenThatIsNotGenuineOrARevokedIdentityIsRefused() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "xia@example.com", pin: 1111, outbox: h.outbox)
            // Random U and V bound to a code: invalid_token, the page says refused.
            let shown = try await page(t)
            let fake = try user.suite.extractPIN(
                clientSecret: try user.suite.clientSecretShare(master: user.suite.randomScalar(), id: user.id),
                id: user.id, pin: 1234)
            let impostor = TestUser(email: user.email, mpinId: user.mpinId, token: fake, pin: 1234, suite: user.suite, usePermits: false)
            #expect(try await login(t, impostor, pin: 1234, code: shown.accessNumber).error?.error == "invalid_token")
            #expect(try await status(t, shown) == .refused)
            // The genuine holder after a revocation between pass 2 and authenticate: refused too.
            let second = try await page(t)
            let r2 = try await user.pass12(t, wid: second.accessNumber)
            #expect(r2.status == 200)
            #expect(try await h.rp.store.revoke(userId: user.email) == 1)
            let auth = try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try r2.json(Pass2Response.self).authOTT))
            #expect(auth.status == 403)
            #expect(try await status(t, second) == .refused)
            // Revoked before the login: pass 1 refuses it (403) and, with WID, the page says so.
            let third = try await page(t)
            #expect(try await user.pass12(t, wid: third.accessNumber).status == 403)
            #expect(try await status(t, third) == .refused)
        }
    }
}
