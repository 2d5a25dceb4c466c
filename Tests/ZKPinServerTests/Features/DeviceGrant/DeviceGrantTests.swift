import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// The device authorization grant (RFC 8628, issue 25): a device asks, the person types its
/// code at /device, signs in with the access code, allows; the device's polls follow the
/// polling rules CIBA uses and get the tokens once. In process.
@Suite struct DeviceGrantTests {
    static func addDevice(_ h: Harness) async throws -> OIDCClient {
        try await ClientRegistry.add(
            to: h.rp.store, name: "TV", redirectURIs: [], postLogoutURIs: [], isPublic: true, deviceGrant: true, now: h.clock.now
        ).client
    }

    static func ask(_ t: any Transport, _ client: OIDCClient, scope: String = "openid email") async throws -> DeviceAuthorizationResponse {
        let reply = try await t.form("/oauth/device_authorization", ["client_id": client.id, "scope": scope])
        #expect(reply.status == 200, "\(reply.text)")
        return try reply.json(DeviceAuthorizationResponse.self)
    }

    static func poll(_ t: any Transport, _ client: OIDCClient, _ code: String) async throws -> Reply {
        try await t.form("/oauth/token", ["grant_type": OIDCProvider.deviceGrant, "device_code": code, "client_id": client.id])
    }

    /// The browser's part: /device with the code, the access-code login, the question; answers it.
    static func answer(
        _ t: any Transport, _ h: Harness, user: TestUser, userCode: String, allow: Bool
    ) async throws -> (page: Reply, cookie: String) {
        let login = try await t.get("/device?user_code=" + userCode.lowercased().replacingOccurrences(of: "-", with: ""))
        #expect(login.status == 200 && login.text.contains("TV"), "\(login.status) \(login.text.prefix(300))")
        let (done, cookie) = try await OIDCFlow(t: t).signIn(page: login, user: user, action: "/device/complete?user_code=" + userCode)
        #expect(done.status == 303 && done.header("Location") == "/device?user_code=" + userCode, "\(done.status) \(done.text)")
        let question = try await t.get("/device?user_code=" + userCode, headers: [("Cookie", cookie)])
        #expect(question.text.contains(user.email) && question.text.contains("id=\"allow\""), "\(question.text)")
        // The code to compare with the device's screen is shown, not only carried (RFC 8628, 5.4).
        #expect(question.text.contains(#"<strong id="shown-code" class="code">\#(userCode)</strong>"#), "\(question.text)")
        let answered = try await t.form(
            "/device/confirm", ["user_code": userCode, "decision": allow ? "allow" : "deny"],
            headers: [("Cookie", cookie), ("Origin", OIDCFlow.origin)])
        return (answered, cookie)
    }

    @Test func aDeviceSignsInOnceThePersonAllowsIt() async throws {
        let h = try await Harness.make()
        let tv = try await Self.addDevice(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let asked = try await Self.ask(t, tv)
            #expect(asked.verification_uri == "http://127.0.0.1:8080/device")
            #expect(asked.verification_uri_complete == asked.verification_uri + "?user_code=" + asked.user_code)
            #expect(asked.user_code.range(of: #"^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$"#, options: .regularExpression) != nil)
            #expect(try await Self.poll(t, tv, asked.device_code).oauthError == "slow_down")
            h.clock.advance(10)
            #expect(try await Self.poll(t, tv, asked.device_code).oauthError == "authorization_pending")
            let (page, _) = try await Self.answer(t, h, user: user, userCode: asked.user_code, allow: true)
            #expect(page.status == 200 && page.text.contains("Device signed in"), "\(page.text)")
            h.clock.advance(10)
            let tokens = try await Self.poll(t, tv, asked.device_code)
            #expect(tokens.status == 200, "\(tokens.text)")
            let claims = try PyJWT.verify(
                jwks: try await t.get("/oauth/jwks").text, token: try tokens.json(TokenResponse.self).id_token,
                issuer: "http://127.0.0.1:8080", audience: tv.id, nonce: "", leeway: 3600)  // the test clock ran ahead
            #expect(claims["email"] as? String == "alice@example.com")
            h.clock.advance(10)
            #expect(try await Self.poll(t, tv, asked.device_code).oauthError == "invalid_grant")
            // The user code is used up.
            #expect(try await t.get("/device?user_code=" + asked.user_code).status == 400)
        }
        let kinds = try await h.rp.store.auditLog(limit: 100).map(\.kind)
        #expect(kinds.contains("device_authorization") && kinds.contains("device_allowed") && kinds.contains("oidc_token"))
    }

    @Test func aDenialAndAnExpiryReachTheDevice() async throws {
        let h = try await Harness.make()
        let tv = try await Self.addDevice(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let denied = try await Self.ask(t, tv)
            let (page, cookie) = try await Self.answer(t, h, user: user, userCode: denied.user_code, allow: false)
            #expect(page.text.contains("Device refused"))
            h.clock.advance(10)
            #expect(try await Self.poll(t, tv, denied.device_code).oauthError == "access_denied")
            let late = try await Self.ask(t, tv)
            h.clock.advance(OIDCProvider.deviceCodeTTL)
            #expect(try await Self.poll(t, tv, late.device_code).oauthError == "expired_token")
            // An expired code cannot be allowed any more, even by a signed-in browser.
            let refused = try await t.form(
                "/device/confirm", ["user_code": late.user_code, "decision": "allow"], headers: [("Cookie", cookie), ("Origin", OIDCFlow.origin)])
            #expect(refused.status == 400)
        }
    }

    @Test func wrongCodesAreLimitedAndCrossSiteAnswersRefused() async throws {
        let h = try await Harness.make()
        let tv = try await Self.addDevice(h)
        let (site, _) = try await OIDCFlow.addClient(h)
        try await h.run { t in
            let notDevice = try await t.form("/oauth/device_authorization", ["client_id": site.id, "scope": "openid"])
            #expect(notDevice.status == 401 || notDevice.oauthError == "unauthorized_client", "\(notDevice.text)")
            let asked = try await Self.ask(t, tv)
            let crossSite = try await t.form(
                "/device/confirm", ["user_code": asked.user_code, "decision": "allow"], headers: [("Origin", "https://evil.example")])
            #expect(crossSite.status == 403, "\(crossSite.status)")
            let rule = h.rp.config.limits.wrongUserCodesPerAddress
            for attempt in 0..<rule.limit {
                let wrong = try await t.get("/device?user_code=BBBB-BBB" + (attempt % 2 == 0 ? "C" : "D"))
                #expect(wrong.status == 400 && wrong.text.contains("not valid"), "attempt \(attempt): \(wrong.status)")
            }
            // Now even the right code waits: guessing is bounded per address.
            #expect(try await t.get("/device?user_code=" + asked.user_code).status == 429)
            h.clock.advance(rule.window + 1)
            #expect(try await t.get("/device?user_code=" + asked.user_code).status == 200)
        }
    }
}
