import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// The OpenID Connect flow across two `zkpin-server serve` processes on one PostgreSQL: the
/// client registered once, the authorization on A, the code redeemed on B, the token used on A.
@Suite(.serialized, .enabled(if: TestPostgres.isConfigured, TestPostgres.skipReason))
struct OIDCMultiInstanceTests {
    @Test func authorizeOnATokenOnBUserinfoOnA() async throws {
        let c = try await Cluster()
        defer { c.stop() }
        let store = try await c.store()
        let (client, secret) = try await ClientRegistry.add(
            to: store, name: "Wiki", redirectURIs: [OIDCFlow.callback], postLogoutURIs: [],
            isPublic: false, now: Int(Date().timeIntervalSince1970))
        let user = try await TestUser.register(c.ta, email: "oidc-multi@example.com", pin: 1234, outbox: c.outbox)
        let page = try await c.ta.get(OIDCFlow.authorizePath(client: client.id))
        #expect(page.status == 200 && page.text.contains("Sign in to Wiki with your PIN"))
        // The person's client checks a code that A showed through B: B names the site too (the
        // name is kept with the code in the store, not in the process that showed the page).
        let shown = try await c.ta.get(OIDCFlow.authorizePath(client: client.id))
        let shownCode = try #require(OIDCFlow.capture(#"id="code">([0-9]{7})<"#, in: shown.text))
        let scanned = try await c.tb.json("POST", "/rps/codeStatus", CodeStatusRequest(wid: shownCode))
        #expect(try scanned.json(CodeStatusResponse.self).clientName == "Wiki", "\(scanned.status) \(scanned.text)")
        let (done, cookie) = try await OIDCFlow(t: c.ta, pageOrigin: c.a.base).signIn(page: page, user: user)
        let code = try #require(OIDCFlow.redirectItems(done)["code"])
        let fields = ["grant_type": "authorization_code", "code": code, "redirect_uri": OIDCFlow.callback]
        let onB = OIDCFlow(t: c.tb)
        let reply = try await onB.token(fields, basic: (client.id, try #require(secret)))
        #expect(reply.status == 200, "\(reply.text)")
        let tokens = try reply.json(TokenResponse.self)
        // Both instances publish the same key (one data folder), so either one's JWKS verifies.
        let claims = try PyJWT.verify(
            jwks: try await c.ta.get("/oauth/jwks").text, token: tokens.id_token, issuer: c.b.base,
            audience: client.id, nonce: "n-1")
        #expect(claims["email"] as? String == "oidc-multi@example.com")
        #expect(try await c.ta.get("/oauth/userinfo", headers: [("Authorization", "Bearer \(tokens.access_token)")]).status == 200)
        // The code is spent on every instance; its reuse on A revokes the token B issued.
        #expect(try await OIDCFlow(t: c.ta).token(fields, basic: (client.id, try #require(secret))).oauthError == "invalid_grant")
        #expect(try await c.tb.get("/oauth/userinfo", headers: [("Authorization", "Bearer \(tokens.access_token)")]).status == 401)
        // The ZKPin session is shared too: B redirects at once.
        let quick = try await c.tb.get(OIDCFlow.authorizePath(client: client.id), headers: [("Cookie", cookie)])
        #expect(quick.status == 303 && OIDCFlow.redirectItems(quick)["code"] != nil)
    }
}

/// Approvals across two instances on one PostgreSQL (issue 25): the site asks A, the person's
/// device lists and approves through B, and the site's poll on A gets the approval.
@Suite(.serialized, .enabled(if: TestPostgres.isConfigured, TestPostgres.skipReason))
struct ApprovalMultiInstanceTests {
    @Test func askOnAApproveThroughBTokenFromA() async throws {
        let c = try await Cluster()
        defer { c.stop() }
        let store = try await c.store()
        let (client, secret) = try await ClientRegistry.add(
            to: store, name: "Bank", redirectURIs: [], postLogoutURIs: [], isPublic: false, ciba: .poll,
            now: Int(Date().timeIntervalSince1970))
        let site = (id: client.id, secret: try #require(secret))
        let alice = try await ApprovalTests.Signer.register(c.ta, outbox: c.outbox, email: "approve-multi@example.com", pin: 1234)
        var fields = BackchannelRequestTests.payment
        fields["login_hint"] = "approve-multi@example.com"
        let asked = try await BackchannelRequestTests.ask(c.ta, site, fields).json(BackchannelResponse.self)
        let now = Int(Date().timeIntervalSince1970)
        let listed = try await alice.list(c.tb, time: now)
        let request = try #require(try listed.json(ApprovalsResponse.self).requests.first, "\(listed.text)")
        #expect(request.authReqId == asked.auth_req_id)
        let approved = try await alice.answer(c.tb, request, approve: true, time: now)
        #expect(approved.status == 200, "\(approved.text)")
        var tokens: Reply? = nil
        for _ in 0..<20 {
            try await Task.sleep(for: .seconds(asked.interval))
            let polled = try await BackchannelRequestTests.poll(c.ta, site, asked.auth_req_id)
            if polled.status == 200 { tokens = polled; break }
            #expect(["authorization_pending", "slow_down"].contains(polled.oauthError ?? ""), "\(polled.text)")
        }
        let reply = try #require(tokens, "the site's poll on A never got the approval made through B")
        let claims = try PyJWT.verify(
            jwks: try await c.tb.get("/oauth/jwks").text, token: try reply.json(TokenResponse.self).id_token, issuer: c.a.base,
            audience: client.id, nonce: "")
        #expect(claims["amr"] as? [String] == ["pin", "zkp", "dvs"])
        #expect((claims["approval"] as? [String: Any])?["binding_message"] as? String == "Pay 100 EUR to Bob")
    }
}
