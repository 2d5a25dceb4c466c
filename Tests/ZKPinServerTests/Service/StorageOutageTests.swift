import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// The storage-failure rule: while the database is down every endpoint that needs it answers
/// 503 with Retry-After and a message (an HTML page for a browser's page), never a 4xx that
/// tells the person their code expired or their identity is unknown; nothing is lost.
@Suite struct StorageOutageTests {
    @Test func everyEndpointAnswers503WhileTheStoreIsDown() async throws {
        var failing: FailingDriver?
        let h = try await Harness.make(wrapStore: { store in
            let (wrapped, driver) = FailingDriver.wrapping(store)
            failing = driver
            return wrapped
        })
        let outage = try #require(failing)
        try await h.run { t in
            // Before the outage: a registered user, a pending registration, a page's code, a
            // pass-1 challenge and a pass-2 verdict waiting for /rps/authenticate.
            let user = try await TestUser.register(t, email: "olga@example.com", pin: 2468, outbox: h.outbox)
            let pending = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "pat@example.com")).json(RegisterResponse.self)
            let link = try Outbox.activationLink(in: h.outbox, to: "pat@example.com")
            let linkPath = String(link[link.range(of: "/mpinActivate")!.lowerBound...])
            let drawn = try await t.json("POST", "/rps/getAccessNumber", [String: String]())
            let page = try drawn.json(AccessNumberResponse.self)
            let state = try user.suite.clientPass1(id: user.id, token: user.token, pin: user.pin, timePermit: nil, date: 0)
            let p1 = try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: user.mpinId, u: Hex.encode(state.u))).json(Pass1Response.self)
            let v = Hex.encode(try user.suite.clientPass2(state, y: Hex.decode(p1.y)!))
            let waiting = try await user.pass12(t).json(Pass2Response.self)
            let (client, secret) = try await OIDCFlow.addClient(h)
            let (vpn, vpnSecret) = try await ClientRegistry.add(
                to: h.rp.store, name: "VPN", redirectURIs: [], postLogoutURIs: [], isPublic: false, otp: true, now: h.clock.now)

            outage.failing = true
            let origin = [("Origin", "http://127.0.0.1:8080")]
            let html = [("Accept", "text/html")]
            let json: [(String, String, any Encodable & Sendable)] = [
                ("PUT", "/rps/user", RegisterRequest(userId: "quinn@example.com")),
                ("PUT", "/rps/user/\(pending.mpinId)", ResendRequest(regOTT: pending.regOTT)),
                ("POST", "/rps/pass1", Pass1Request(mpinId: user.mpinId, u: Hex.encode(state.u))),
                ("POST", "/rps/pass2", Pass2Request(mpinId: user.mpinId, v: v, wid: "0", challenge: p1.challenge)),
                ("POST", "/rps/pass2", Pass2Request(mpinId: user.mpinId, v: v, wid: page.accessNumber, challenge: p1.challenge)),
                ("POST", "/rps/authenticate", AuthenticateRequest(authOTT: waiting.authOTT)),
                ("POST", "/rps/getAccessNumber", [String: String]()),
                ("POST", "/rps/access", AccessRequest(webOTT: page.webOTT)),
                ("POST", "/rps/codeStatus", CodeStatusRequest(wid: page.accessNumber)),
                ("POST", "/rps/pass2", Pass2Request(mpinId: user.mpinId, v: v, wid: "0", challenge: p1.challenge, otp: true)),
                (
                    "POST", "/otp/verify",
                    OTPVerifyRequest(user: "olga@example.com", otp: "123456", clientId: vpn.id, clientSecret: vpnSecret)
                )
            ]
            for (method, path, body) in json {
                expectUnavailable(try await t.json(method, path, body), "\(method) \(path)", html: false)
            }
            expectUnavailable(try await t.get("/rps/signature/\(pending.mpinId)?regOTT=\(pending.regOTT)"), "signature", html: false)
            expectUnavailable(try await t.get("/rps/timePermit/\(user.mpinId)"), "timePermit", html: false)
            expectUnavailable(try await t.get("/", headers: html), "GET /", html: true)
            expectUnavailable(try await t.get(linkPath, headers: html), "GET /mpinActivate", html: true)
            expectUnavailable(try await t.form(linkPath, ["code": "ABCD2345"], headers: html), "POST /mpinActivate", html: true)
            expectUnavailable(
                try await t.form("/session", ["webOTT": page.webOTT, "authOTT": "00"], headers: origin + html + [try #require(drawn.pageCookie)]),
                "POST /session", html: true)
            let cookie = [("Cookie", "zkpin=" + String(repeating: "ab", count: 16))]
            expectUnavailable(try await t.send("POST", "/logout", headers: origin + cookie + html, body: nil), "POST /logout", html: true)
            expectUnavailable(try await t.get("/account", headers: cookie + html), "GET /account", html: true)

            // The OpenID Connect provider: pages get the HTML 503, the token side OAuth's
            // temporarily_unavailable with 503 (never invalid_grant or invalid_client).
            expectUnavailable(try await t.get(OIDCFlow.authorizePath(client: client.id), headers: html), "GET /oauth/authorize", html: true)
            let basic = "Basic " + Data("\(client.id):\(secret ?? "")".utf8).base64EncodedString()
            let token = try await t.form(
                "/oauth/token",
                [
                    "grant_type": "authorization_code", "code": "abc",
                    "redirect_uri": OIDCFlow.callback
                ], headers: [("Authorization", basic)])
            #expect(
                token.status == 503 && token.header("Retry-After") == "5" && token.text.contains("temporarily_unavailable"),
                "POST /oauth/token → \(token.status) \(token.text)")
            let info = try await t.get("/oauth/userinfo", headers: [("Authorization", "Bearer abc")])
            #expect(info.status == 503 && info.text.contains("temporarily_unavailable"), "GET /oauth/userinfo → \(info.status) \(info.text)")

            // Back up: nothing was lost or counted against anyone.
            outage.failing = false
            #expect(try await user.login(t).status == 200)
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.failedAttempts == 0)
            #expect(try await t.get("/rps/signature/\(pending.mpinId)?regOTT=\(pending.regOTT)").status == 401)  // still pending
            let status = try await t.json("POST", "/rps/access", AccessRequest(webOTT: page.webOTT)).json(AccessResponse.self)
            #expect(status.status == .new)
        }
    }

    func expectUnavailable(_ reply: Reply, _ what: String, html: Bool) {
        #expect(reply.status == 503, "\(what) → \(reply.status) \(reply.text)")
        #expect(reply.header("Retry-After") == "5", "\(what) has no Retry-After")
        if html {
            #expect(
                reply.header("Content-Type")?.hasPrefix("text/html") == true && reply.text.contains("database is unavailable"),
                "\(what): \(reply.text)")
        } else {
            #expect(
                reply.error?.error == "unavailable" && reply.error?.message.contains("database is unavailable") == true,
                "\(what): \(reply.text)")
        }
    }
}
