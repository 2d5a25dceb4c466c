import Foundation
import Testing
import ZKPinTestSupport
import ZKPinWire

@testable import ZKPinServer

/// The OpenID Connect provider in process: discovery, every error of RFC 6749 4.1.2.1 and 5.2,
/// the code flow with client_secret_basic, client_secret_post and PKCE (RFC 7636 appendix B),
/// code reuse, sessions, max_age, prompt, userinfo and logout. ID tokens are checked by PyJWT.
@Suite struct OIDCTests {
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    /// RFC 7636 appendix B's code_challenge (checked against Python's hashlib too).
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test func pkceVectorOfRFC7636AppendixB() {
        #expect(PKCE.challenge(verifier: Self.verifier) == Self.challenge)
        #expect(PKCE.matches(verifier: Self.verifier, challenge: Self.challenge))
        #expect(!PKCE.matches(verifier: Self.verifier + "x", challenge: Self.challenge))
        #expect(!PKCE.isWellFormed("short") && !PKCE.isWellFormed(String(repeating: "a", count: 129)))
        #expect(!PKCE.isWellFormed(String(repeating: "a", count: 42) + "+"))
    }

    /// The person's client learns the site it signs in to from `POST /rps/codeStatus`, so the
    /// terminal can name it ("Signing in to Wiki"); the service's own login page names none
    /// (issue 28, finding 7).
    @Test func codeStatusNamesTheSiteOfAnOpenIDConnectSignIn() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let (client, _) = try await OIDCFlow.addClient(h, name: "Team Wiki")
            let page = try await t.get(OIDCFlow.authorizePath(client: client.id))
            #expect(page.status == 200)
            let code = try #require(OIDCFlow.capture(#"id="code">([0-9]{7})<"#, in: page.text))
            let scanned = try await t.json("POST", "/rps/codeStatus", CodeStatusRequest(wid: code))
            #expect(scanned.status == 200, "\(scanned.text)")
            #expect(try scanned.json(CodeStatusResponse.self).clientName == "Team Wiki", "\(scanned.text)")

