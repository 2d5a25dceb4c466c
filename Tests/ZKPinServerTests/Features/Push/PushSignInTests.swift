import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Push sign-in with number matching: the page asks for a request to the devices of an e-mail
/// address, a subscribed device is told (a Web Push message the test push service decrypts),
/// lists the three numbers and answers; the page's number signs the page in with its code, any
/// other number or "Not me" denies the page. An address nobody registered gets the same answer
/// and limits; a fourth waiting request (push sign-in or a site's approval) is refused.
@Suite(.enabled(if: PythonWebPush.available, "python3 with cryptography and PyJWT is needed (tools/test installs them)"))
struct PushSignInTests {
    struct Page {
        let code: String
        let webOTT: String
    }

    static func page(_ t: any Transport) async throws -> Page {
        let a = try await t.json("POST", "/rps/getAccessNumber", [String: String]()).json(AccessNumberResponse.self)
        return Page(code: a.accessNumber, webOTT: a.webOTT)
    }

    static func ask(_ t: any Transport, _ page: Page, _ email: String) async throws -> Reply {
        try await t.json("POST", "/rps/push/signin", PushSignInRequest(webOTT: page.webOTT, userId: email))
    }

    static func pending(_ t: any Transport, _ user: TestUser) async throws -> [PushSignInView] {
        let r = try await t.json("POST", "/rps/push/signin/pending", PushListRequest(mpinId: user.mpinId, holder: user.registrationHolder ?? ""))
        #expect(r.status == 200, "\(r.text)")
        return try r.json(PushSignInList.self).requests
    }

    static func answer(_ t: any Transport, _ user: TestUser, _ id: String, choice: Int? = nil, notMe: Bool? = nil) async throws -> Reply {
        try await t.json(
            "POST", "/rps/push/signin/answer",
            PushSignInAnswerRequest(mpinId: user.mpinId, holder: user.registrationHolder ?? "", id: id, choice: choice, notMe: notMe))
    }

    static func status(_ t: any Transport, _ page: Page) async throws -> AccessResponse {
        try await t.json("POST", "/rps/access", AccessRequest(webOTT: page.webOTT)).json(AccessResponse.self)
    }

