import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// The admin page (`--admins`): a visitor is sent to sign in and back, a person who is not an
/// administrator gets 403, and every change asks first, then needs the same origin and the
/// session's CSRF token. tools/admin-page-test runs it in Chromium.
@Suite struct AdminPageTests {
    static let origin = "http://zkpin.example.com"

    static func harness() async throws -> Harness {
        try await Harness.make {
            $0.admins = "Ada@Example.com"
            $0.publicURL = Self.origin
        }
    }

    /// The session cookie of `user`, signed in from the sign-in page with `rd`.
    static func session(_ t: any Transport, _ user: TestUser, rd: String? = nil) async throws -> (cookie: (String, String), location: String?) {
        let (_, answer) = try await ForwardAuthTests.signIn(t, user, rd: rd)
        let setCookie = try #require(answer.header("Set-Cookie"))
        return (("Cookie", String(setCookie.split(separator: ";")[0])), answer.header("Location"))
    }

    static func csrf(_ page: Reply) throws -> String {
        String(try #require(page.text.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)).1)
    }

    @Test func onlyAdministratorsAndOnlyTheirOwnForms() async throws {
        let h = try await Self.harness()
        try await h.run { t in
            let ada = try await TestUser.register(t, email: "ada@example.com", pin: 1357, outbox: h.outbox)
            let kim = try await TestUser.register(t, email: "kim@example.com", pin: 2468, outbox: h.outbox)
            for pin in [1111, 2222, 3333] { _ = try await kim.login(t, pin: pin) }  // blocked

            // Nobody signed in: to the sign-in page, which returns to the admin page.
            let anonymous = try await t.get("/admin/audit?kind=login", headers: [("Accept", "text/html")])
            #expect(anonymous.status == 303 && anonymous.header("Location") == "/?rd=%2Fadmin%2Faudit%3Fkind%3Dlogin", "\(anonymous.status)")
            let (adminCookie, back) = try await Self.session(t, ada, rd: "/admin/audit?kind=login")
            #expect(back == "/admin/audit?kind=login")
            // Only this server's /admin paths: another path or host is dropped.
            let (_, elsewhere) = try await Self.session(t, ada, rd: "//evil.example/admin")
            #expect(elsewhere == "/account")

            // Someone else signed in: 403, and the page says who they are.
            let (kimCookie, _) = try await Self.session(t, try await TestUser.register(t, email: "lee@example.com", pin: 4242, outbox: h.outbox))
            let refused = try await t.get("/admin", headers: [kimCookie, ("Accept", "text/html")])
            #expect(refused.status == 403 && refused.text.contains("lee@example.com"), "\(refused.text)")

            // The administrator: search, the person, the blocked identity.
            let found = try await t.get("/admin?q=KIM", headers: [adminCookie])
            #expect(found.status == 200 && found.text.contains("/admin/people/kim@example.com"), "\(found.text)")
            let person = try await t.get("/admin/people/kim@example.com", headers: [adminCookie])
            #expect(person.status == 200 && person.text.contains(">blocked<") && person.text.contains("wrong_pin"), "\(person.text)")
            let token = try Self.csrf(person)

            // Changes: the session's token and the same origin, else 403 and nothing changes.
            let path = "/admin/people/kim@example.com/unblock"
            let noToken = try await t.form(path, ["confirm": "yes"], headers: [adminCookie, ("Origin", Self.origin)])
            let otherToken = try await t.form(
                path, ["confirm": "yes", "csrf": String(repeating: "0", count: 64)], headers: [adminCookie, ("Origin", Self.origin)])
            let crossSite = try await t.form(path, ["confirm": "yes", "csrf": token], headers: [adminCookie, ("Origin", "https://evil.example")])
            let kimsSession = try await t.form(path, ["confirm": "yes", "csrf": token], headers: [kimCookie, ("Origin", Self.origin)])
            let nobody = try await t.form(path, ["confirm": "yes", "csrf": token], headers: [("Origin", Self.origin)])
            for (why, reply) in [
                ("no token", noToken), ("another token", otherToken), ("cross-site", crossSite), ("not an admin", kimsSession), ("no session", nobody)
            ] {
                #expect(reply.status == 403, "\(why): \(reply.status) \(reply.text)")
            }
            #expect(try await h.rp.store.identities(userId: "kim@example.com").allSatisfy { $0.state == .blocked })

            // The question first, then the change.
            let question = try await t.form(path, ["csrf": token], headers: [adminCookie, ("Origin", Self.origin)])
            #expect(question.status == 200 && question.text.contains("Unblock kim@example.com?"), "\(question.text)")
            #expect(try await h.rp.store.identities(userId: "kim@example.com").allSatisfy { $0.state == .blocked })
            let done = try await t.form(path, ["csrf": token, "confirm": "yes"], headers: [adminCookie, ("Origin", Self.origin)])
            #expect(done.status == 303 && done.header("Location") == "/admin/people/kim@example.com?done=unblock&count=1")
            #expect(try await h.rp.store.identities(userId: "kim@example.com").allSatisfy { $0.state == .active })
            #expect(try await kim.login(t).status == 200)
            let revoke = try await t.form(
                "/admin/people/kim@example.com/revoke", ["csrf": token, "confirm": "yes"], headers: [adminCookie, ("Origin", Self.origin)])
            #expect(revoke.status == 303)
            #expect(try await h.rp.store.identities(userId: "kim@example.com").allSatisfy { $0.state == .revoked })
            let audit = try await h.rp.store.auditLog(limit: 100)
            #expect(audit.contains { $0.kind == "revoke" && $0.detail.contains("admin page: ada@example.com") })

            // The audit log with filters; a bad day is said, not guessed.
            let filtered = try await t.get("/admin/audit?kind=revoke,unblock&email=kim@example.com", headers: [adminCookie])
            #expect(
                filtered.status == 200 && filtered.text.contains(">revoke<") && filtered.text.contains(">unblock<")
                    && !filtered.text.contains(">login<"))
            #expect(try await t.get("/admin/audit?since=2026-13-45", headers: [adminCookie]).status == 400)
            #expect(try await t.get("/admin/people/nobody@example.com", headers: [adminCookie]).status == 404)
        }
    }

