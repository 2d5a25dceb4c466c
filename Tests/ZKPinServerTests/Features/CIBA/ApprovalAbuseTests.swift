import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// Attacks on the approval paths with a device's stolen token and DVS key (or with none):
/// `/oauth/approval/verify` must not be a PIN oracle, a listing signature must not be
/// replayable, junk signatures from a stranger are rate-limited, and a one-time code dies
/// with its identity.
@Suite struct ApprovalAbuseTests {
    typealias Signer = ApprovalTests.Signer

    /// The `approval` claim an attacker builds: any request id, message and time, signed with
    /// the stolen token and key and a guessed PIN.
    static func forgedClaim(_ s: Signer, authReqId: String, clientId: String, message: String, time: Int, pin: Int) throws -> String {
        let text = ApprovalText.answer(
            answer: "approve", authReqId: authReqId, clientId: clientId, bindingMessage: message, time: time, authorizationDetails: nil)
        let signature = try s.sign(text, time: time, pin: pin)
        let claim = ApprovalClaim(
            auth_req_id: authReqId, binding_message: message, authorization_details: nil, digest: Hex.encode(Digest.sha256(text)),
            time: time, mpin_id: s.user.mpinId, Pa: Hex.encode(s.key.publicKey), U: Hex.encode(signature.u), V: Hex.encode(signature.v))
        return String(decoding: try JSONEncoder().encode(claim), as: UTF8.self)
    }

    /// 31 claims with PIN guesses (the right PIN among them), for invented request ids and for a
    /// real request that was never approved: none verifies, none is counted, and the owner's
    /// next real wrong PIN still says 2 attempts left.
    @Test func approvalVerificationIsNotAPINOracle() async throws {
        let h = try await Harness.make()
        let site = try await BackchannelRequestTests.addSite(h)
        let basic = [("Authorization", "Basic " + Data("\(site.id):\(site.secret)".utf8).base64EncodedString())]
        try await h.run { t in
            let alice = try await Signer.register(t, h, email: "alice@example.com", pin: 1234)
            let real = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment).json(BackchannelResponse.self)
            var answers: [Bool] = []
            for guess in 0..<31 {
                // The right PIN is the 17th guess; the last guess uses the real, unanswered request.
                let pin = guess == 16 || guess == 30 ? 1234 : 2000 + guess
                let id = guess == 30 ? real.auth_req_id : "invented-\(guess)"
                let claim = try Self.forgedClaim(alice, authReqId: id, clientId: site.id, message: "Pay 1 EUR", time: h.clock.now, pin: pin)
                let reply = try await t.form("/oauth/approval/verify", ["approval": claim], headers: basic)
                #expect(reply.status == 200, "\(reply.text)")
                answers.append(try reply.json(ApprovalVerifyResponse.self).valid)
            }
            #expect(answers.allSatisfy { !$0 }, "claims the service never issued verified: \(answers)")
            #expect(try await h.rp.store.identity(mpinId: alice.user.mpinId)?.failedAttempts == 0)
            let wrong = try await alice.list(t, time: h.clock.now, pin: 9999)
            #expect(wrong.status == 401 && wrong.error?.attemptsLeft == 2, "\(wrong.text)")
        }
    }

    /// A captured listing signature replayed between wrong PINs used to settle as a success
    /// each time and reset the count: replays are refused and the third wrong PIN blocks.
    @Test func aReplayedListingIsRefusedAndResetsNothing() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let alice = try await Signer.register(t, h, email: "alice@example.com", pin: 1234)
            let time = h.clock.now
            let s = try alice.sign(ApprovalText.list(mpinId: alice.user.mpinId, time: time), time: time)
            let captured = ApprovalsRequest(mpinId: alice.user.mpinId, time: time, U: Hex.encode(s.u), V: Hex.encode(s.v))
            #expect(try await t.json("POST", "/rps/approvals", captured).status == 200)
            var statuses: [Int] = []
            for round in 0..<3 {
                statuses.append(try await alice.list(t, time: h.clock.now, pin: 1000 + round).status)
                let replay = try await t.json("POST", "/rps/approvals", captured)
                #expect(replay.status == 400 && replay.text.contains("used already"), "round \(round): \(replay.status) \(replay.text)")
            }
            #expect(statuses == [401, 401, 410], "\(statuses)")
            #expect(try await h.rp.store.identity(mpinId: alice.user.mpinId)?.state == .blocked)
        }
    }

    /// A stranger's junk signatures for the owner's mpinId (valid points, no token) are refused
    /// 429 past the per-identity-and-address limit; the owner, from another address, lists with
    /// nothing counted against the PIN.
    @Test func junkApprovalSignaturesAreLimitedPerAddress() async throws {
        let live = try await LiveServer.start { o in o.trustedProxy = "127.0.0.1" }
        defer { live.stop() }
        let owner = FromAddress(inner: live.transport, address: "198.51.100.7")
        let stranger = FromAddress(inner: live.transport, address: "203.0.113.66")
        let alice = try await Signer.register(owner, outbox: live.harness.outbox, email: "alice@example.com", pin: 1234)
        let limit = live.harness.rp.config.limits.approvalsPerIdentityAndAddress.limit
        var statuses: [Int] = []
        for _ in 0..<(limit + 5) {
            // A signature of the right form by some other key: it decodes, and never verifies.
            let junk = alice.suite.dvsKeyPair()
            let u = try alice.suite.dvsBlind(alice.user.token, z: junk.z, field: "U")
            let v = try alice.suite.dvsBlind(u, z: junk.z, field: "V")
            let body = ApprovalsRequest(mpinId: alice.user.mpinId, time: live.harness.clock.now, U: Hex.encode(u), V: Hex.encode(v))
            statuses.append(try await stranger.json("POST", "/rps/approvals", body).status)
        }
        #expect(statuses.prefix(limit).allSatisfy { $0 == 401 }, "\(statuses)")
        #expect(statuses.suffix(5).allSatisfy { $0 == 429 }, "\(statuses)")
        let listed = try await alice.list(owner, time: live.harness.clock.now)
        #expect(listed.status == 200, "\(listed.text)")
        #expect(try await live.harness.rp.store.identity(mpinId: alice.user.mpinId)?.failedAttempts == 0)
    }

    /// Points that do not decode are a bad request, as at pass 1, and take no attempt.
    @Test func undecodablePointsAreABadRequest() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let alice = try await Signer.register(t, h, email: "alice@example.com", pin: 1234)
            let body = ApprovalsRequest(mpinId: alice.user.mpinId, time: h.clock.now, U: "04" + String(repeating: "11", count: 64), V: "0400")
            let reply = try await t.json("POST", "/rps/approvals", body)
            #expect(reply.status == 400, "\(reply.status) \(reply.text)")
            #expect(try await h.rp.store.identity(mpinId: alice.user.mpinId)?.failedAttempts == 0)
        }
    }

    /// A one-time code issued before the identity was revoked no longer verifies.
    @Test func revocationEndsOneTimeCodes() async throws {
        let h = try await Harness.make()
        let vpn = try await OTPServiceTests.service(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "otto@example.com", pin: 4826, outbox: h.outbox)
            let issued = try await user.pass12(t, otp: true)
            #expect(issued.status == 200, "\(issued.text)")
            let code = try issued.json(OTPResponse.self).otp
            #expect(try await h.rp.store.revoke(userId: "otto@example.com") == 1)
            let after = try await OTPServiceTests.verify(t, vpn, user: "otto@example.com", otp: code)
            #expect(after.status == 200, "\(after.text)")
            #expect(try OTPServiceTests.valid(after) == false, "\(after.text)")
        }
    }
}