    /// The devices are told in the background: waits until `count` messages are queued.
    static func queued(_ h: Harness, _ count: Int) async throws -> Bool {
        for _ in 0..<200 {
            if try await h.rp.store.queuedPushDeliveries() >= count { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    static func kinds(_ h: Harness, _ email: String) async throws -> [String] {
        try await h.rp.store.auditLog(AuditQuery(userId: email)).map(\.kind)
    }

    @Test func theRightNumberSignsThePageInWithItsCode() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await PushFlowTests.harness(peer)
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let device = try await peer.subscribe()
            #expect(try await PushFlowTests.subscribe(t, alice, device).status == 200)
            let page = try await Self.page(t)
            let asked = try await Self.ask(t, page, "Alice@Example.com")
            #expect(asked.status == 200, "\(asked.text)")
            let started = try asked.json(PushSignInStarted.self)
            #expect((10...99).contains(started.number))

            #expect(try await Self.queued(h, 1))
            #expect(try await h.assembly.background.deliverPushMessages() == 1)
            let message = try #require(try await peer.messages(device.id).first?.payload)
            let payload = try JSONDecoder().decode(PushPayload.self, from: Data(message.utf8))
            #expect(payload.kind == "signin" && payload.site == "ZKPin" && payload.expires == started.expires, "\(message)")
            // The numbers are fetched with the holder proof, never carried by the message.
            #expect(payload.message == nil && !message.contains("choices") && !message.contains("number"), "\(message)")

            let waiting = try await Self.pending(t, alice)
            #expect(waiting.count == 1 && waiting[0].id == payload.id)
            #expect(Set(waiting[0].choices).count == 3 && waiting[0].choices.contains(started.number), "\(waiting)")
            let answered = try await Self.answer(t, alice, try #require(payload.id), choice: started.number)
            #expect(try answered.json(PushSignInAnswer.self) == PushSignInAnswer(outcome: "matched", accessCode: page.code))
            // Answered once: a second answer finds nothing.
            #expect(try await Self.answer(t, alice, try #require(payload.id), choice: started.number).status == 404)
            #expect(try await Self.pending(t, alice).isEmpty)

            // The device signs the page in with that code, as with a scanned one.
            let pass2 = try await alice.pass12(t, wid: page.code)
            #expect(pass2.status == 200, "\(pass2.text)")
            // /rps/authenticate answers once the page's poll took the login up, as a browser's does.
            let authOTT = try pass2.json(Pass2Response.self).authOTT
            async let auth = t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: authOTT))
            var seen = AccessStatus.user
            for _ in 0..<100 where seen != .authenticate {
                seen = try await Self.status(t, page).status
                if seen != .authenticate { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(seen == .authenticate)
            let answer = try await auth
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try await Self.kinds(h, "alice@example.com").contains("push_signin_matched"))
        }
    }

    @Test func aWrongNumberDeniesThePageAndIsAudited() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await PushFlowTests.harness(peer)
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let page = try await Self.page(t)
            let started = try await Self.ask(t, page, "alice@example.com").json(PushSignInStarted.self)
            let request = try #require(try await Self.pending(t, alice).first)
            let wrong = try #require(request.choices.first { $0 != started.number })
            #expect(try await Self.answer(t, alice, request.id, choice: wrong).json(PushSignInAnswer.self).outcome == "denied")
            #expect(try await Self.status(t, page).status == .denied)
            // The denied code cannot be used any more.
            let presented = try await t.json("POST", "/rps/codeStatus", CodeStatusRequest(wid: page.code))
            #expect(presented.status == 412, "\(presented.text)")
            let denied = try #require(
                try await h.rp.store.auditLog(AuditQuery(userId: "alice@example.com")).first { $0.kind == "push_signin_denied" })
            #expect(denied.detail.contains("chose \(wrong)") && denied.mpinId == alice.mpinId, "\(denied)")
            #expect(try await t.get("/metrics").text.contains("zkpin_push_signins_denied_total 1"))
            // Neither field, or both: 400. Someone else's request: 404.
            #expect(try await Self.answer(t, alice, request.id).status == 400)
            #expect(try await Self.answer(t, alice, request.id, choice: wrong, notMe: true).status == 400)
            let bob = try await TestUser.register(t, email: "bob@example.com", pin: 2468, outbox: h.outbox)
            let other = try await Self.page(t)
            _ = try await Self.ask(t, other, "alice@example.com")
            let alices = try #require(try await Self.pending(t, alice).first)
            #expect(try await Self.answer(t, bob, alices.id, choice: alices.choices[0]).status == 404)
        }
    }

    @Test func anAddressNobodyRegisteredGetsTheSameAnswer() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await PushFlowTests.harness(peer)
        try await h.run { t in
            let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            #expect(try await PushFlowTests.subscribe(t, alice, try await peer.subscribe()).status == 200)
            let known = try await Self.ask(t, try await Self.page(t), "alice@example.com")
            let unknown = try await Self.ask(t, try await Self.page(t), "nobody@example.com")
            #expect(known.status == 200 && unknown.status == 200)
            func keys(_ r: Reply) throws -> [String] {
                try (JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any] ?? [:]).keys.sorted()
            }
            #expect(try keys(known) == keys(unknown) && keys(known) == ["expires", "number"])
            #expect(try await Self.queued(h, 1))
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await h.rp.store.queuedPushDeliveries() == 1, "only the registered address's device is told")
            // Malformed: 400; a page that is not waiting: 404 or 412.
            let page = try await Self.page(t)
            #expect(try await Self.ask(t, page, "not an address").status == 400)
            #expect(try await Self.ask(t, Page(code: page.code, webOTT: String(repeating: "ab", count: 16)), "alice@example.com").status == 404)
            #expect(try await t.json("POST", "/rps/push/signin", ["webOTT": page.webOTT]).status == 400)
        }
    }

    @Test func aFourthWaitingRequestIsRefusedKnownOrNot() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        let h = try await PushFlowTests.harness(peer)
        let site = try await BackchannelRequestTests.addSite(h)
        try await h.run { t in
            _ = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            for email in ["alice@example.com", "nobody@example.com"] {
                h.clock.advance(601)  // a fresh window of the per-address limit for each address
                var pages: [Page] = []
                for _ in 0..<3 {
                    let page = try await Self.page(t)
                    #expect(try await Self.ask(t, page, email).status == 200)
                    pages.append(page)
                }
                // The same page asking again replaces its own request.
                #expect(try await Self.ask(t, pages[0], email).status == 200)
                let fourth = try await Self.ask(t, try await Self.page(t), email)
                #expect(fourth.status == 429 && fourth.text.contains("3 sign-in requests already wait"), "\(email): \(fourth.text)")
                // A site's approvals: three wait, the fourth is access_denied, known or not.
                var ask = BackchannelRequestTests.payment
                ask["login_hint"] = email
                for _ in 0..<3 { #expect(try await BackchannelRequestTests.ask(t, site, ask).status == 200) }
                let refused = try await BackchannelRequestTests.ask(t, site, ask)
                #expect(refused.status == 403 && refused.text.contains("access_denied"), "\(email): \(refused.text)")
            }
        }
    }

    @Test func notMeDeniesMailsTheOwnerAndMayBlock() async throws {
        let peer = try PushServicePeer()
        defer { peer.stop() }
        for blocks in [false, true] {
            let h = try await Harness.make {
                $0.pushServices = peer.origin
                $0.notMeBlocks = blocks
            }
            try await h.run { t in
                let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
                let page = try await Self.page(t)
                _ = try await Self.ask(t, page, "alice@example.com")
                let request = try #require(try await Self.pending(t, alice).first)
                let answered = try await Self.answer(t, alice, request.id, notMe: true)
                #expect(try answered.json(PushSignInAnswer.self) == PushSignInAnswer(outcome: "not_me", blocked: blocks), "\(answered.text)")
                #expect(try await Self.status(t, page).status == .denied)
                #expect(try await Self.kinds(h, "alice@example.com").contains("push_signin_not_me"))
                #expect(try await t.get("/metrics").text.contains("zkpin_not_me_total 1"))
                let login = try await alice.login(t)
                #expect(login.status == (blocks ? 410 : 200), "\(login.text)")
                let mail = try await Outbox.mail(in: h.outbox, containing: "Not me")
                #expect(
                    mail.contains("A request you did not make was denied") && mail.contains("sign in to ZKPin as alice@example.com")
                        && mail.contains("blocked until") == blocks, "\(mail)")
            }
        }
    }
}
