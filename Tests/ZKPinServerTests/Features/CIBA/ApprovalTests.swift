import Foundation
import Logging
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// Issue 25 end to end in process: a site asks (CIBA poll), the person's signing-capable
/// identity lists the request and approves it with a DVS signature, and the site's poll gets
/// an ID token whose `approval` claim verifies again; a wrong PIN counts towards the block; a
/// stranger cannot see or answer someone else's request.
@Suite struct ApprovalTests {
    /// The device's side: a DVS identity and what it signs with.
    struct Signer {
        let user: TestUser
        let key: DVSKeyPair
        let suite: any MPinSuite
        var id: [UInt8] { Hex.decode(user.mpinId)! }

        static func register(_ t: any Transport, _ h: Harness, email: String, pin: Int) async throws -> Signer {
            try await register(t, outbox: h.outbox, email: email, pin: pin)
        }

        static func register(_ t: any Transport, outbox: String, email: String, pin: Int) async throws -> Signer {
            let suite = CurveID.bn254cx.suite
            let key = suite.dvsKeyPair()
            let user = try await TestUser.register(t, email: email, pin: pin, outbox: outbox, dvsPublicKey: key.publicKey)
            return Signer(user: user, key: key, suite: suite)
        }

        /// As zkpin signs: it keeps the login token and z, so the client secret is rebuilt with
        /// the PIN typed, blinded by z, and that PIN taken out again (a wrong PIN then shows as
        /// a PIN error against the login's base, `DVSSigner.loginTokenAndKey`).
        func sign(_ text: [UInt8], time: Int, pin: Int? = nil) throws -> DVSSignatureBytes {
            let typed = pin ?? user.pin
            let clientSecret = try suite.changePIN(token: user.token, id: id, oldPIN: typed, newPIN: 0)
            let token = try suite.extractPIN(clientSecret: try suite.dvsBlind(clientSecret, z: key.z, field: "CS"), id: id, pin: typed)
            return try suite.dvsSign(identity: id, token: token, pin: typed, message: Digest.sha256(text), time: time, timePermit: nil, date: 0)
        }

        func list(_ t: any Transport, time: Int, pin: Int? = nil) async throws -> Reply {
            let s = try sign(ApprovalText.list(mpinId: user.mpinId, time: time), time: time, pin: pin)
            return try await t.json(
                "POST", "/rps/approvals", ApprovalsRequest(mpinId: user.mpinId, time: time, U: Hex.encode(s.u), V: Hex.encode(s.v)))
        }

        func answer(_ t: any Transport, _ r: PendingApproval, approve: Bool, time: Int, pin: Int? = nil) async throws -> Reply {
            try await answer(t, r, verb: approve ? "approve" : "deny", time: time, pin: pin)
        }

        /// `verb`: approve, deny or not_me.
        func answer(_ t: any Transport, _ r: PendingApproval, verb answer: String, time: Int, pin: Int? = nil) async throws -> Reply {
            let text = ApprovalText.answer(
                answer: answer, authReqId: r.authReqId, clientId: r.clientId, bindingMessage: r.bindingMessage, time: time,
                authorizationDetails: r.authorizationDetails)
            let s = try sign(text, time: time, pin: pin)
            return try await t.json(
                "POST", "/rps/approvals/answer",
                ApprovalAnswerRequest(mpinId: user.mpinId, authReqId: r.authReqId, answer: answer, time: time, U: Hex.encode(s.u), V: Hex.encode(s.v))
            )
        }
    }

    static let details = #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"100"},"creditorName":"Bob"}]"#