/// A site cannot flood a person with requests: of a burst for one person at most
/// `--pending-requests` reach the person's list, the rest are refused (access_denied while
/// those wait, 429 past the per-person rate), for a registered and an unknown person alike;
/// the client's own budget ends a flood across people.
@Suite struct BackchannelFloodTests {
    @Test func aFloodOfRequestsReachesThePersonAsAFew() async throws {
        let h = try await Harness.make()
        let site = try await BackchannelRequestTests.addSite(h)
        let perPerson = OIDCProvider.requestsPerClientAndPerson.limit
        try await h.run { t in
            let alice = try await ApprovalTests.Signer.register(t, h, email: "alice@example.com", pin: 1234)
            var statuses: [String: [Int]] = [:]
            for hint in ["alice@example.com", "nobody@example.com"] {
                var fields = BackchannelRequestTests.payment
                fields["login_hint"] = hint
                for _ in 0..<12 { statuses[hint, default: []].append(try await BackchannelRequestTests.ask(t, site, fields).status) }
            }
            // Registered or not, the same answers: the limit tells the site nobody's account.
            #expect(statuses["alice@example.com"] == statuses["nobody@example.com"], "\(statuses)")
            // The first few wait (--pending-requests); the rest of the client's budget for the
            // person is access_denied (403) while those wait, then 429.
            let waiting = h.rp.config.limits.pendingRequestsPerPerson
            #expect(
                statuses["alice@example.com"]
                    == Array(repeating: 200, count: waiting) + Array(repeating: 403, count: perPerson - waiting)
                    + Array(repeating: 429, count: 12 - perPerson))
            let listed = try await alice.list(t, time: h.clock.now).json(ApprovalsResponse.self).requests
            #expect(listed.count == waiting)
            // The client's own budget (every request counted, refused ones too) ends the flood.
            var others: [Int] = []
            for n in 0..<276 {
                var fields = BackchannelRequestTests.payment
                fields["login_hint"] = "person\(n)@example.com"
                others.append(try await BackchannelRequestTests.ask(t, site, fields).status)
            }
            let perClient = OIDCProvider.requestsPerClient.limit
            #expect(others.filter { $0 == 200 }.count == perClient - 24, "\(others)")
            #expect(others.suffix(10).allSatisfy { $0 == 429 })
        }
    }
}
