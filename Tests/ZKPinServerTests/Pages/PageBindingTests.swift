import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Issue 29, finding 6: whoever holds a page's webOTT used to get its result (the session
/// cookie, or the authorization code), and an OpenID Connect page's webOTT also worked at
/// `/session`. Now the completion needs the page-binding cookie of the browser that opened the
/// page (PageBinding), and a webOTT completes only what it was drawn for. A refused try consumes
/// nothing: the right browser still completes afterwards.
@Suite struct PageBindingTests {
    static let origin = "http://127.0.0.1:8080"

    /// A page the harness's browser opened: its webOTT, code and page-binding cookie.
    struct OpenedPage {
        var webOTT: String
        var code: String
        var cookie: (String, String)
        init(_ reply: Reply) throws {
            #expect(reply.status == 200, "\(reply.status)")
            webOTT = try #require(OIDCFlow.capture(#"id="webOTT" value="([0-9a-f]+)""#, in: reply.text))
            code = try #require(OIDCFlow.capture(#"id="code">([0-9]{7})<"#, in: reply.text))
            cookie = try #require(reply.pageCookie)
        }
    }

    /// `zkpin login` with the page's code while the page polls; the page token it then posts.
    static func logIn(_ t: any Transport, user: TestUser, page: OpenedPage) async throws -> String {
        async let login = user.pass12(t, wid: page.code, complete: true)
        var pageToken: String?
        for _ in 0..<200 {
            let s = try await t.json("POST", "/rps/access", AccessRequest(webOTT: page.webOTT)).json(AccessResponse.self)
            if s.status == .authenticate { pageToken = s.authOTT; break }
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(try await login.status == 200)
        return try #require(pageToken)
    }

    @Test func aSignInPageCompletesOnlyInTheBrowserThatOpenedIt() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "bound@example.com", pin: 1357, outbox: h.outbox)
            let laptop = try OpenedPage(try await t.get("/"))
            let fields = ["webOTT": laptop.webOTT, "authOTT": try await Self.logIn(t, user: user, page: laptop)]
            // A second browser with the page's tokens: without a cookie, and with its own.
            let bare = try await t.form("/session", fields, headers: [("Origin", Self.origin)])
            #expect(bare.status == 403 && bare.header("Set-Cookie") == nil, "\(bare.status)")
            #expect(bare.text.contains("browser that opened its page"), "\(bare.text.prefix(300))")
            let other = try OpenedPage(try await t.get("/"))
            #expect(other.cookie != laptop.cookie)
            let stranger = try await t.form("/session", fields, headers: [("Origin", Self.origin), other.cookie])
            #expect(stranger.status == 403 && stranger.header("Set-Cookie") == nil, "\(stranger.status)")
            // Nothing was consumed: the laptop that opened the page signs in.
            let own = try await t.form("/session", fields, headers: [("Origin", Self.origin), laptop.cookie])
            #expect(own.status == 303 && own.header("Location") == "/account", "\(own.status) \(own.text.prefix(300))")
        }
    }

    @Test func aWebOTTCompletesOnlyThePurposeItWasDrawnFor() async throws {
        let h = try await Harness.make()
        let (client, _) = try await OIDCFlow.addClient(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "purpose@example.com", pin: 2468, outbox: h.outbox)
            // An authorization page's webOTT at /session, from the very browser that opened it.
            let authorize = try OpenedPage(try await t.get(OIDCFlow.authorizePath(client: client.id)))
            let authorizeFields = ["webOTT": authorize.webOTT, "authOTT": try await Self.logIn(t, user: user, page: authorize)]
            let asSession = try await t.form("/session", authorizeFields, headers: [("Origin", Self.origin), authorize.cookie])
            #expect(asSession.status == 403 && asSession.header("Set-Cookie") == nil, "\(asSession.status)")
            let done = try await t.form("/oauth/authorize/complete", authorizeFields, headers: [("Origin", Self.origin), authorize.cookie])
            #expect(done.status == 303 && OIDCFlow.redirectItems(done)["code"] != nil, "\(done.status) \(done.text.prefix(300))")

            // A sign-in page's webOTT cannot complete an authorization (it used to sign the
            // browser in there, with the session it had consumed).
            let signIn = try OpenedPage(try await t.get("/"))
            let signInFields = ["webOTT": signIn.webOTT, "authOTT": try await Self.logIn(t, user: user, page: signIn)]
            let asAuthorize = try await t.form("/oauth/authorize/complete", signInFields, headers: [("Origin", Self.origin), signIn.cookie])
            #expect(asAuthorize.status == 403 && asAuthorize.header("Set-Cookie") == nil, "\(asAuthorize.status)")
            let own = try await t.form("/session", signInFields, headers: [("Origin", Self.origin), signIn.cookie])
            #expect(own.status == 303, "\(own.status)")
        }
    }

    @Test func theCookieIsHttpOnlyLaxAndSecureOverHTTPS() throws {
        let plain = PageBinding(
            config: ServerConfig(ServeOptions(), publicURL: "http://127.0.0.1:8080", curve: .bls12_381, webDirectory: nil),
            key: Array(repeating: 7, count: 32))
        let cookie = plain.cookie(Tokens.fresh())
        #expect(cookie.name == "zkpin-page" && cookie.httpOnly && cookie.sameSite == .lax && !cookie.secure)
        let tls = PageBinding(
            config: ServerConfig(ServeOptions(), publicURL: "https://id.example", curve: .bls12_381, webDirectory: nil),
            key: Array(repeating: 7, count: 32))
        let secure = tls.cookie(Tokens.fresh())
        #expect(secure.name == "__Host-zkpin-page" && secure.secure && secure.httpOnly && secure.path == "/")
    }
}
