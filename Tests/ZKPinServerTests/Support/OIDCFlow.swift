import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// The browser's and the relying party's side of an OpenID Connect login, in process.
struct OIDCFlow {
    static let origin = "http://127.0.0.1:8080"
    static let callback = "https://wiki.example/oidc/callback"
    static let bye = "https://wiki.example/bye"

    let t: any Transport
    /// The page's origin (the server's public URL) for the same-origin post.
    var pageOrigin = OIDCFlow.origin

    static func addClient(_ h: Harness, name: String = "Wiki", isPublic: Bool = false) async throws -> (OIDCClient, String?) {
        try await ClientRegistry.add(
            to: h.rp.store, name: name, redirectURIs: [callback], postLogoutURIs: [bye], isPublic: isPublic,
            now: h.clock.now)
    }

    static func query(_ items: [String: String]) -> String {
        items.sorted { $0.key < $1.key }.map { "\($0.key)=\(RedirectURL.encode($0.value))" }.joined(separator: "&")
    }

    static func authorizePath(client: String, extra: [String: String] = [:]) -> String {
        var items = [
            "client_id": client, "redirect_uri": callback, "response_type": "code", "scope": "openid email",
            "state": "st-1", "nonce": "n-1"
        ]
        for (k, v) in extra { items[k] = v }
        return "/oauth/authorize?" + query(items.filter { !$0.value.isEmpty })
    }

    /// The query items of a redirect's Location.
    static func redirectItems(_ reply: Reply) -> [String: String] {
        guard let location = reply.header("Location"), let url = URLComponents(string: location) else { return [:] }
        var out: [String: String] = [:]
        for item in url.queryItems ?? [] { out[item.name] = item.value ?? "" }
        return out
    }

    static func capture(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let m = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let r = Range(m.range(at: 1), in: text)
        else { return nil }
        return String(text[r])
    }

    /// The page of an authorization request, signed in by `user` with `zkpin login` on its code;
    /// returns the page's final redirect (to the client) and the ZKPin cookie.
    func signIn(page: Reply, user: TestUser, action: String = "/oauth/authorize/complete") async throws -> (redirect: Reply, cookie: String) {
        let webOTT = try #require(Self.capture(#"id="webOTT" value="([0-9a-f]+)""#, in: page.text))
        let code = try #require(Self.capture(#"id="code">([0-9]{7})<"#, in: page.text))
        let r2 = try await user.pass12(t, wid: code)
        #expect(r2.status == 200, "\(r2.text)")
        let authOTT = try r2.json(Pass2Response.self).authOTT
        async let answer = t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: authOTT))
        var pageToken: String? = nil
        for _ in 0..<100 {
            let s = try await t.json("POST", "/rps/access", AccessRequest(webOTT: webOTT)).json(AccessResponse.self)
            if s.status == .authenticate { pageToken = s.authOTT; break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await answer.status == 200)
        let fields = ["webOTT": webOTT, "authOTT": try #require(pageToken)]
        // The browser that opened the page completes it (its page-binding cookie).
        let done = try await t.form(action, fields, headers: [("Origin", pageOrigin), try #require(page.pageCookie)])
        let setCookie = try #require(done.header("Set-Cookie"))
        return (done, String(setCookie.split(separator: ";")[0]))
    }

    func token(_ fields: [String: String], basic: (String, String)? = nil) async throws -> Reply {
        try await post("/oauth/token", fields, basic: basic)
    }

    /// A client-authenticated form post (token, revoke, introspect).
    func post(_ path: String, _ fields: [String: String], basic: (String, String)? = nil) async throws -> Reply {
        var headers: [(String, String)] = []
        if let (id, secret) = basic {
            headers.append(("Authorization", "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()))
        }
        return try await t.form(path, fields, headers: headers)
    }
}
