import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Forward authentication (`/auth/verify`, `--forward-auth`, `--cookie-domain`, the sign-in
/// page's `rd`): what nginx, Caddy and Traefik get for each kind of visitor, and that a sign-in
/// returns only to a protected host. tools/forward-auth-test runs the real proxies.
@Suite struct ForwardAuthTests {
    static let rules = "app.example.com=@example.com|carol@other.org,wiki.example.com=*"

    static func harness(cookieDomain: String? = nil, publicURL: String = "http://zkpin.example.com") async throws -> Harness {
        try await Harness.make {
            $0.forwardAuth = Self.rules
            $0.cookieDomain = cookieDomain
            $0.publicURL = publicURL
        }
    }

    /// Signs a browser in with `user` from the sign-in page opened with `rd`; the /session answer.
    static func signIn(_ t: any Transport, _ user: TestUser, rd: String?) async throws -> (page: String, session: Reply) {
        let path = "/" + (rd.map { "?rd=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? "")
        let page = try await t.get(path, headers: [("Accept", "text/html")])
        let browser = try #require(page.pageCookie)
        let webOTT = try #require(page.text.firstMatch(of: /name="webOTT" id="webOTT" value="([0-9a-f]+)"/)).1
        let code = try #require(page.text.firstMatch(of: /id="code">([0-9]{7})</)).1
        let action = try #require(page.text.firstMatch(of: /form id="session" method="post" action="([^"]+)"/)).1
        let r2 = try await user.pass12(t, wid: String(code))
        let authOTT = try r2.json(Pass2Response.self).authOTT
        async let answer = t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: authOTT))
        var taken: AccessResponse?
        for _ in 0..<100 where taken == nil {
            let s = try await t.json("POST", "/rps/access", AccessRequest(webOTT: String(webOTT))).json(AccessResponse.self)
            if s.status == .authenticate { taken = s } else { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(try await answer.status == 200)
        let session = try await t.form(
            String(action).replacingOccurrences(of: "&amp;", with: "&"),
            ["webOTT": String(webOTT), "authOTT": try #require(taken?.authOTT)], headers: [("Origin", "http://zkpin.example.com"), browser])
        return (page.text, session)
    }

    static func verify(_ t: any Transport, _ headers: [(String, String)]) async throws -> Reply {
        try await t.get("/auth/verify", headers: headers)
    }

    @Test func theRulesParseAndDenyByDefault() throws {
        let rules = try ForwardAuthRules(parsing: Self.rules)
        #expect(rules.allows("ann@example.com", on: "app.example.com") && rules.allows("Carol@Other.org", on: "app.example.com"))
        #expect(!rules.allows("bob@other.org", on: "app.example.com") && !rules.allows("ann@example.com.evil", on: "app.example.com"))
        #expect(rules.allows("anyone@anywhere.net", on: "wiki.example.com"))
        #expect(!rules.allows("ann@example.com", on: "other.example.com"), "a host no rule names is refused")
        for bad in ["", "app.example.com", "app.example.com=", "app.example.com=bob", "a b=*", "x=@", "app.example.com=*|@bad domain"] {
            #expect(throws: ForwardAuthRules.Invalid.self, "\(bad)") { try ForwardAuthRules(parsing: bad) }
        }
    }

    @Test func eachVisitorGetsWhatTheProxyExpects() async throws {
        let h = try await Self.harness()
        try await h.run { t in
            let ann = try await TestUser.register(t, email: "ann@example.com", pin: 2468, outbox: h.outbox)
            let bob = try await TestUser.register(t, email: "bob@other.org", pin: 1357, outbox: h.outbox)
            let original = "http://app.example.com/wiki/page?x=1&y=2"
            // Not signed in: nginx (X-Original-URL) gets 401, Caddy and Traefik (X-Forwarded-*)
            // a 302; both name the sign-in page that returns to the original address.
            let nginx = try await Self.verify(t, [("X-Original-URL", original)])
            let caddy = try await Self.verify(
                t, [("X-Forwarded-Proto", "http"), ("X-Forwarded-Host", "app.example.com"), ("X-Forwarded-Uri", "/wiki/page?x=1&y=2")])
            let signIn = "http://zkpin.example.com/?rd=" + (original.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            #expect(nginx.status == 401 && nginx.header("Location") == signIn, "\(nginx.status) \(nginx.header("Location") ?? "")")
            #expect(caddy.status == 302 && caddy.header("Location") == signIn)
            #expect(try await Self.verify(t, []).status == 400)
            #expect(try await Self.verify(t, [("X-Original-URL", "http://other.example.com/")]).status == 403)

            // Signed in from that sign-in page: back to the original address, then 200 with
            // the person's headers on every check.
            let (page, session) = try await Self.signIn(t, ann, rd: original)
            #expect(page.contains("action=\"/session?rd="), "the form carries the return address")
            #expect(session.status == 303 && session.header("Location") == original, "\(session.status) \(session.header("Location") ?? "")")
            let cookie = String(try #require(session.header("Set-Cookie")).split(separator: ";")[0])
            let allowed = try await Self.verify(t, [("X-Original-URL", original), ("Cookie", cookie)])
            #expect(
                allowed.status == 200 && allowed.header("Remote-User") == "ann@example.com" && allowed.header("Remote-Email") == "ann@example.com")
            #expect(try await Self.verify(t, [("X-Original-URL", "http://wiki.example.com/"), ("Cookie", cookie)]).status == 200)

            // Someone the host's rule does not name: 403 there, 200 where anyone may enter.
            let (_, bobs) = try await Self.signIn(t, bob, rd: nil)
            #expect(bobs.header("Location") == "/account")
            let bobCookie = String(try #require(bobs.header("Set-Cookie")).split(separator: ";")[0])
            #expect(try await Self.verify(t, [("X-Original-URL", original), ("Cookie", bobCookie)]).status == 403)
            #expect(try await Self.verify(t, [("X-Original-URL", "http://wiki.example.com/"), ("Cookie", bobCookie)]).status == 200)

            // Revoked: the next check is 401. Signed out: the same.
            #expect(try await h.rp.store.revoke(userId: "ann@example.com") == 1)
            #expect(try await Self.verify(t, [("X-Original-URL", original), ("Cookie", cookie)]).status == 401)
            let out = try await t.send("POST", "/logout", headers: [("Origin", "http://zkpin.example.com"), ("Cookie", bobCookie)], body: nil)
            #expect(out.status == 303)
            #expect(try await Self.verify(t, [("X-Original-URL", "http://wiki.example.com/"), ("Cookie", bobCookie)]).status == 401)
        }
    }

    @Test func aSignInReturnsOnlyToAProtectedHost() async throws {
        let h = try await Self.harness()
        try await h.run { t in
            let ann = try await TestUser.register(t, email: "ann@example.com", pin: 2468, outbox: h.outbox)
            for rd in ["http://evil.example/x", "javascript:alert(1)", "//evil.example/", "http://user@app.example.com/", "/account/../x"] {
                let (page, session) = try await Self.signIn(t, ann, rd: rd)
                #expect(!page.contains("?rd="), "\(rd) reached the form")
                #expect(session.header("Location") == "/account", "\(rd): \(session.header("Location") ?? "")")
            }
            // A return address added to the form by hand is checked again at /session.
            let forged = try await t.form(
                "/session?rd=" + ("http://evil.example/".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                ["webOTT": String(repeating: "a", count: 64), "authOTT": String(repeating: "b", count: 64)],
                headers: [("Origin", "http://zkpin.example.com")])
            #expect(forged.status != 303 || forged.header("Location") != "http://evil.example/")
        }
    }

    @Test func theCookieDomainIsSharedAndMustContainTheServer() async throws {
        let h = try await Self.harness(cookieDomain: "example.com")
        try await h.run { t in
            let ann = try await TestUser.register(t, email: "ann@example.com", pin: 2468, outbox: h.outbox)
            let (_, session) = try await Self.signIn(t, ann, rd: nil)
            let cookie = try #require(session.header("Set-Cookie")).lowercased()
            #expect(cookie.hasPrefix("zkpin=") && cookie.contains("domain=example.com") && cookie.contains("httponly"), "\(cookie)")
        }
        let secure = SessionCookie(config: try await Self.harness(cookieDomain: "example.com", publicURL: "https://zkpin.example.com").rp.config)
        #expect(secure.name == "__Secure-zkpin" && secure.domain == "example.com")
        #expect(SessionCookie(config: try await Harness.make { $0.publicURL = "https://zkpin.example.com" }.rp.config).name == "__Host-zkpin")
        await #expect(throws: SetupError.self) { _ = try await Self.harness(cookieDomain: "other.org") }
    }
}
