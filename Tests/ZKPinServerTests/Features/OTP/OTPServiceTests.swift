import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// One-time codes end to end in process: pass 2 with `OTP` issues a code only after a verified
/// proof (a wrong PIN counts as at a login and gives none), `/otp/verify` takes it once, for
/// its service only, until it expires; wrong codes hold back only that service's checks.
@Suite struct OTPServiceTests {
    struct Service {
        var client: OIDCClient
        var secret: String
        var basic: (String, String) {
            ("Authorization", "Basic " + Data("\(client.id):\(secret)".utf8).base64EncodedString())
        }
    }

    static func service(_ h: Harness, _ name: String = "VPN") async throws -> Service {
        let (client, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: name, redirectURIs: [], postLogoutURIs: [], isPublic: false, otp: true, now: h.clock.now)
        return Service(client: client, secret: secret!)
    }

    static func verify(_ t: any Transport, _ s: Service, user: String, otp: String) async throws -> Reply {
        let body = try JSONEncoder().encode(OTPVerifyRequest(user: user, otp: otp))
        return try await t.send("POST", "/otp/verify", headers: [("Content-Type", "application/json"), s.basic], body: Array(body))
    }

    static func valid(_ reply: Reply) throws -> Bool { try reply.json(OTPVerifyResponse.self).valid }