    @Test func aClientsSecretIsRotatedAfterTheQuestionAndShownOnce() async throws {
        let h = try await Self.harness()
        try await h.run { t in
            let ada = try await TestUser.register(t, email: "ada@example.com", pin: 1357, outbox: h.outbox)
            let (client, secret) = try await ClientRegistry.add(
                to: h.rp.store, name: "Gateway", redirectURIs: [], postLogoutURIs: [], isPublic: false, introspect: true, now: h.clock.now)
            let (cookie, _) = try await Self.session(t, ada)
            let list = try await t.get("/admin/clients", headers: [cookie])
            #expect(list.status == 200 && list.text.contains(client.id) && list.text.contains("Gateway"))
            let token = try Self.csrf(list)
            let path = "/admin/clients/\(client.id)/secret"
            let question = try await t.form(path, ["csrf": token], headers: [cookie, ("Origin", Self.origin)])
            #expect(question.text.contains("Give Gateway (\(client.id)) a new secret?"))
            let shown = try await t.form(path, ["csrf": token, "confirm": "yes"], headers: [cookie, ("Origin", Self.origin)])
            let fresh = String(try #require(shown.text.firstMatch(of: /id="secret">([0-9a-f]+)</)).1)
            #expect(shown.status == 200 && shown.header("Cache-Control") == "no-store" && fresh != secret)
            let flow = OIDCFlow(t: t)
            #expect(try await flow.post("/oauth/introspect", ["token": "x"], basic: (client.id, try #require(secret))).status == 401)
            #expect(try await flow.post("/oauth/introspect", ["token": "x"], basic: (client.id, fresh)).status == 200)
            let crossSite = try await t.form(path, ["csrf": token, "confirm": "yes"], headers: [cookie, ("Origin", "https://evil.example")])
            #expect(crossSite.status == 403)
        }
    }
}