    @Test func theSiteGetsAnApprovalItCanVerifyAgain() async throws {
        let h = try await Harness.make()
        let site = try await BackchannelRequestTests.addSite(h)
        try await h.run { t in
            let alice = try await Signer.register(t, h, email: "alice@example.com", pin: 1234)
            var fields = BackchannelRequestTests.payment
            fields["authorization_details"] = Self.details
            let asked = try await BackchannelRequestTests.ask(t, site, fields).json(BackchannelResponse.self)
            let other = try await BackchannelRequestTests.ask(
                t, site, ["scope": "openid", "login_hint": "alice@example.com", "binding_message": "Deploy v2 to production"]
            )
            .json(BackchannelResponse.self)
            let listed = try await alice.list(t, time: h.clock.now)
            #expect(listed.status == 200, "\(listed.text)")
            let requests = try listed.json(ApprovalsResponse.self).requests
            #expect(requests.map(\.bindingMessage) == ["Pay 100 EUR to Bob", "Deploy v2 to production"])
            #expect(requests.map(\.authReqId) == [asked.auth_req_id, other.auth_req_id] && requests[0].site == "Bank")
            #expect(requests[0].authorizationDetails == Self.details)

            let approved = try await alice.answer(t, requests[0], approve: true, time: h.clock.now)
            #expect(approved.status == 200, "\(approved.text)")
            #expect(try approved.json(ApprovalAnswerResponse.self).status == "approved")
            // Once only.
            #expect(try await alice.answer(t, requests[0], approve: true, time: h.clock.now).status == 404)
            h.clock.advance(asked.interval)
            let tokens = try await BackchannelRequestTests.poll(t, site, asked.auth_req_id)
            #expect(tokens.status == 200, "\(tokens.text)")
            let claims = try PyJWT.verify(
                jwks: try await t.get("/oauth/jwks").text, token: try tokens.json(TokenResponse.self).id_token,
                issuer: "http://127.0.0.1:8080", audience: site.id, nonce: "", leeway: 3600)
            #expect(claims["amr"] as? [String] == ["pin", "zkp", "dvs"])
            let approval = try #require(claims["approval"] as? [String: Any])
            #expect(approval["binding_message"] as? String == "Pay 100 EUR to Bob")
            // The site (or anyone holding the server secret) can verify the evidence again:
            // the digest is SHA-256 of the documented text, the signature verifies against Pa.
            let time = try #require(approval["time"] as? Int)
            let text = ApprovalText.answer(
                answer: "approve", authReqId: asked.auth_req_id, clientId: site.id, bindingMessage: "Pay 100 EUR to Bob", time: time,
                authorizationDetails: Self.details)
            #expect(approval["digest"] as? String == Hex.encode(Digest.sha256(text)))
            let verifier = h.rp.login.verifier
            let signature = DVSSignatureBytes(
                time: time, u: try #require(Hex.decode(approval["U"] as? String ?? "")), v: try #require(Hex.decode(approval["V"] as? String ?? "")))
            let pa = try #require(Hex.decode(approval["Pa"] as? String ?? ""))
            #expect(pa == alice.key.publicKey)
            let plain = Array(alice.id.dropLast(pa.count))
            #expect(
                verifier.suite.dvsVerify(
                    id: plain, publicKey: pa, date: 0, serverSecret: verifier.serverSecret, message: Digest.sha256(text), signature: signature,
                    signer: .loginTokenAndKey
                ).accepted)
            let tampered = Array(text.dropLast()) + Array("X".utf8)
            #expect(
                !verifier.suite.dvsVerify(
                    id: plain, publicKey: pa, date: 0, serverSecret: verifier.serverSecret, message: Digest.sha256(tampered), signature: signature,
                    signer: .loginTokenAndKey
                ).accepted)

            // Later, the site has the stored approval verified again by the service; a changed
            // digest or signature is not valid, and only a CIBA client may ask.
            let basic = [("Authorization", "Basic " + Data("\(site.id):\(site.secret)".utf8).base64EncodedString())]
            let stored = String(decoding: try JSONSerialization.data(withJSONObject: approval), as: UTF8.self)
            func verifyLater(_ text: String) async throws -> Reply {
                try await t.form("/oauth/approval/verify", ["approval": text], headers: basic)
            }
            let again = try await verifyLater(stored)
            #expect(again.status == 200 && (try? again.json(ApprovalVerifyResponse.self).valid) == true, "\(again.text)")
            #expect(approval["auth_req_id"] as? String == asked.auth_req_id)
            #expect(approval["authorization_details"] as? String == Self.details)
            // A changed digest, or a changed field under the same digest and signature: the
            // claim is evidence on its own, so neither is valid.
            for (field, value) in [
                ("digest", Hex.encode(Digest.sha256(tampered))), ("binding_message", "Pay 1000 EUR to Bob"),
                ("authorization_details", "[]"), ("auth_req_id", "x" + asked.auth_req_id)
            ] as [(String, String)] {
                var forged = approval
                forged[field] = value
                let refused = try await verifyLater(String(decoding: try JSONSerialization.data(withJSONObject: forged), as: UTF8.self))
                #expect((try? refused.json(ApprovalVerifyResponse.self).valid) == false, "\(field): \(refused.text)")
            }
            #expect(try await verifyLater("{not json").oauthError == "invalid_request")

            // The second request is denied: the site hears access_denied.
            let denied = try await alice.answer(t, requests[1], approve: false, time: h.clock.now)
            #expect(denied.status == 200, "\(denied.text)")
            #expect(try denied.json(ApprovalAnswerResponse.self).status == "denied")
            h.clock.advance(10)
            #expect(try await BackchannelRequestTests.poll(t, site, other.auth_req_id).oauthError == "access_denied")
        }
        let kinds = try await h.rp.store.auditLog(limit: 200).map(\.kind)
        #expect(kinds.contains("ciba_approved") && kinds.contains("ciba_denied"))
        let metrics = h.rp.metrics.text()
        for line in ["zkpin_ciba_requests_total 2", "zkpin_ciba_approved_total 1", "zkpin_ciba_denied_total 1", "zkpin_approval_refusals_total 0"] {
            #expect(metrics.contains(line), "\(line) in \(metrics)")
        }
    }

    /// A request nobody answers is recorded when the purge takes it (audit `ciba_expired`,
    /// `zkpin_ciba_expired_total`); an answered one is not.
    @Test func anUnansweredRequestIsRecordedAsExpired() async throws {
        let h = try await Harness.make()
        let site = try await BackchannelRequestTests.addSite(h)
        try await h.run { t in
            let alice = try await Signer.register(t, h, email: "alice@example.com", pin: 1234)
            _ = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment)
            _ = try await BackchannelRequestTests.ask(
                t, site, ["scope": "openid", "login_hint": "alice@example.com", "binding_message": "Deploy v2 to production"])
            let requests = try await alice.list(t, time: h.clock.now).json(ApprovalsResponse.self).requests
            #expect(try await alice.answer(t, requests[1], approve: false, time: h.clock.now).status == 200)
            let purger = ExpiryPurger(rp: h.rp, logger: Logger(label: "test"))
            #expect(await purger.purgeOnce())
            #expect(!h.rp.metrics.text().contains("zkpin_ciba_expired_total 1"), "nothing expired yet")
            h.clock.advance(3600)
            #expect(await purger.purgeOnce())
        }
        let expired = try await h.rp.store.auditLog(limit: 200).filter { $0.kind == "ciba_expired" }
        #expect(expired.count == 1 && expired.first?.detail.contains("Pay 100 EUR to Bob") == true, "\(expired)")
        #expect(expired.first?.userId == "alice@example.com")
        #expect(h.rp.metrics.text().contains("zkpin_ciba_expired_total 1"))
    }

    @Test func wrongPINsCountAndStrangersSeeNothing() async throws {
        let h = try await Harness.make()
        let site = try await BackchannelRequestTests.addSite(h)
        try await h.run { t in
            let alice = try await Signer.register(t, h, email: "alice@example.com", pin: 1234)
            let mallory = try await Signer.register(t, h, email: "mallory@example.com", pin: 4321)
            _ = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment)
            // A stranger's own list is empty; answering Alice's request is "no such request".
            let theirs = try await mallory.list(t, time: h.clock.now).json(ApprovalsResponse.self)
            #expect(theirs.requests.isEmpty)
            let request = try await alice.list(t, time: h.clock.now).json(ApprovalsResponse.self).requests[0]
            #expect(try await mallory.answer(t, request, approve: true, time: h.clock.now).status == 404)
            // A signature made for another time, or far from the server's clock, does not list.
            #expect(try await alice.list(t, time: h.clock.now - 600).status == 400)
            // Wrong PINs count towards the login's block: 2 left, 1 left, blocked.
            let first = try await alice.answer(t, request, approve: true, time: h.clock.now, pin: 1111)
            #expect(first.status == 401 && first.error?.code == .wrongPIN && first.error?.attemptsLeft == 2, "\(first.text)")
            #expect(try await alice.list(t, time: h.clock.now, pin: 2222).error?.attemptsLeft == 1)
            let third = try await alice.list(t, time: h.clock.now, pin: 3333)
            #expect(third.status == 410, "\(third.status) \(third.text)")
            // Blocked: even the right PIN is refused, here and at a login.
            #expect(try await alice.list(t, time: h.clock.now).status == 410)
            #expect(try await alice.user.login(t).status == 410)
        }
        #expect(h.rp.metrics.text().contains("zkpin_approval_refusals_total 3"), "three wrong PINs are three refusals")
    }

    @Test func anIdentityWithoutAKeyIsToldToRegisterAgain() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let plain = try await TestUser.register(t, email: "carol@example.com", pin: 55, outbox: h.outbox)
            let reply = try await t.json(
                "POST", "/rps/approvals",
                ApprovalsRequest(mpinId: plain.mpinId, time: h.clock.now, U: "04" + String(repeating: "11", count: 64), V: "0400"))
            #expect(reply.status == 403 && reply.text.contains("register this device again"), "\(reply.status) \(reply.text)")
        }
    }
}