    @Test func aCodeComesOnlyAfterAGoodProofAndAWrongPINCounts() async throws {
        let h = try await Harness.make()
        let vpn = try await Self.service(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "otto@example.com", pin: 4826, outbox: h.outbox)
            let wrong = try await user.pass12(t, pin: 1111, otp: true)
            #expect(wrong.status == 401 && wrong.error?.error == "wrong_pin" && wrong.error?.attemptsLeft == 2, "\(wrong.text)")
            #expect(!wrong.text.contains("\"otp\""))
            #expect(try await h.rp.store.expiringRowCounts()["otp_codes"] == 0)
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.failedAttempts == 1)
            let good = try await user.pass12(t, otp: true)
            #expect(good.status == 200, "\(good.text)")
            let answer = try good.json(OTPResponse.self)
            #expect(answer.otp.count == 6 && answer.otp.allSatisfy(\.isNumber))
            #expect(answer.expiresIn == 90 && answer.expires == h.clock.now + 90)
            #expect(answer.service == "VPN" && answer.userId == "otto@example.com")
            #expect(!good.text.contains("authOTT"))
            // A success resets the count, as a login does; nothing waits for /rps/authenticate.
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.failedAttempts == 0)
            #expect(try await h.rp.store.expiringRowCounts()["auth_tokens"] == 0)
            // Only a hash is stored.
            let rows = try await h.rp.store.liveOTPs(userId: "otto@example.com", clientId: vpn.client.id, now: h.clock.now)
            #expect(rows.count == 1 && !rows[0].hash.contains(answer.otp))
            let kinds = try await h.rp.store.auditLog(limit: 20).map(\.kind)
            #expect(kinds.contains("otp_issue") && kinds.contains("wrong_pin") && !kinds.contains("login"))
        }
    }

    @Test func wrongPINsBlockAsALoginDoes() async throws {
        let h = try await Harness.make()
        _ = try await Self.service(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "bea@example.com", pin: 4826, outbox: h.outbox)
            #expect(try await user.pass12(t, pin: 1, otp: true).status == 401)
            #expect(try await user.pass12(t, pin: 2, otp: true).status == 401)
            let third = try await user.pass12(t, pin: 3, otp: true)
            #expect(third.status == 410 && third.error?.error == "blocked", "\(third.text)")
            #expect(try await user.pass12(t, otp: true).status == 410)
            #expect(try await h.rp.store.expiringRowCounts()["otp_codes"] == 0)
        }
    }

    @Test func aCodeIsValidOnceForItsServiceOnly() async throws {
        let h = try await Harness.make()
        let vpn = try await Self.service(h)
        let wifi = try await Self.service(h, "WiFi")
        try await h.run { t in
            let user = try await TestUser.register(t, email: "ana@example.com", pin: 4826, outbox: h.outbox)
            // Two services: the code must name one.
            let unnamed = try await user.pass12(t, otp: true)
            #expect(unnamed.status == 400 && unnamed.text.contains("VPN"), "\(unnamed.text)")
            #expect(try await user.pass12(t, otp: true, service: "nope").status == 400)
            let code = try await user.pass12(t, otp: true, service: "vpn").json(OTPResponse.self).otp
            // Another service cannot use it; it stays usable for its own.
            #expect(try Self.valid(try await Self.verify(t, wifi, user: "ana@example.com", otp: code)) == false)
            #expect(try Self.valid(try await Self.verify(t, vpn, user: "Ana@Example.com", otp: code)))
            #expect(try Self.valid(try await Self.verify(t, vpn, user: "ana@example.com", otp: code)) == false)
            // By id too; a wrong code, another person, a malformed code: false.
            let next = try await user.pass12(t, otp: true, service: vpn.client.id).json(OTPResponse.self).otp
            let wrong = next == "000000" ? "000001" : "000000"
            #expect(try Self.valid(try await Self.verify(t, vpn, user: "ana@example.com", otp: wrong)) == false)
            #expect(try Self.valid(try await Self.verify(t, vpn, user: "bob@example.com", otp: next)) == false)
            #expect(try Self.valid(try await Self.verify(t, vpn, user: "ana@example.com", otp: next + "0")) == false)
            #expect(try Self.valid(try await Self.verify(t, vpn, user: "ana@example.com", otp: next)))
            let kinds = try await h.rp.store.auditLog(limit: 50).map(\.kind)
            #expect(kinds.filter { $0 == "otp_use" }.count == 2 && kinds.contains("otp_refused"))
            let metrics = h.rp.metrics.text()
            #expect(metrics.contains("zkpin_otp_issued_total 2") && metrics.contains("zkpin_otp_used_total 2"))
        }
    }

    @Test func aCodeExpires() async throws {
        let h = try await Harness.make { $0.otpTTL = 30 }
        let vpn = try await Self.service(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "eli@example.com", pin: 4826, outbox: h.outbox)
            let answer = try await user.pass12(t, otp: true).json(OTPResponse.self)
            #expect(answer.expiresIn == 30)
            h.clock.advance(30)
            #expect(try Self.valid(try await Self.verify(t, vpn, user: "eli@example.com", otp: answer.otp)) == false)
        }
    }

    @Test func concurrentChecksOfOneCodeGiveExactlyOneTrue() async throws {
        let h = try await Harness.make()
        let vpn = try await Self.service(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "cy@example.com", pin: 4826, outbox: h.outbox)
            let code = try await user.pass12(t, otp: true).json(OTPResponse.self).otp
            let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { try Self.valid(try await Self.verify(t, vpn, user: "cy@example.com", otp: code)) } }
                var all: [Bool] = []
                for try await a in group { all.append(a) }
                return all
            }
            #expect(answers.filter { $0 }.count == 1, "\(answers)")
        }
    }

    @Test func wrongCodesHoldBackOnlyThatServicesChecksNeverPINLogins() async throws {
        let h = try await Harness.make {
            $0.otpWrongCodes = 3
            $0.otpWrongWindow = 300
        }
        let vpn = try await Self.service(h)
        let wifi = try await Self.service(h, "WiFi")
        try await h.run { t in
            let user = try await TestUser.register(t, email: "max@example.com", pin: 4826, outbox: h.outbox)
            let code = try await user.pass12(t, otp: true, service: "VPN").json(OTPResponse.self).otp
            let wrong = code == "000000" ? "000001" : "000000"
            // A stranger types three wrong codes: false, then 429 even for the right code.
            for _ in 0..<3 { #expect(try Self.valid(try await Self.verify(t, vpn, user: "max@example.com", otp: wrong)) == false) }
            let limited = try await Self.verify(t, vpn, user: "max@example.com", otp: code)
            #expect(limited.status == 429 && limited.error?.error == "rate_limited", "\(limited.text)")
            // The person still signs in with the PIN and still gets codes; the other service checks.
            #expect(try await user.login(t).status == 200)
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.failedAttempts == 0)
            let wifiCode = try await user.pass12(t, otp: true, service: "WiFi").json(OTPResponse.self).otp
            #expect(try Self.valid(try await Self.verify(t, wifi, user: "max@example.com", otp: wifiCode)))
            // After the window (the first code has expired by then) a fresh code is checked again.
            h.clock.advance(300)
            let fresh = try await user.pass12(t, otp: true, service: "VPN").json(OTPResponse.self).otp
            #expect(try Self.valid(try await Self.verify(t, vpn, user: "max@example.com", otp: fresh)))
        }
    }

    @Test func badRequestsAre4xx() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "no@example.com", pin: 4826, outbox: h.outbox)
            // No service registered yet: 400, and the identity is untouched.
            let none = try await user.pass12(t, otp: true)
            #expect(none.status == 400, "\(none.text)")
            let vpn = try await Self.service(h)
            // A code is not for a page login.
            let page = try await user.pass12(t, wid: "1234567", widAtPass1: false, otp: true)
            #expect(page.status == 400, "\(page.text)")
            // Client authentication as at the token endpoint.
            let body = Array(#"{"user": "no@example.com", "otp": "123456"}"#.utf8)
            let json = ("Content-Type", "application/json")
            #expect(try await t.send("POST", "/otp/verify", headers: [json], body: body).status == 401)
            let badSecret = "Basic " + Data("\(vpn.client.id):nope".utf8).base64EncodedString()
            let refused = try await t.send("POST", "/otp/verify", headers: [json, ("Authorization", badSecret)], body: body)
            #expect(refused.status == 401 && refused.error?.error == "invalid_client")
            let posted = #"{"user": "no@example.com", "otp": "123456", "client_id": "\#(vpn.client.id)", "client_secret": "\#(vpn.secret)"}"#
            let viaBody = try await t.send("POST", "/otp/verify", headers: [json], body: Array(posted.utf8))
            #expect(viaBody.status == 200, "\(viaBody.text)")
            #expect(try Self.valid(viaBody) == false)
            // A sign-in client that is not an OTP service: 403.
            let (wiki, secret) = try await ClientRegistry.add(
                to: h.rp.store, name: "Wiki", redirectURIs: ["https://wiki.example/cb"], postLogoutURIs: [], isPublic: false, now: h.clock.now)
            let wikiAuth = "Basic " + Data("\(wiki.id):\(secret!)".utf8).base64EncodedString()
            #expect(try await t.send("POST", "/otp/verify", headers: [json, ("Authorization", wikiAuth)], body: body).status == 403)
            for bad in [#"{"user": 5, "otp": "1"}"#, "not json", #"{"user": "", "otp": "123456"}"#] {
                let r = try await t.send("POST", "/otp/verify", headers: [json, vpn.basic], body: Array(bad.utf8))
                #expect((400..<500).contains(r.status) && r.error != nil, "\(bad) → \(r.status) \(r.text)")
            }
            #expect(try await t.send("POST", "/otp/verify", headers: [vpn.basic], body: body).status == 415)
        }
    }

    @Test func theDigitsAreConfigurable() async throws {
        let h = try await Harness.make { $0.otpDigits = 8 }
        let vpn = try await Self.service(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "di@example.com", pin: 4826, outbox: h.outbox)
            let code = try await user.pass12(t, otp: true).json(OTPResponse.self).otp
            #expect(code.count == 8)
            #expect(try Self.valid(try await Self.verify(t, vpn, user: "di@example.com", otp: code)))
        }
    }

    /// Wrong client secrets at `/otp/verify` count towards the address's client-authentication
    /// limit (as at `/oauth/token`): past it, 429 even for the right secret.
    @Test func failedClientAuthenticationsAreLimited() async throws {
        let h = try await Harness.make()
        let vpn = try await Self.service(h)
        let limit = h.rp.config.limits.failedClientAuthPerAddress.limit
        try await h.run { t in
            let wrong = Service(client: vpn.client, secret: "not-the-secret")
            var statuses: [Int] = []
            for _ in 0..<(limit + 3) { statuses.append(try await Self.verify(t, wrong, user: "x@example.com", otp: "123456").status) }
            #expect(statuses.prefix(limit).allSatisfy { $0 == 401 } && statuses.suffix(3).allSatisfy { $0 == 429 }, "\(statuses)")
            #expect(try await Self.verify(t, vpn, user: "x@example.com", otp: "123456").status == 429)
        }
    }
}
