import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// Someone who knows only an mpinId (it is in activation links and every pass 1) cannot take
/// the owner's pass-1 challenge, and no web page can make a browser call the JSON API.
@Suite struct StrangerPass2Tests {
    @Test func aStrangersPass2LoopTakesNoChallengeOfTheOwner() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let owner = try await TestUser.register(t, email: "rosa@example.com", pin: 1357, outbox: h.outbox)
            for round in 0..<20 {
                let state = try owner.suite.clientPass1(id: owner.id, token: owner.token, pin: owner.pin, timePermit: nil, date: 0)
                let p1 = try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: owner.mpinId, u: Hex.encode(state.u))).json(Pass1Response.self)
                // Between the owner's two passes: pass 2 without a challenge, and with a guessed one.
                let bare = try await t.send(
                    "POST", "/rps/pass2", headers: [("Content-Type", "application/json")],
                    body: Array(#"{"mpin_id": "\#(owner.mpinId)", "V": "00", "WID": "0", "pass": 2}"#.utf8))
                #expect(bare.status == 400 && bare.error?.message.contains("challenge is required") == true, "round \(round): \(bare.text)")
                let guessed = try await t.json(
                    "POST", "/rps/pass2",
                    Pass2Request(
                        mpinId: owner.mpinId, v: "00", wid: "0",
                        challenge: Tokens.fresh(bytes: 16)))
                #expect(guessed.status == 403 && guessed.error?.error == "no_challenge", "round \(round): \(guessed.text)")
                let v = try owner.suite.clientPass2(state, y: Hex.decode(p1.y)!)
                let r2 = try await t.json(
                    "POST", "/rps/pass2", Pass2Request(mpinId: owner.mpinId, v: Hex.encode(v), wid: "0", challenge: p1.challenge))
                #expect(r2.status == 200, "round \(round): \(r2.text)")
                let auth = try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try r2.json(Pass2Response.self).authOTT))
                #expect(auth.status == 200, "round \(round): \(auth.text)")
            }
            #expect(try await h.rp.store.identity(mpinId: owner.mpinId)?.failedAttempts == 0)
        }
    }

    @Test func jsonEndpointsRefuseOtherContentTypes() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let body = Array(#"{"mpin_id": "ab", "V": "00", "WID": "0", "challenge": "c", "pass": 2}"#.utf8)
            for contentType in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                for path in ["/rps/pass2", "/rps/pass1", "/rps/authenticate", "/rps/access"] {
                    let r = try await t.send("POST", path, headers: [("Content-Type", contentType)], body: body)
                    #expect(r.status == 415 && r.error != nil, "\(path) as \(contentType) → \(r.status) \(r.text)")
                }
            }
            let none = try await t.send("PUT", "/rps/user", headers: [], body: Array(#"{"userId": "a@example.com"}"#.utf8))
            #expect(none.status == 415)
            // With the charset parameter it is JSON all the same.
            let charset = try await t.send(
                "POST", "/rps/access", headers: [("Content-Type", "application/json; charset=utf-8")],
                body: Array(#"{"webOTT": "00"}"#.utf8))
            #expect(charset.status == 404)
        }
    }

    /// Finding 2: the activation form was parsed before the link was checked, so anyone could
    /// make the server parse large bodies. Now a forged link is refused before the body is read:
    /// an unreadable body with a forged link gets the link's refusal, and only the genuine link's
    /// request gets as far as the form (and its "not readable" answer).
    @Test func aForgedActivationLinkIsRefusedBeforeItsFormIsRead() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let registered = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "form@example.com"))
            let mpinId = try registered.json(RegisterResponse.self).mpinId
            let link = try Outbox.activationLink(in: h.outbox, to: "form@example.com")
            let path = String(link.dropFirst("http://127.0.0.1:8080".count))
            let forged = path.replacingOccurrences(of: "&s=", with: "&s=00")
            let unreadable = Array(("code=" + String(repeating: "%ZZ", count: 5_000)).utf8)
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let refused = try await t.send("POST", forged, headers: form, body: unreadable)
            #expect(refused.status == 400 && refused.text.contains("id=\"refused\""), "\(refused.status) \(refused.text.prefix(300))")
            let read = try await t.send("POST", path, headers: form, body: unreadable)
            #expect(read.status == 400 && !read.text.contains("id=\"refused\""), "\(read.status) \(read.text.prefix(300))")
            #expect(read.text.contains("not readable") || read.text.contains("id=\"wrong\""), "\(read.text.prefix(300))")
            // Nothing was activated by either.
            #expect(try await h.rp.store.registration(mpinId: mpinId)?.activated == nil)
        }
    }
}