            let own = try await t.get("/")
            let ownCode = try #require(OIDCFlow.capture(#"id="code">([0-9]{7})<"#, in: own.text))
            let plain = try await t.json("POST", "/rps/codeStatus", CodeStatusRequest(wid: ownCode))
            #expect(plain.status == 200)
            #expect(try plain.json(CodeStatusResponse.self).clientName == nil, "\(plain.text)")
        }
    }

    @Test func discoveryAndKeys() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let d = try await t.get("/.well-known/openid-configuration")
            #expect(d.status == 200)
            let meta = try d.json(ProviderMetadata.self)
            #expect(meta.issuer == "http://127.0.0.1:8080")
            #expect(meta.authorization_endpoint == "http://127.0.0.1:8080/oauth/authorize")
            #expect(meta.jwks_uri == "http://127.0.0.1:8080/oauth/jwks" && meta.end_session_endpoint == "http://127.0.0.1:8080/oauth/logout")
            #expect(meta.code_challenge_methods_supported == ["S256"] && meta.id_token_signing_alg_values_supported == ["ES256", "RS256"])
            let jwks = try await t.get("/oauth/jwks").json(JWKSet.self)
            #expect(jwks.keys.map(\.alg) == ["ES256", "RS256"])
            #expect(jwks.keys[0].kty == "EC" && jwks.keys[0].crv == "P-256" && jwks.keys[0].x != nil && jwks.keys[0].n == nil)
            #expect(jwks.keys[1].kty == "RSA" && jwks.keys[1].e == "AQAB" && (jwks.keys[1].n?.count ?? 0) == 342 && jwks.keys[1].x == nil)
        }
        // The key file is private and survives a restart (same kid).
        let path = h.dir + "/" + SigningKey.fileName
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600)
        let rsaMode = (try FileManager.default.attributesOfItem(atPath: h.dir + "/oidc-rs256.key")[.posixPermissions] as? Int) ?? 0
        #expect(rsaMode == 0o600)
        let a = try SigningKey.loadOrCreate(dataDirectory: h.dir), b = try SigningKey.loadOrCreate(dataDirectory: h.dir)
        #expect(a.kid == b.kid && a.jwk.x == b.jwk.x)
        let r1 = try SigningKey.loadOrCreate(dataDirectory: h.dir, algorithm: .rs256)
        let r2 = try SigningKey.loadOrCreate(dataDirectory: h.dir, algorithm: .rs256)
        #expect(r1.kid == r2.kid && r1.jwk.n == r2.jwk.n)
    }

    @Test func unknownClientOrRedirectIsAPageNeverARedirect() async throws {
        let h = try await Harness.make()
        let (client, _) = try await OIDCFlow.addClient(h)
        try await h.run { t in
            let cases = [
                OIDCFlow.authorizePath(client: "zk-unknown"),
                OIDCFlow.authorizePath(client: ""),
                OIDCFlow.authorizePath(client: client.id, extra: ["redirect_uri": "https://evil.example/cb"]),
                OIDCFlow.authorizePath(client: client.id, extra: ["redirect_uri": OIDCFlow.callback + "/x"]),
                OIDCFlow.authorizePath(client: client.id, extra: ["redirect_uri": ""]),
                OIDCFlow.authorizePath(client: client.id) + "&client_id=\(client.id)"  // given twice
            ]
            for path in cases {
                let r = try await t.get(path)
                #expect(r.status == 400, "\(path)")
                #expect(r.header("Location") == nil, "\(path)")
                #expect(r.header("Content-Type")?.hasPrefix("text/html") == true)
            }
            #expect(try await t.get(OIDCFlow.authorizePath(client: "zk-unknown")).text.contains("not registered"))
        }
        #expect(try await h.rp.store.auditLog(limit: 50).contains { $0.kind == "oidc_refused" })
    }

    @Test func requestErrorsAreRedirectedWithStateAndIssuer() async throws {
        let h = try await Harness.make()
        let (client, _) = try await OIDCFlow.addClient(h)
        let (app, _) = try await OIDCFlow.addClient(h, name: "App", isPublic: true)
        try await h.run { t in
            let cases: [(String, [String: String], String)] = [
                (client.id, ["response_type": "token"], "unsupported_response_type"),
                (client.id, ["response_type": ""], "invalid_request"),
                (client.id, ["scope": "email"], "invalid_scope"),
                (client.id, ["code_challenge": Self.challenge, "code_challenge_method": "plain"], "invalid_request"),
                (client.id, ["code_challenge": "short", "code_challenge_method": "S256"], "invalid_request"),
                (client.id, ["max_age": "-1"], "invalid_request"),
                (client.id, ["prompt": "none"], "login_required"),
                (client.id, ["request": "eyJ"], "request_not_supported"),
                (app.id, [:], "invalid_request")  // a public client without PKCE
            ]
            for (id, extra, expected) in cases {
                let r = try await t.get(OIDCFlow.authorizePath(client: id, extra: extra))
                #expect(r.status == 303, "\(extra)")
                #expect(r.header("Location")?.hasPrefix(OIDCFlow.callback + "?") == true)
                let items = OIDCFlow.redirectItems(r)
                #expect(items["error"] == expected, "\(extra): \(items)")
                #expect(items["state"] == "st-1" && items["iss"] == "http://127.0.0.1:8080" && items["code"] == nil)
                #expect(items["error_description"]?.isEmpty == false)
            }
        }
    }

    @Test func codeFlowWithBasicAuthIDTokenUserinfoAndCodeReuse() async throws {
        let h = try await Harness.make()
        let (client, secret) = try await OIDCFlow.addClient(h)
        let secretValue = try #require(secret)
        try await h.run { t in
            let flow = OIDCFlow(t: t)
            let user = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: h.outbox)
            let page = try await t.get(OIDCFlow.authorizePath(client: client.id))
            #expect(page.status == 200)
            #expect(page.text.contains("Sign in to Wiki with your PIN"))
            #expect(page.text.contains(#"action="/oauth/authorize/complete""#))
            let (done, cookie) = try await flow.signIn(page: page, user: user)
            #expect(done.status == 303)
            let items = OIDCFlow.redirectItems(done)
            #expect(done.header("Location")?.hasPrefix(OIDCFlow.callback + "?") == true)
            #expect(items["state"] == "st-1" && items["iss"] == "http://127.0.0.1:8080")
            let code = try #require(items["code"])
            #expect(cookie.hasPrefix("zkpin="))

            let fields = ["grant_type": "authorization_code", "code": code, "redirect_uri": OIDCFlow.callback]
            let tokenReply = try await flow.token(fields, basic: (client.id, secretValue))
            #expect(tokenReply.status == 200, "\(tokenReply.text)")
            #expect(tokenReply.header("Cache-Control") == "no-store")
            let tokens = try tokenReply.json(TokenResponse.self)
            #expect(tokens.token_type == "Bearer" && tokens.expires_in == OIDCProvider.accessTokenTTL)

            // An independent verifier: PyJWT checks signature, iss, aud, exp, nonce, amr.
            let jwks = try await t.get("/oauth/jwks").text
            let claims = try PyJWT.verify(jwks: jwks, token: tokens.id_token, issuer: "http://127.0.0.1:8080", audience: client.id, nonce: "n-1")
            #expect(claims["email"] as? String == "alice@example.com")
            #expect(claims["email_verified"] as? Bool == true)
            #expect((claims["sub"] as? String)?.count == 32)
            #expect(claims["auth_time"] as? Int == h.clock.now)

            let info = try await t.get("/oauth/userinfo", headers: [("Authorization", "Bearer \(tokens.access_token)")])
            #expect(info.status == 200)
            #expect(try info.json(UserInfo.self).email == "alice@example.com")
            #expect(try info.json(UserInfo.self).sub == claims["sub"] as? String)

            // The code is single-use; a second use revokes the access token it gave.
            let again = try await flow.token(fields, basic: (client.id, secretValue))
            #expect(again.status == 400 && again.oauthError == "invalid_grant")
            let revoked = try await t.get("/oauth/userinfo", headers: [("Authorization", "Bearer \(tokens.access_token)")])
            #expect(revoked.status == 401 && revoked.header("WWW-Authenticate")?.contains("invalid_token") == true)

            // Signed in at ZKPin: the next authorization redirects at once (same auth_time)...
            let quick = try await t.get(OIDCFlow.authorizePath(client: client.id, extra: ["state": "st-2"]), headers: [("Cookie", cookie)])
            #expect(quick.status == 303 && OIDCFlow.redirectItems(quick)["state"] == "st-2" && OIDCFlow.redirectItems(quick)["code"] != nil)
            // ...unless prompt=login, or the login is older than max_age.
            let forced = try await t.get(OIDCFlow.authorizePath(client: client.id, extra: ["prompt": "login"]), headers: [("Cookie", cookie)])
            #expect(forced.status == 200 && forced.text.contains("Sign in to Wiki"))
            h.clock.advance(30)
            #expect(try await t.get(OIDCFlow.authorizePath(client: client.id, extra: ["max_age": "10"]), headers: [("Cookie", cookie)]).status == 200)
            let fresh = try await t.get(OIDCFlow.authorizePath(client: client.id, extra: ["max_age": "60"]), headers: [("Cookie", cookie)])
            #expect(fresh.status == 303)
            // A code from the session carries the original auth_time.
            let code2 = try #require(OIDCFlow.redirectItems(fresh)["code"])
            let second = try await flow.token([
                "grant_type": "authorization_code", "code": code2, "redirect_uri": OIDCFlow.callback,
                "client_id": client.id, "client_secret": secretValue
            ])
            #expect(second.status == 200, "\(second.text)")
            // (The test clock is 30 s ahead of the real one now: PyJWT gets that much leeway for iat.)
            let claims2 = try PyJWT.verify(
                jwks: jwks, token: try second.json(TokenResponse.self).id_token, issuer: "http://127.0.0.1:8080",
                audience: client.id, nonce: "n-1", leeway: 60)
            #expect(claims2["auth_time"] as? Int == claims["auth_time"] as? Int)

            // RP-initiated logout: ends the ZKPin session, back to the registered URI with state.
            let out = try await t.get(
                "/oauth/logout?"
                    + OIDCFlow.query([
                        "id_token_hint": tokens.id_token, "post_logout_redirect_uri": OIDCFlow.bye,
                        "state": "bye-1"
                    ]), headers: [("Cookie", cookie)])
            #expect(out.status == 303 && out.header("Location") == OIDCFlow.bye + "?state=bye-1")
            #expect(try await t.get("/account", headers: [("Cookie", cookie)]).status == 303)
            let after = try await t.get(OIDCFlow.authorizePath(client: client.id), headers: [("Cookie", cookie)])
            #expect(after.status == 200)
        }
        let kinds = Set(try await h.rp.store.auditLog(limit: 100).map(\.kind))
        #expect(kinds.isSuperset(of: ["oidc_authorize", "oidc_token", "oidc_code_reuse", "oidc_refused", "oidc_logout"]))
        let metrics = h.rp.metrics.text()
        #expect(metrics.contains("zkpin_oidc_tokens_total 2") && metrics.contains("zkpin_oidc_authorizations_total 3"), "\(metrics)")
    }

    @Test func tokenEndpointErrors() async throws {
        let h = try await Harness.make()
        let (client, secret) = try await OIDCFlow.addClient(h)
        let secretValue = try #require(secret)
        try await h.run { t in
            let flow = OIDCFlow(t: t)
            let user = try await TestUser.register(t, email: "bob@example.com", pin: 77, outbox: h.outbox)
            let (done, cookie) = try await flow.signIn(page: try await t.get(OIDCFlow.authorizePath(client: client.id)), user: user)
            let code = try #require(OIDCFlow.redirectItems(done)["code"])
            let good = ["grant_type": "authorization_code", "code": code, "redirect_uri": OIDCFlow.callback]
            func expectError(_ r: Reply, _ status: Int, _ error: String, _ note: String) {
                #expect(r.status == status && r.oauthError == error, "\(note): \(r.status) \(r.text)")
                #expect(r.header("Cache-Control") == "no-store", "\(note)")
            }
            expectError(try await flow.token(good, basic: (client.id, "wrong")), 401, "invalid_client", "wrong secret")
            #expect(try await flow.token(good, basic: (client.id, "wrong")).header("WWW-Authenticate")?.hasPrefix("Basic") == true)
            expectError(try await flow.token(good, basic: ("zk-nobody", secretValue)), 401, "invalid_client", "unknown client")
            expectError(try await flow.token(good), 401, "invalid_client", "no client authentication")
            expectError(try await flow.token(good.merging(["client_id": client.id]) { a, _ in a }), 401, "invalid_client", "no secret")
            expectError(
                try await flow.token(good.merging(["client_secret": secretValue]) { a, _ in a }, basic: (client.id, secretValue)),
                400, "invalid_request", "two methods")
            expectError(
                try await flow.token(["code": code, "redirect_uri": OIDCFlow.callback], basic: (client.id, secretValue)),
                400, "invalid_request", "no grant_type")
            expectError(
                try await flow.token(good.merging(["grant_type": "password"]) { _, b in b }, basic: (client.id, secretValue)),
                400, "unsupported_grant_type", "password grant")
            expectError(
                try await flow.token(["grant_type": "authorization_code", "redirect_uri": OIDCFlow.callback], basic: (client.id, secretValue)),
                400, "invalid_request", "no code")
            let json = try await t.send("POST", "/oauth/token", headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
            expectError(json, 400, "invalid_request", "JSON body")
            expectError(
                try await flow.token(good.merging(["code": "00"]) { _, b in b }, basic: (client.id, secretValue)),
                400, "invalid_grant", "unknown code")
            // A wrong redirect_uri uses the code up; then the code is gone.
            expectError(
                try await flow.token(good.merging(["redirect_uri": "https://wiki.example/other"]) { _, b in b }, basic: (client.id, secretValue)),
                400, "invalid_grant", "other redirect_uri")
            expectError(try await flow.token(good, basic: (client.id, secretValue)), 400, "invalid_grant", "used code")
            // A verifier for a code that had no challenge.
            let c2 = try #require(
                OIDCFlow.redirectItems(try await t.get(OIDCFlow.authorizePath(client: client.id), headers: [("Cookie", cookie)]))["code"])
            expectError(
                try await flow.token(
                    [
                        "grant_type": "authorization_code", "code": c2, "redirect_uri": OIDCFlow.callback,
                        "code_verifier": Self.verifier
                    ], basic: (client.id, secretValue)), 400, "invalid_grant", "stray verifier")
            // Codes live 60 s.
            let c3 = try #require(
                OIDCFlow.redirectItems(try await t.get(OIDCFlow.authorizePath(client: client.id), headers: [("Cookie", cookie)]))["code"])
            h.clock.advance(61)
            expectError(
                try await flow.token(good.merging(["code": c3]) { _, b in b }, basic: (client.id, secretValue)), 400, "invalid_grant", "expired")
            // Userinfo without a token.
            let anonymous = try await t.get("/oauth/userinfo")
            #expect(anonymous.status == 401 && anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            // Bad logout requests are pages, never redirects.
            let bad = try await t.get(
                "/oauth/logout?" + OIDCFlow.query(["client_id": client.id, "post_logout_redirect_uri": "https://evil.example/"]))
            #expect(bad.status == 400 && bad.header("Location") == nil)
        }
    }

    @Test func publicClientWithPKCEOfRFC7636AppendixB() async throws {
        let h = try await Harness.make()
        let (app, secret) = try await OIDCFlow.addClient(h, name: "App", isPublic: true)
        #expect(secret == nil)
        try await h.run { t in
            let flow = OIDCFlow(t: t)
            let user = try await TestUser.register(t, email: "carol@example.com", pin: 5, outbox: h.outbox)
            let pkce = ["code_challenge": Self.challenge, "code_challenge_method": "S256"]
            let (done, cookie) = try await flow.signIn(page: try await t.get(OIDCFlow.authorizePath(client: app.id, extra: pkce)), user: user)
            let code = try #require(OIDCFlow.redirectItems(done)["code"])
            let base = ["grant_type": "authorization_code", "code": code, "redirect_uri": OIDCFlow.callback, "client_id": app.id]
            // A wrong verifier uses the code up (invalid_grant), as does a missing one.
            let wrong = try await flow.token(base.merging(["code_verifier": String(Self.verifier.reversed())]) { _, b in b })
            #expect(wrong.status == 400 && wrong.oauthError == "invalid_grant")
            let (again, _) = try await flow.signIn(
                page: try await t.get(OIDCFlow.authorizePath(client: app.id, extra: pkce.merging(["prompt": "login"]) { _, b in b })), user: user)
            let code2 = try #require(OIDCFlow.redirectItems(again)["code"])
            let ok = try await flow.token(base.merging(["code": code2, "code_verifier": Self.verifier]) { _, b in b })
            #expect(ok.status == 200, "\(ok.text)")
            let claims = try PyJWT.verify(
                jwks: try await t.get("/oauth/jwks").text, token: try ok.json(TokenResponse.self).id_token,
                issuer: "http://127.0.0.1:8080", audience: app.id, nonce: "n-1")
            #expect(claims["email"] as? String == "carol@example.com")
            let c3 = try #require(
                OIDCFlow.redirectItems(try await t.get(OIDCFlow.authorizePath(client: app.id, extra: pkce), headers: [("Cookie", cookie)]))["code"])
            let missing = try await flow.token(base.merging(["code": c3]) { _, b in b })
            #expect(missing.status == 400 && missing.oauthError == "invalid_grant")
            // A public client presenting a secret is refused.
            let withSecret = try await flow.token(base.merging(["client_secret": "x"]) { _, b in b })
            #expect(withSecret.status == 401 && withSecret.oauthError == "invalid_client")
        }
    }

    @Test func authorizeAndLogoutTakeFormPosts() async throws {
        let h = try await Harness.make()
        let (client, _) = try await OIDCFlow.addClient(h)
        try await h.run { t in
            let fields = [
                "client_id": client.id, "redirect_uri": OIDCFlow.callback, "response_type": "code", "scope": "openid",
                "state": "posted state & more", "nonce": "n"
            ]
            let page = try await t.form("/oauth/authorize", fields)
            #expect(page.status == 200 && page.text.contains("Sign in to Wiki with your PIN"))
            let refused = try await t.form("/oauth/authorize", fields.merging(["scope": "profile"]) { _, b in b })
            #expect(refused.status == 303 && OIDCFlow.redirectItems(refused)["error"] == "invalid_scope")
            #expect(OIDCFlow.redirectItems(refused)["state"] == "posted state & more")
            // Without id_token_hint, logout asks first; its form posts back (same origin) with confirm=yes.
            let logout = ["client_id": client.id, "post_logout_redirect_uri": OIDCFlow.bye, "state": "x y"]
            let ask = try await t.form("/oauth/logout", logout)
            #expect(ask.status == 200 && ask.text.contains(#"id="confirm""#) && ask.text.contains(#"name="state" value="x y""#))
            #expect(ask.header("Set-Cookie") == nil)
            let forged = try await t.form(
                "/oauth/logout", logout.merging(["confirm": "yes"]) { _, b in b }, headers: [("Origin", "http://evil.example")])
            #expect(forged.status == 200 && forged.header("Location") == nil)
            let out = try await t.form("/oauth/logout", logout.merging(["confirm": "yes"]) { _, b in b }, headers: [("Origin", OIDCFlow.origin)])
            #expect(out.status == 303 && out.header("Location") == OIDCFlow.bye + "?state=x%20y")
            #expect(out.header("Set-Cookie")?.contains("Max-Age=0") == true)
            // Without a redirect URI: a page saying so.
            #expect(try await t.get("/oauth/logout").text.contains("Sign out of ZKPin in this browser?"))
            let plain = try await t.form("/oauth/logout", ["confirm": "yes"], headers: [("Origin", OIDCFlow.origin)])
            #expect(plain.status == 200 && plain.text.contains("signed out"))
        }
    }

    @Test func rs256ForAClientThatAsksForIt() async throws {
        let h = try await Harness.make()
        let (client, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: "Legacy", redirectURIs: [OIDCFlow.callback], postLogoutURIs: [],
            isPublic: false, idTokenAlg: "rs256", now: h.clock.now)
        #expect(client.idTokenAlg == "RS256")
        await #expect(throws: ClientRegistry.Invalid.self) {
            try await ClientRegistry.add(
                to: h.rp.store, name: "X", redirectURIs: [OIDCFlow.callback], postLogoutURIs: [], isPublic: false,
                idTokenAlg: "HS256", now: h.clock.now)
        }
        try await h.run { t in
            let flow = OIDCFlow(t: t)
            let user = try await TestUser.register(t, email: "rsa@example.com", pin: 8, outbox: h.outbox)
            let (done, _) = try await flow.signIn(page: try await t.get(OIDCFlow.authorizePath(client: client.id)), user: user)
            let r = try await flow.token(
                [
                    "grant_type": "authorization_code", "code": try #require(OIDCFlow.redirectItems(done)["code"]),
                    "redirect_uri": OIDCFlow.callback
                ], basic: (client.id, try #require(secret)))
            #expect(r.status == 200, "\(r.text)")
            let claims = try PyJWT.verify(
                jwks: try await t.get("/oauth/jwks").text, token: try r.json(TokenResponse.self).id_token,
                issuer: "http://127.0.0.1:8080", audience: client.id, nonce: "n-1", alg: "RS256")
            #expect(claims["email"] as? String == "rsa@example.com")
        }
    }

    @Test func junkIsNeverA500() async throws {
        let h = try await Harness.make()
        let (client, _) = try await OIDCFlow.addClient(h)
        try await h.run { t in
            let long = String(repeating: "a", count: 5000)
            let gets = [
                "/oauth/authorize", "/oauth/authorize?%", "/oauth/authorize?client_id[]=x", "/oauth/authorize?client_id=\(long)",
                OIDCFlow.authorizePath(client: client.id, extra: ["state": long]), OIDCFlow.authorizePath(client: client.id, extra: ["nonce": "%zz"]),
                "/oauth/logout?id_token_hint=a.b.c", "/oauth/logout?id_token_hint=\(long)&post_logout_redirect_uri=x", "/oauth/logout?%%",
                "/oauth/userinfo", "/oauth/token", "/oauth/jwks?x=1"
            ]
            for path in gets {
                let r = try await t.get(path)
                #expect(r.status < 500, "GET \(path.prefix(80)) → \(r.status)")
            }
            let bodies: [(String, String, String)] = [
                ("/oauth/token", "application/x-www-form-urlencoded", "grant_type=authorization_code&code=%ZZ"),
                ("/oauth/token", "application/x-www-form-urlencoded", "a[b]=1&a=2"),
                ("/oauth/token", "application/x-www-form-urlencoded", String(repeating: "x", count: 70_000)),
                ("/oauth/token", "text/plain", "grant_type=authorization_code"),
                ("/oauth/authorize", "application/x-www-form-urlencoded", "client_id=\(client.id)&client_id=\(client.id)"),
                ("/oauth/authorize/complete", "application/x-www-form-urlencoded", "webOTT=zz&authOTT=zz"),
                ("/oauth/logout", "application/x-www-form-urlencoded", "state=%"),
                ("/oauth/userinfo", "application/json", "{}")
            ]
            for (path, type, body) in bodies {
                let r = try await t.send("POST", path, headers: [("Content-Type", type), ("Origin", OIDCFlow.origin)], body: Array(body.utf8))
                #expect((400..<500).contains(r.status), "POST \(path) \(body.prefix(40)) → \(r.status)")
            }
            let badBasic = try await t.send(
                "POST", "/oauth/token",
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"),
                    ("Authorization", "Basic !!!")
                ], body: Array("grant_type=authorization_code".utf8))
            #expect(badBasic.status == 401 && badBasic.oauthError == "invalid_client")
        }
    }

    @Test func refreshTokensWithOfflineAccessRotateAndReuseRevokes() async throws {
        let h = try await Harness.make()
        let (client, secret) = try await OIDCFlow.addClient(h)
        let credentials = (client.id, try #require(secret))
        try await h.run { t in
            let flow = OIDCFlow(t: t)
            let user = try await TestUser.register(t, email: "offline@example.com", pin: 3, outbox: h.outbox)
            // Without offline_access: no refresh token.
            let (plain, cookie) = try await flow.signIn(page: try await t.get(OIDCFlow.authorizePath(client: client.id)), user: user)
            let first = try await flow.token(
                [
                    "grant_type": "authorization_code", "code": try #require(OIDCFlow.redirectItems(plain)["code"]),
                    "redirect_uri": OIDCFlow.callback
                ], basic: credentials)
            #expect(try first.json(TokenResponse.self).refresh_token == nil)

            let offline = try await t.get(
                OIDCFlow.authorizePath(client: client.id, extra: ["scope": "openid email offline_access"]),
                headers: [("Cookie", cookie)])
            let code = try #require(OIDCFlow.redirectItems(offline)["code"])
            let granted = try await flow.token(
                ["grant_type": "authorization_code", "code": code, "redirect_uri": OIDCFlow.callback], basic: credentials)
            let tokens = try granted.json(TokenResponse.self)
            let r1 = try #require(tokens.refresh_token)
            #expect(tokens.scope == "openid email offline_access")

            let refreshed = try await flow.token(["grant_type": "refresh_token", "refresh_token": r1], basic: credentials)
            #expect(refreshed.status == 200, "\(refreshed.text)")
            let next = try refreshed.json(TokenResponse.self)
            let r2 = try #require(next.refresh_token)
            #expect(r2 != r1 && next.access_token != tokens.access_token)
            let claims = try PyJWT.verify(
                jwks: try await t.get("/oauth/jwks").text, token: next.id_token, issuer: "http://127.0.0.1:8080",
                audience: client.id, nonce: "")
            #expect(claims["nonce"] == nil && claims["email"] as? String == "offline@example.com")
            // Narrowing the scope is allowed, widening is not.
            let wider = try await flow.token(["grant_type": "refresh_token", "refresh_token": r2, "scope": "openid phone"], basic: credentials)
            #expect(wider.status == 400 && wider.oauthError == "invalid_scope")
            // (That refusal used r2 up; a used refresh token presented again revokes the family.)
            let replay = try await flow.token(["grant_type": "refresh_token", "refresh_token": r1], basic: credentials)
            #expect(replay.status == 400 && replay.oauthError == "invalid_grant")
            for access in [tokens.access_token, next.access_token] {
                #expect(try await t.get("/oauth/userinfo", headers: [("Authorization", "Bearer \(access)")]).status == 401)
            }
            // Another client cannot use someone else's refresh token; a missing one is invalid_request.
            #expect(try await flow.token(["grant_type": "refresh_token"], basic: credentials).oauthError == "invalid_request")
        }
        #expect(try await h.rp.store.auditLog(limit: 100).contains { $0.kind == "oidc_refresh_reuse" })
    }

    @Test func wrongPINLeavesThePageWaiting() async throws {
        let h = try await Harness.make()
        let (client, _) = try await OIDCFlow.addClient(h)
        try await h.run { t in
            let user = try await TestUser.register(t, email: "dave@example.com", pin: 1111, outbox: h.outbox)
            let page = try await t.get(OIDCFlow.authorizePath(client: client.id))
            let webOTT = try #require(OIDCFlow.capture(#"id="webOTT" value="([0-9a-f]+)""#, in: page.text))
            let code = try #require(OIDCFlow.capture(#"id="code">([0-9]{7})<"#, in: page.text))
            let r2 = try await user.pass12(t, pin: 2222, wid: code)
            let auth = try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try r2.json(Pass2Response.self).authOTT))
            #expect(auth.status == 401)
            #expect(try await t.json("POST", "/rps/access", AccessRequest(webOTT: webOTT)).json(AccessResponse.self).status == .wrongPIN)
            // Without a successful login the page cannot complete.
            let early = try await t.form(
                "/oauth/authorize/complete", ["webOTT": webOTT, "authOTT": "00"],
                headers: [("Origin", OIDCFlow.origin), try #require(page.pageCookie)])
            #expect(early.status == 403 && early.header("Location") == nil)
        }
    }
}

extension Reply {
    var oauthError: String? { (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["error"] as? String }
}

/// tools/oidc-verify-id-token: PyJWT verifies the token (signature, iss, aud, exp, nonce, amr).
enum PyJWT {
    struct Refused: Error, CustomStringConvertible { var description: String }

    static func verify(
        jwks: String, token: String, issuer: String, audience: String, nonce: String, leeway: Int = 0,
        alg: String = "ES256"
    ) throws -> [String: Any] {
        // Tests/ZKPinServerTests/Features/OIDC/ is four folders below the repository.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", root.appendingPathComponent("tools/oidc-verify-id-token").path, jwks, token, issuer, audience, nonce,
            String(leeway), alg
        ]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.runAlone()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.exitStatus(within: 60) == 0, let claims = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw Refused(description: "PyJWT refused the ID token: \(errors)") }
        return claims
    }
}
