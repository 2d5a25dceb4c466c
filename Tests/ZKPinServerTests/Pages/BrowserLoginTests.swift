import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// The whole flow in process: register, activate from the mail's link, both shares, a login
/// by access code, the page's status, the session cookie and /account.
@Suite struct BrowserLoginTests {
    @Test func registerActivateAndSignInThroughThePage() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            try await BrowserLogin.signIn(t, user: user, expectAccountOf: "alice@example.com")
        }
    }

    @Test func timePermitsOn() async throws {
        let h = try await Harness.make(permits: true)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "tp@example.com", pin: 42, outbox: h.outbox, usePermits: true)
            #expect(try await user.login(t).status == 200)
            // Without UT the server refuses: the client cannot skip the permit.
            let state = try user.suite.clientPass1(id: user.id, token: user.token, pin: 42, timePermit: nil, date: 0)
            let r = try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: user.mpinId, u: Hex.encode(state.u)))
            #expect(r.status == 400)
        }
    }

    @Test func blsCurve() async throws {
        let h = try await Harness.make(curve: .bls12_381)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "bls@example.com", pin: 9999, outbox: h.outbox, curve: .bls12_381)
            #expect(try await user.login(t).status == 200)
            #expect(try await user.login(t, pin: 1).status == 401)
        }
    }
}

enum BrowserLogin {
    /// The page gets a code, a client logs in with it, the page's poll turns to
    /// `authenticate` and its /session post opens /account.
    static func signIn(_ t: any Transport, user: TestUser, expectAccountOf email: String, origin: String = "http://127.0.0.1:8080") async throws {
        let drawn = try await t.send("POST", "/rps/getAccessNumber", headers: [], body: nil)
        let access = try drawn.json(AccessNumberResponse.self)
        let browser = try #require(drawn.pageCookie)
        #expect(AccessCode.isValid(access.accessNumber))
        #expect(access.qrUrl.hasSuffix("#\(access.accessNumber)"))
        func status() async throws -> AccessResponse {
            try await t.json("POST", "/rps/access", AccessRequest(webOTT: access.webOTT)).json(AccessResponse.self)
        }
        #expect(try await status().status == .new)
        #expect(try await t.json("POST", "/rps/codeStatus", CodeStatusRequest(wid: access.accessNumber)).status == 200)
        #expect(try await status().status == .wid)
        let r2 = try await user.pass12(t, wid: access.accessNumber)
        #expect(r2.status == 200, "\(r2.text)")
        let authOTT = try r2.json(Pass2Response.self).authOTT
        let afterPass2 = try await status()
        #expect(afterPass2.status == .user && afterPass2.userId == email)
        // The client's authenticate waits for the page to take the login up.
        async let answer = t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: authOTT))
        var seen: AccessResponse? = nil
        for _ in 0..<100 {
            let s = try await status()
            if s.status == .authenticate { seen = s; break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let page = try #require(seen)
        #expect(page.userId == email)
        let auth = try await answer
        #expect(auth.status == 200)
        #expect(try auth.json(AuthenticateResponse.self).userId == email)

        // Cross-origin posts are refused; the same origin gets the cookie.
        let fields = ["webOTT": access.webOTT, "authOTT": page.authOTT ?? ""]
        #expect(try await t.form("/session", fields, headers: [("Origin", "http://evil.example"), browser]).status == 403)
        let session = try await t.form("/session", fields, headers: [("Origin", origin), browser])
        #expect(session.status == 303)
        #expect(session.header("Location") == "/account")
        let setCookie = try #require(session.header("Set-Cookie"))
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"))
        let cookie = String(setCookie.split(separator: ";")[0])
        // Both tokens are consumed.
        #expect(try await t.form("/session", fields, headers: [("Origin", origin), browser]).status == 403)
        let account = try await t.get("/account", headers: [("Cookie", cookie)])
        #expect(account.status == 200)
        #expect(account.text.contains("Signed in as \(email)"))
        #expect(account.text.contains("laptop"))
        let out = try await t.send("POST", "/logout", headers: [("Cookie", cookie), ("Origin", origin)], body: nil)
        #expect(out.status == 303)
        #expect(try await t.get("/account", headers: [("Cookie", cookie)]).status == 303)
    }
}
