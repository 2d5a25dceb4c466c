import Foundation
import Logging
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// Every endpoint's error cases, in process.
@Suite struct RouteTests {
    @Test func discoveryAndStatus() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let service = try await t.get("/service").json(ServiceInfo.self)
            #expect(service.url == "http://127.0.0.1:8080" && service.rpsPrefix == "rps" && service.type == "online")
            let settings = try await t.get("/rps/clientSettings").json(ClientSettings.self)
            #expect(settings.curve == "bn254cx" && settings.accessNumberDigits == 7 && settings.maxInvalidLoginAttempts == 3)
            #expect(settings.dta2URL == "/dta2" && !settings.usePermits)
            #expect(try await t.get("/status").json(ServerStatus.self).curve == "bn254cx")
            #expect(try await t.get("/dta2/status").json(ServerStatus.self).role == "dta2")
            // logo_url points at the served logo (the ZKPin SVG unless --logo-file); /logo.svg
            // stays for clients that fetch it by that name.
            #expect(service.logoURL == "http://127.0.0.1:8080/pages/logo")
            let served = try await t.get("/pages/logo").text
            let named = try await t.get("/logo.svg").text
            #expect(served == named)
            let logo = try await t.get("/logo.svg")
            #expect(logo.status == 200 && logo.header("Content-Type") == "image/svg+xml")
            #expect(logo.text.hasPrefix("<svg") && logo.text.contains("</svg>"))
            let metrics = try await t.get("/metrics")
            #expect(metrics.status == 200 && metrics.text.contains("zkpin_logins_total"))
            let missing = try await t.get("/nope")
            #expect(missing.status == 404 && missing.error?.error == "not_found")
        }
    }

    /// A path that exists with another method is a 405 naming the methods it has (RFC 9110),
    /// not a 404 that says the endpoint is not there; path parameters match any segment.
    @Test func aWrongMethodIsA405WithAllow() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let cases: [(method: String, path: String, allow: String)] = [
                ("DELETE", "/rps/pass1", "POST"),
                ("GET", "/rps/pass2", "POST"),
                ("POST", "/status", "GET"),
                ("DELETE", "/rps/signature/0a1b2c", "GET"),
                ("POST", "/dta2/status", "GET")
            ]
            for c in cases {
                let reply = try await t.send(c.method, c.path, headers: [], body: nil)
                #expect(reply.status == 405, "\(c.method) \(c.path): \(reply.status)")
                #expect(reply.header("Allow") == c.allow, "\(c.method) \(c.path): \(reply.headers)")
                #expect(reply.error?.error == "bad_request" && reply.error?.message.contains(c.allow) == true, "\(reply.text)")
            }
            // No such path with any method: still 404, without Allow.
            for path in ["/rps/pass3", "/rps/signature", "/rps/signature/a/b"] {
                let reply = try await t.send("DELETE", path, headers: [], body: nil)
                #expect(reply.status == 404 && reply.header("Allow") == nil, "\(path): \(reply.status)")
            }
        }
    }

    @Test func badInputIsA4xxWithAnErrorBody() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let cases: [(String, String, String)] = [
                ("PUT", "/rps/user", "not json"),
                ("PUT", "/rps/user", #"{"userId": 5}"#),
                ("PUT", "/rps/user", #"{"userId": "no-at-sign"}"#),
                ("PUT", "/rps/user", #"{"userId": "a@b.c\r\nBcc: x@y.z"}"#),
                ("PUT", "/rps/user", "{\"userId\": \"\(String(repeating: "a", count: 250))@example.com\"}"),
                ("POST", "/rps/pass1", #"{"mpin_id": "zz", "U": "00", "pass": 1}"#),
                ("POST", "/rps/pass1", #"{"mpin_id": "ab"}"#),
                ("POST", "/rps/pass2", #"{"mpin_id": "ab", "V": "00", "WID": "0", "OTP": true, "pass": 2}"#),
                ("POST", "/rps/pass2", #"{"mpin_id": "ab", "V": "xyz", "WID": "0", "pass": 2}"#),
                ("POST", "/rps/authenticate", #"{"authOTT": "x"}"#),
                ("POST", "/rps/access", "[]"),
                ("POST", "/rps/codeStatus", #"{"status": "other", "wid": "1234560"}"#),
                ("PUT", "/rps/user/zz", #"{"regOTT": "00"}"#)
            ]
            for (method, path, body) in cases {
                let r = try await t.send(method, path, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
                #expect((400..<500).contains(r.status), "\(method) \(path) \(body) → \(r.status)")
                #expect(r.error != nil, "\(method) \(path) has no error body: \(r.text)")
            }
            let mpinId = MPinIdentity(issued: "x", userID: "ghost@example.com", mobile: 0, salt: "00").mpinId
            let u = Hex.encode(try CurveID.bn254cx.suite.clientSecretShare(master: CurveID.bn254cx.suite.randomScalar(), id: [1]))
            // Unknown identity: 403 at pass 1 and at the time permit.
            #expect(try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: mpinId, u: u)).status == 403)
            #expect(try await t.get("/rps/timePermit/\(mpinId)").status == 403)
            // Unknown authOTT: 401 invalid_token.
            let auth = try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: "00"))
            #expect(auth.status == 401 && auth.error?.code == .invalidToken)
            // A D-TA 2 request that the relying party did not sign.
            #expect(
                try await t.get("/dta2/clientSecret?hash_mpin_id=\(String(repeating: "ab", count: 32))&expires=9999999999&signature=00").status == 403
            )
            // D-TA 2 takes only the hash: an mpinId alone is bad input.
            #expect(try await t.get("/dta2/clientSecret?mpin_id=\(mpinId)&expires=9999999999&signature=00").status == 400)
            #expect(try await t.get("/dta2/serverSecret").status == 403)
        }
    }

    @Test func registrationErrors() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let reg = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "bob@example.com")).json(RegisterResponse.self)
            #expect(!reg.active)
            #expect(MPinIdentity(mpinId: reg.mpinId)?.userID == "bob@example.com")
            // A wrong regOTT is 400 and deletes nothing.
            let wrong = try await t.get("/rps/signature/\(reg.mpinId)?regOTT=\(Tokens.fresh())")
            #expect(wrong.status == 400 && wrong.error?.code == .invalidRegOTT)
            #expect(try await t.get("/rps/signature/\(reg.mpinId)?regOTT=\(reg.regOTT)").status == 401)
            // Re-send: same mpinId, another mail.
            let before = try FileManager.default.contentsOfDirectory(atPath: h.outbox).count
            let again = try await t.json("PUT", "/rps/user/\(reg.mpinId)", ResendRequest(regOTT: reg.regOTT))
            #expect(again.status == 200)
            #expect(try again.json(RegisterResponse.self).mpinId == reg.mpinId)
            #expect(try FileManager.default.contentsOfDirectory(atPath: h.outbox).count == before + 1)
            #expect(try await t.json("PUT", "/rps/user/\(reg.mpinId)", ResendRequest(regOTT: "00")).status == 400)

            // A wrong confirmation code is refused and leaves the registration pending.
            let link = try Outbox.activationLink(in: h.outbox, to: "bob@example.com")
            let path = String(link.dropFirst("http://127.0.0.1:8080".count))
            let page = try await t.get(path)
            #expect(page.header("Content-Security-Policy") == HTMLPage.policy)
            let miss = try await t.form(path, ["code": "AAAA-AAAA"])
            #expect(miss.status == 400 && miss.text.contains("id=\"wrong\""))
            #expect(try await t.get("/rps/signature/\(reg.mpinId)?regOTT=\(reg.regOTT)").status == 401)
            // A forged signature and a changed expiry get a clear page, not a trace.
            let forged = try await t.get(path.replacingOccurrences(of: "&s=", with: "&s=00"))
            #expect(forged.status == 400 && forged.text.contains("id=\"refused\""))
            let code = try #require(Tokens.confirmationCode(regOTT: reg.regOTT))
            #expect(try await t.form(path, ["code": code]).text.contains("id=\"activated\""))
            // Used link.
            #expect(try await t.get(path).text.contains("already activated"))
            #expect(try await t.get("/rps/signature/\(reg.mpinId)?regOTT=\(reg.regOTT)").status == 200)
            // The share may be fetched again until the registration expires.
            #expect(try await t.get("/rps/signature/\(reg.mpinId)?regOTT=\(reg.regOTT)").status == 200)
            h.clock.advance(3601)
            #expect(try await t.get("/rps/signature/\(reg.mpinId)?regOTT=\(reg.regOTT)").status == 400)
        }
    }

    @Test func expiredActivationLink() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            _ = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "late@example.com"))
            let link = try Outbox.activationLink(in: h.outbox, to: "late@example.com")
            h.clock.advance(3601)
            let page = try await t.get(String(link.dropFirst("http://127.0.0.1:8080".count)))
            #expect(page.status == 400 && page.text.contains("expired"))
        }
    }

    @Test func wrongPINsBlockAndSuccessResets() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "carol@example.com", pin: 1111, outbox: h.outbox)
            let w1 = try await user.login(t, pin: 1112)
            #expect(w1.status == 401 && w1.error?.code == .wrongPIN && w1.error?.attemptsLeft == 2)
            #expect(!w1.text.contains("pinError"))
            #expect(try await user.login(t).status == 200)
            // The success reset the count: two more wrong PINs still leave one.
            #expect(try await user.login(t, pin: 2).error?.attemptsLeft == 2)
            #expect(try await user.login(t, pin: 3).error?.attemptsLeft == 1)
            let third = try await user.login(t, pin: 4)
            #expect(third.status == 410)
            #expect(try await user.login(t).status == 410)
            let p1 = try await user.pass12(t)
            #expect(p1.status == 410)
            let audit = try await h.rp.store.auditLog(limit: 100).map(\.kind)
            #expect(audit.contains("block") && audit.contains("register") && audit.contains("activate") && audit.contains("login"))
        }
    }

    @Test func randomValuesNeverBlock() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "dave@example.com", pin: 2222, outbox: h.outbox)
            for _ in 0..<5 {
                let r = try await user.randomAttempt(t)
                #expect(r.status == 401 && r.error?.code == .invalidToken)
            }
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.failedAttempts == 0)
            #expect(try await user.login(t).status == 200)
        }
    }

    @Test func replaysAndReuseAreRefused() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "erin@example.com", pin: 3333, outbox: h.outbox)
            let state = try user.suite.clientPass1(id: user.id, token: user.token, pin: 3333, timePermit: nil, date: 0)
            let p1 = try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: user.mpinId, u: Hex.encode(state.u))).json(Pass1Response.self)
            let v = try user.suite.clientPass2(state, y: Hex.decode(p1.y)!)
            let pass2 = Pass2Request(mpinId: user.mpinId, v: Hex.encode(v), wid: "0", challenge: p1.challenge)
            let r2 = try await t.json("POST", "/rps/pass2", pass2)
            #expect(r2.status == 200)
            // The same pass 2 again: its challenge is gone.
            let replay = try await t.json("POST", "/rps/pass2", pass2)
            #expect(replay.status == 403 && replay.error?.code == .noChallenge)
            // Pass 2 must name its challenge (rps-api.md): without one it is 400.
            var unnamed = pass2
            unnamed.challenge = nil
            #expect(try await t.json("POST", "/rps/pass2", unnamed).status == 400)
            let authOTT = try r2.json(Pass2Response.self).authOTT
            #expect(try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: authOTT)).status == 200)
            let reuse = try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: authOTT))
            #expect(reuse.status == 401 && reuse.error?.code == .invalidToken)
        }
    }

    @Test func challengesExpire() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "frank@example.com", pin: 4444, outbox: h.outbox)
            let state = try user.suite.clientPass1(id: user.id, token: user.token, pin: 4444, timePermit: nil, date: 0)
            let p1 = try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: user.mpinId, u: Hex.encode(state.u))).json(Pass1Response.self)
            let v = try user.suite.clientPass2(state, y: Hex.decode(p1.y)!)
            h.clock.advance(16)
            let r = try await t.json("POST", "/rps/pass2", Pass2Request(mpinId: user.mpinId, v: Hex.encode(v), wid: "0", challenge: p1.challenge))
            #expect(r.status == 403)
        }
    }

    @Test func accessCodeChecksComeBeforeAnyPairing() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "gina@example.com", pin: 5555, outbox: h.outbox)
            let access = try await t.send("POST", "/rps/getAccessNumber", headers: [], body: nil).json(AccessNumberResponse.self)
            h.clock.advance(121)
            let expired = try await user.pass12(t, wid: access.accessNumber)
            #expect(expired.status == 412 && expired.error?.code == .accessCodeExpired)
            #expect(try await user.pass12(t, wid: "1234561").status == 412)
            #expect(try await user.pass12(t, wid: "9999999").status == 412)
            // No verification ran for any of them.
            #expect(h.rp.metrics.text().contains("zkpin_verifications_total 0"))
            let page = try await t.json("POST", "/rps/access", AccessRequest(webOTT: access.webOTT)).json(AccessResponse.self)
            #expect(page.status == .expired)
            #expect(try await t.json("POST", "/rps/access", AccessRequest(webOTT: "00")).status == 404)
        }
    }

    @Test func pageShowsAWrongPINAndTheCodeStaysUsable() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "wanda@example.com", pin: 1357, outbox: h.outbox)
            let access = try await t.send("POST", "/rps/getAccessNumber", headers: [], body: nil).json(AccessNumberResponse.self)
            let wrong = try await user.pass12(t, pin: 1358, wid: access.accessNumber)
            #expect(wrong.status == 200)
            let polled = try await t.json("POST", "/rps/access", AccessRequest(webOTT: access.webOTT)).json(AccessResponse.self)
            #expect(polled.status == .wid)
            let auth = try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try wrong.json(Pass2Response.self).authOTT))
            #expect(auth.status == 401 && auth.error?.code == .wrongPIN && auth.error?.attemptsLeft == 2)
            let page = try await t.json("POST", "/rps/access", AccessRequest(webOTT: access.webOTT))
            #expect(page.text.contains("\"status\":\"wrong_pin\""))
            #expect(try page.json(AccessResponse.self).status == .wrongPIN)
            // The same code still works with the right PIN.
            let right = try await user.pass12(t, wid: access.accessNumber)
            #expect(right.status == 200)
            let after = try await t.json("POST", "/rps/access", AccessRequest(webOTT: access.webOTT)).json(AccessResponse.self)
            #expect(after.status == .user && after.userId == "wanda@example.com")
            // The login page's script knows the status.
            #expect(try await t.get("/pages/login.js").text.contains("'wrong_pin'"))
        }
    }

    @Test func dta2GetsOnlyTheIdentityHash() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            // Registration fetched share 2 through the signed params, so the hash-only path works.
            let user = try await TestUser.register(t, email: "lee@example.com", pin: 9753, outbox: h.outbox)
            #expect(try await user.login(t).status == 200)
            let hashed = Hex.encode(user.suite.hashID(Hex.decode(user.mpinId)!))
            let permit = try await t.get("/rps/timePermit/\(user.mpinId)").json(TimePermitResponse.self)
            let params = try #require(permit.params)
            #expect(!params.split(separator: "&").contains { $0.hasPrefix("mpin_id=") })
            #expect(!params.contains(user.mpinId))
            #expect(params.contains("hash_mpin_id=\(hashed)"))
            let share2 = try await t.get("/dta2/timePermit?\(params)")
            #expect(share2.status == 200)
            // The signature covers the hash: another identity's hash is refused.
            let other = Hex.encode(user.suite.hashID(Array("someone else".utf8)))
            let forged = params.replacingOccurrences(of: hashed, with: other)
            #expect(try await t.get("/dta2/timePermit?\(forged)").status == 403)
            // A hash of the wrong length is bad input.
            let short = params.replacingOccurrences(of: hashed, with: String(hashed.dropLast(2)))
            #expect(try await t.get("/dta2/timePermit?\(short)").status == 400)
        }
    }

    /// Found by tools/schemathesis-test: `date=-9223372036854775808` trapped in `abs(date - today)`
    /// and took the whole server down with one unsigned GET.
    @Test func dta2RefusesDatesFarFromTodayWithoutTrapping() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let today = UTCDay.number(unixSeconds: h.clock.now)
            for date in [Int.min, Int.min + 1, -1, today - 2, today + 2, Int.max - 1, Int.max] {
                let r = try await t.get("/dta2/timePermit?date=\(date)&hash_mpin_id=00&expires=1&signature=00")
                #expect(r.status == 403 && r.error?.code == .forbidden, "date \(date)")
            }
            #expect(try await t.get("/dta2/status").status == 200)
        }
    }

    @Test func authenticateAnswers412WhenTheAccessCodeExpired() async throws {
        // A code shorter-lived than the authOTT (60 s), so only the code has expired.
        let h = try await Harness.make { $0.accessCodeTTL = 10 }
        try await h.run { t in
            let user = try await TestUser.register(t, email: "jo@example.com", pin: 8642, outbox: h.outbox)
            let access = try await t.send("POST", "/rps/getAccessNumber", headers: [], body: nil).json(AccessNumberResponse.self)
            let r2 = try await user.pass12(t, wid: access.accessNumber)
            #expect(r2.status == 200)
            // Pass 2 succeeded in time, but the code expires before /rps/authenticate.
            h.clock.advance(11)
            let auth = try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try r2.json(Pass2Response.self).authOTT))
            #expect(auth.status == 412 && auth.error?.code == .accessCodeExpired)
            let page = try await t.json("POST", "/rps/access", AccessRequest(webOTT: access.webOTT)).json(AccessResponse.self)
            #expect(page.status == .expired)
        }
    }

    @Test func authenticateTimesOutWhenThePageIsGone() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "hal@example.com", pin: 6666, outbox: h.outbox)
            let access = try await t.send("POST", "/rps/getAccessNumber", headers: [], body: nil).json(AccessNumberResponse.self)
            let r2 = try await user.pass12(t, wid: access.accessNumber)
            let auth = try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try r2.json(Pass2Response.self).authOTT))
            #expect(auth.status == 408 && auth.error?.code == .authenticationTimeout)
        }
    }

    @Test func revokedIdentityIsRefusedEverywhere() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "ivy@example.com", pin: 7777, outbox: h.outbox)
            // Pass 2 done before the revocation: authenticate still refuses.
            let r2 = try await user.pass12(t)
            #expect(try await h.rp.store.revoke(userId: "ivy@example.com") == 1)
            #expect(
                try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try r2.json(Pass2Response.self).authOTT)).status == 403)
            let p = try await user.pass12(t)
            #expect(p.status == 403 && p.error?.code == .identityNotAuthorized)
            #expect(try await t.get("/rps/timePermit/\(user.mpinId)").status == 403)
        }
    }

    @Test func curveIsFixedAtFirstStart() async throws {
        let h = try await Harness.make(curve: .bn254cx)
        var o = ServeOptions()
        o.dataDirectory = h.dir
        o.curve = .bls12_381
        await #expect(throws: SetupError.self) { _ = try await ZKPinServerApp.makeRelyingParty(o) }
        o.curve = nil
        #expect(try await ZKPinServerApp.makeRelyingParty(o).0.config.curve == .bn254cx)
        // Secrets are 0600.
        for name in ["dta1.master", "dta2.master", "rps.key", "dta2.key"] {
            let attrs = try FileManager.default.attributesOfItem(atPath: h.dir + "/" + name)
            #expect((attrs[.posixPermissions] as? Int) == 0o600, "\(name)")
        }
    }

    @Test func portZeroNeedsAPublicURL() async throws {
        let dir = try TempDir.make()
        var o = ServeOptions()
        o.dataDirectory = dir
        o.curve = .bn254cx
        o.port = 0
        do {
            _ = try await ZKPinServerApp.makeRelyingParty(o)
            Issue.record("--port 0 without --public-url was accepted")
        } catch let error as SetupError {
            #expect(error.description.contains("--public-url"))
        }
        // No public URL names port 0.
        o.publicURL = "http://127.0.0.1:9999"
        let rp = try await ZKPinServerApp.makeRelyingParty(o).0
        #expect(rp.service().url == "http://127.0.0.1:9999")
        // A real port without --public-url still gets the default.
        o.port = 8123
        o.publicURL = nil
        o.dataDirectory = try TempDir.make()
        #expect(try await ZKPinServerApp.makeRelyingParty(o).0.service().url == "http://127.0.0.1:8123")
    }

    @Test func loginPageShowsCodeAndQR() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let page = try await t.get("/")
            #expect(page.status == 200)
            #expect(page.header("Content-Security-Policy") == HTMLPage.policy)
            #expect(page.text.contains("<svg"))
            let code = page.text.range(of: #"id="code">(\d{7})<"#, options: .regularExpression).map { String(page.text[$0].dropFirst(10).prefix(7)) }
            #expect(code.map(AccessCode.isValid) == true)
            #expect(try await t.get("/account").status == 303)
        }
    }

    @Test func logRedaction() {
        #expect(RedactingLogMiddleware.redact("/rps/signature/ab", "regOTT=secret&x=1") == "/rps/signature/ab?regOTT=REDACTED&x=1")
        // `i` is the mpinId, the hex of a JSON object holding the e-mail: personal data.
        #expect(RedactingLogMiddleware.redact("/mpinActivate", "i=ab&e=1&s=sig") == "/mpinActivate?i=REDACTED&e=1&s=REDACTED")
        let mpinId = Hex.encode(Array(#"{"userID":"kim@example.com","mobile":0}"#.utf8))
        #expect(RedactingLogMiddleware.redact("/rps/timePermit/" + mpinId, nil) == "/rps/timePermit/REDACTED")
        #expect(RedactingLogMiddleware.redact("/rps/user/" + mpinId, nil) == "/rps/user/REDACTED")
        #expect(RedactingLogMiddleware.redact("/rps/pass1", nil) == "/rps/pass1")
        // The registration poll's 401 ("not activated yet", every 2 s) is routine: debug.
        #expect(RedactingLogMiddleware.level(path: "/rps/signature/" + mpinId, status: 401) == .debug)
        #expect(RedactingLogMiddleware.level(path: "/rps/signature/" + mpinId, status: 200) == .info)
        #expect(RedactingLogMiddleware.level(path: "/rps/pass2", status: 401) == .info)
        #expect(RedactingLogMiddleware.level(path: "/rps/access", status: 200) == .debug)
    }

    @Test func qrCodeMatrix() throws {
        let m = try #require(QRCodeSVG.matrix("http://127.0.0.1:8080/#1234560"))
        #expect(m.count >= 21 && m.count == m[0].count)
        // The finder pattern's corner is dark.
        #expect(m[0][0] && m[0][6] && !m[1][1] && m[2][2])
    }
}
