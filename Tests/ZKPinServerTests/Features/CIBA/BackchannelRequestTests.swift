import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// The site's side of OpenID CIBA (issue 25): `/oauth/bc-authorize` and the token endpoint's
/// CIBA grant with its polling rules (authorization_pending, slow_down, expired_token,
/// access_denied), in process.
@Suite struct BackchannelRequestTests {
    static func addSite(_ h: Harness, mode: OIDCClient.CIBAMode = .poll) async throws -> (id: String, secret: String) {
        let (client, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: "Bank", redirectURIs: [], postLogoutURIs: [], isPublic: false, ciba: mode,
            notificationEndpoint: mode == .ping ? "https://bank.example/ciba" : nil, now: h.clock.now)
        return (client.id, try #require(secret))
    }

    static func ask(_ t: any Transport, _ site: (id: String, secret: String), _ fields: [String: String]) async throws -> Reply {
        let basic = "Basic " + Data("\(site.id):\(site.secret)".utf8).base64EncodedString()
        return try await t.form("/oauth/bc-authorize", fields, headers: [("Authorization", basic)])
    }

    static func poll(_ t: any Transport, _ site: (id: String, secret: String), _ id: String) async throws -> Reply {
        try await OIDCFlow(t: t).token(["grant_type": OIDCProvider.cibaGrant, "auth_req_id": id], basic: (site.id, site.secret))
    }

    static let payment = ["scope": "openid email", "login_hint": "alice@example.com", "binding_message": "Pay 100 EUR to Bob"]

    @Test func discoveryAdvertisesCIBA() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let meta = try await t.get("/.well-known/openid-configuration").json(ProviderMetadata.self)
            #expect(meta.backchannel_authentication_endpoint == meta.issuer + "/oauth/bc-authorize")
            #expect(meta.backchannel_token_delivery_modes_supported == ["poll", "ping"])
            #expect(meta.grant_types_supported.contains("urn:openid:params:grant-type:ciba"))
            #expect(meta.backchannel_user_code_parameter_supported == false)
        }
    }

    @Test func badRequestsAreRefusedWithTheirCIBAError() async throws {
        let h = try await Harness.make()
        let site = try await Self.addSite(h)
        let (plain, plainSecret) = try await OIDCFlow.addClient(h)
        try await h.run { t in
            func refused(_ fields: [String: String], _ code: String, site s: (id: String, secret: String) = site) async throws {
                let reply = try await Self.ask(t, s, fields)
                #expect(reply.status == 400 && reply.oauthError == code, "\(fields): \(reply.status) \(reply.text)")
            }
            var f = Self.payment
            f["binding_message"] = nil
            try await refused(f, "invalid_binding_message")
            f["binding_message"] = String(repeating: "x", count: 201)
            try await refused(f, "invalid_binding_message")
            f["binding_message"] = "Pay\u{0007}"
            try await refused(f, "invalid_binding_message")
            // What you see is what you sign: no terminal escapes, line breaks, bidi overrides,
            // separators or look-alike forms, and a bound in bytes as well as characters.
            for hostile in [
                "amount: 1 EUR\u{1B}[2K\ramount: 9999 EUR", "Pay 1 EUR\nPay 1000 EUR", "Pay to \u{202E}boB", "Pay 1 EUR\u{2028}Pay 1000 EUR",
                "Pay 1 EUR\u{2029}Pay 1000 EUR", "Pay \u{FB01}ve EUR", "Pay\u{200B}100", String(repeating: "\u{1F44D}\u{1F3FD}", count: 150)
            ] {
                f["binding_message"] = hostile
                try await refused(f, "invalid_binding_message")
            }
            f["binding_message"] = String(repeating: "\u{1F44D}\u{1F3FD}", count: 100)  // 800 bytes: allowed
            #expect(try await Self.ask(t, site, f).status == 200)
            f = Self.payment
            f["authorization_details"] = #"{"type":"payment"}"#  // an object, not an array
            try await refused(f, "invalid_authorization_details")
            f["authorization_details"] = #"[{"amount":"100"}]"#  // no type
            try await refused(f, "invalid_authorization_details")
            for hostile in [
                #"[{"type":"payment","amount":"1 EUR\r\namount: 9999"}]"#, #"[{"type":"payment","creditorName":"\u202eboB"}]"#,
                #"[{"type":"payment","\u001b[2Kamount":"1"}]"#, #"[{"type":"payment","nested":[{"note":"a\u2029b"}]}]"#
            ] {
                f["authorization_details"] = hostile
                try await refused(f, "invalid_authorization_details")
            }
            f = Self.payment
            f["scope"] = "email"
            try await refused(f, "invalid_scope")
            f = Self.payment
            f["id_token_hint"] = "a.b.c"
            try await refused(f, "invalid_request")  // two hints
            f["login_hint"] = nil
            try await refused(f, "invalid_request")  // a hint this provider did not sign
            f = Self.payment
            f["requested_expiry"] = "soon"
            try await refused(f, "invalid_request")
            try await refused(Self.payment, "unauthorized_client", site: (plain.id, try #require(plainSecret)))
            let wrong = try await Self.ask(t, (site.id, "wrong"), Self.payment)
            #expect(wrong.status == 401 && wrong.oauthError == "invalid_client")
        }
        // Nothing was stored for any of them (the one allowed request apart).
        #expect(try await h.rp.store.expiringRowCounts()["ciba_requests"] == 1)
    }

    @Test func aPingClientMustSendItsNotificationToken() async throws {
        let h = try await Harness.make()
        let site = try await Self.addSite(h, mode: .ping)
        try await h.run { t in
            let missing = try await Self.ask(t, site, Self.payment)
            #expect(missing.status == 400 && missing.oauthError == "invalid_request", "\(missing.text)")
            var f = Self.payment
            f["client_notification_token"] = "ntok-123"
            #expect(try await Self.ask(t, site, f).status == 200)
        }
    }

    @Test func anUnknownPersonGetsTheSameAnswerAsAKnownOne() async throws {
        let h = try await Harness.make()
        let site = try await Self.addSite(h)
        try await h.run { t in
            _ = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            var nobody = Self.payment
            nobody["login_hint"] = "nobody@example.com"
            let known = try await Self.ask(t, site, Self.payment)
            let unknown = try await Self.ask(t, site, nobody)
            #expect(known.status == 200 && unknown.status == 200)
            let a = try known.json(BackchannelResponse.self)
            let b = try unknown.json(BackchannelResponse.self)
            #expect(a.expires_in == b.expires_in && a.interval == b.interval && a.auth_req_id != b.auth_req_id)
            #expect(Set(try Self.keys(known.text)) == Set(try Self.keys(unknown.text)))
            // Both wait for an answer alike.
            h.clock.advance(a.interval)
            #expect(try await Self.poll(t, site, a.auth_req_id).oauthError == "authorization_pending")
            #expect(try await Self.poll(t, site, b.auth_req_id).oauthError == "authorization_pending")
        }
        // Only the known person's request waits on their device.
        #expect(try await h.rp.store.pendingBackchannelRequests(userId: "alice@example.com", now: h.clock.now).count == 1)
        #expect(try await h.rp.store.pendingBackchannelRequests(userId: "nobody@example.com", now: h.clock.now).isEmpty)
    }

    static func keys(_ json: String) throws -> [String] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]).keys.sorted()
    }

    @Test func pollingTooFastSlowsDownThenTheRequestExpires() async throws {
        let h = try await Harness.make()
        let site = try await Self.addSite(h)
        try await h.run { t in
            _ = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            var f = Self.payment
            f["requested_expiry"] = "120"
            let asked = try await Self.ask(t, site, f).json(BackchannelResponse.self)
            #expect(asked.expires_in == 120 && asked.interval == 5)
            let early = try await Self.poll(t, site, asked.auth_req_id)
            #expect(early.oauthError == "slow_down", "\(early.text)")
            // The interval grew by 5 s: a poll 5 s later is still too early, 10 s is not.
            h.clock.advance(5)
            #expect(try await Self.poll(t, site, asked.auth_req_id).oauthError == "slow_down")
            h.clock.advance(15)
            #expect(try await Self.poll(t, site, asked.auth_req_id).oauthError == "authorization_pending")
            h.clock.advance(120)
            #expect(try await Self.poll(t, site, asked.auth_req_id).oauthError == "expired_token")
            // Another client cannot redeem it, and an unknown id is invalid_grant.
            let other = try await Self.addSite(h)
            #expect(try await Self.poll(t, other, asked.auth_req_id).oauthError == "invalid_grant")
            #expect(try await Self.poll(t, site, "nothing").oauthError == "invalid_grant")
        }
    }

    @Test func aDenialIsHandedOverOnce() async throws {
        let h = try await Harness.make()
        let site = try await Self.addSite(h)
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let asked = try await Self.ask(t, site, Self.payment).json(BackchannelResponse.self)
            let answered = try await h.rp.store.answerBackchannelRequest(
                id: asked.auth_req_id, userId: "alice@example.com", approval: nil, mpinId: alice.mpinId, now: h.clock.now)
            #expect(answered?.status == .denied)
            // A second answer finds nothing to answer.
            #expect(
                try await h.rp.store.answerBackchannelRequest(
                    id: asked.auth_req_id, userId: "alice@example.com", approval: nil, mpinId: alice.mpinId, now: h.clock.now) == nil)
            h.clock.advance(asked.interval)
            #expect(try await Self.poll(t, site, asked.auth_req_id).oauthError == "access_denied")
            h.clock.advance(asked.interval)
            #expect(try await Self.poll(t, site, asked.auth_req_id).oauthError == "invalid_grant")
        }
    }
}
