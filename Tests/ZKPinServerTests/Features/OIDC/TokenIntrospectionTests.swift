import Foundation
import Testing

@testable import ZKPinServer

/// RFC 7662 introspection and RFC 7009 revocation: a token is `active` exactly while it is
/// live; revoking a refresh token ends its family; `admin revoke` ends every token at once; a
/// client sees only its own tokens unless it is a registered introspector (`--introspect`).
@Suite struct TokenIntrospectionTests {
    struct Site {
        let id: String
        let secret: String
        var basic: (String, String) { (id, secret) }
    }

    /// A site signed alice in with offline_access: its access and refresh tokens.
    static func signedIn(_ t: any Transport, _ h: Harness, _ site: Site) async throws -> TokenResponse {
        let flow = OIDCFlow(t: t)
        let user = try await TestUser.register(t, email: "alice@example.com", pin: 3, outbox: h.outbox)
        let page = try await t.get(OIDCFlow.authorizePath(client: site.id, extra: ["scope": "openid email offline_access"]))
        let (redirect, _) = try await flow.signIn(page: page, user: user)
        let code = try #require(OIDCFlow.redirectItems(redirect)["code"])
        let granted = try await flow.token(["grant_type": "authorization_code", "code": code, "redirect_uri": OIDCFlow.callback], basic: site.basic)
        #expect(granted.status == 200, "\(granted.text)")
        return try granted.json(TokenResponse.self)
    }

    static func introspect(_ t: any Transport, _ token: String, as client: Site, hint: String? = nil) async throws -> IntrospectionResponse {
        var fields = ["token": token]
        if let hint { fields["token_type_hint"] = hint }
        let r = try await OIDCFlow(t: t).post("/oauth/introspect", fields, basic: client.basic)
        #expect(r.status == 200, "\(r.text)")
        return try r.json(IntrospectionResponse.self)
    }

    static func site(_ h: Harness, name: String = "Wiki", introspect: Bool = false, redirect: Bool = true) async throws -> Site {
        let (client, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: name, redirectURIs: redirect ? [OIDCFlow.callback] : [], postLogoutURIs: [], isPublic: false,
            introspect: introspect, now: h.clock.now)
        return Site(id: client.id, secret: try #require(secret))
    }

    @Test func liveTokensAreActiveAndSayWhatTheyAreFor() async throws {
        let h = try await Harness.make()
        let wiki = try await Self.site(h)
        let other = try await Self.site(h, name: "Other")
        let gateway = try await Self.site(h, name: "Gateway", introspect: true, redirect: false)
        try await h.run { t in
            let tokens = try await Self.signedIn(t, h, wiki)
            let own = try await Self.introspect(t, tokens.access_token, as: wiki)
            #expect(own.active && own.client_id == wiki.id && own.username == "alice@example.com" && own.token_type == "Bearer")
            #expect(own.scope == "openid email offline_access" && own.exp == h.clock.now + 3600 && own.iat == h.clock.now)
            #expect(own.iss == "http://127.0.0.1:8080" && own.aud == wiki.id && own.sub?.count == 32)
            // Another site sees nothing; the registered gateway sees it.
            #expect(try await Self.introspect(t, tokens.access_token, as: other) == IntrospectionResponse(active: false))
            #expect(try await Self.introspect(t, tokens.access_token, as: gateway).active)
            let refresh = try await Self.introspect(t, try #require(tokens.refresh_token), as: wiki, hint: "refresh_token")
            #expect(refresh.active && refresh.token_type == "refresh_token")
            #expect(try await Self.introspect(t, "not-a-token", as: wiki) == IntrospectionResponse(active: false))
            // Expired.
            h.clock.advance(3600)
            #expect(try await Self.introspect(t, tokens.access_token, as: wiki) == IntrospectionResponse(active: false))
            // Bad requests.
            let flow = OIDCFlow(t: t)
            #expect(try await flow.post("/oauth/introspect", [:], basic: wiki.basic).oauthError == "invalid_request")
            #expect(
                try await flow.post("/oauth/introspect", ["token": "x", "token_type_hint": "id_token"], basic: wiki.basic).oauthError
                    == "unsupported_token_type")
            #expect(try await flow.post("/oauth/introspect", ["token": "x"], basic: (wiki.id, "wrong")).status == 401)
        }
    }

    @Test func revokingARefreshTokenEndsItsFamily() async throws {
        let h = try await Harness.make()
        let wiki = try await Self.site(h)
        let other = try await Self.site(h, name: "Other")
        try await h.run { t in
            let tokens = try await Self.signedIn(t, h, wiki)
            let refresh = try #require(tokens.refresh_token)
            let flow = OIDCFlow(t: t)
            // Another client may not revoke it: refused, and the token stays live.
            #expect(try await flow.post("/oauth/revoke", ["token": refresh], basic: other.basic).oauthError == "unauthorized_client")
            #expect(try await Self.introspect(t, tokens.access_token, as: wiki).active)
            let revoked = try await flow.post("/oauth/revoke", ["token": refresh, "token_type_hint": "refresh_token"], basic: wiki.basic)
            #expect(revoked.status == 200 && revoked.text == "{}", "\(revoked.text)")
            #expect(try await Self.introspect(t, tokens.access_token, as: wiki) == IntrospectionResponse(active: false))
            #expect(try await Self.introspect(t, refresh, as: wiki) == IntrospectionResponse(active: false))
            let refreshed = try await flow.token(["grant_type": "refresh_token", "refresh_token": refresh], basic: wiki.basic)
            #expect(refreshed.oauthError == "invalid_grant")
            #expect(try await t.get("/oauth/userinfo", headers: [("Authorization", "Bearer \(tokens.access_token)")]).status == 401)
            // Unknown and already revoked tokens: 200 all the same (RFC 7009 section 2.2).
            #expect(try await flow.post("/oauth/revoke", ["token": refresh], basic: wiki.basic).status == 200)
            #expect(try await flow.post("/oauth/revoke", ["token": "never-issued"], basic: wiki.basic).status == 200)
        }
        #expect(try await h.rp.store.auditLog(limit: 100).contains { $0.kind == "oidc_revoke" })
    }

    @Test func revokingAnAccessTokenEndsOnlyIt() async throws {
        let h = try await Harness.make()
        let wiki = try await Self.site(h)
        try await h.run { t in
            let tokens = try await Self.signedIn(t, h, wiki)
            #expect(try await OIDCFlow(t: t).post("/oauth/revoke", ["token": tokens.access_token], basic: wiki.basic).status == 200)
            #expect(try await Self.introspect(t, tokens.access_token, as: wiki) == IntrospectionResponse(active: false))
            #expect(try await Self.introspect(t, try #require(tokens.refresh_token), as: wiki).active)
        }
    }

    @Test func adminRevokeEndsEveryTokenAtOnce() async throws {
        let h = try await Harness.make()
        let wiki = try await Self.site(h)
        try await h.run { t in
            let tokens = try await Self.signedIn(t, h, wiki)
            #expect(try await h.rp.store.revoke(userId: "alice@example.com") == 1)
            #expect(try await Self.introspect(t, tokens.access_token, as: wiki) == IntrospectionResponse(active: false))
            #expect(try await Self.introspect(t, try #require(tokens.refresh_token), as: wiki) == IntrospectionResponse(active: false))
        }
    }

    @Test func discoveryNamesBothEndpoints() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let meta = try await t.get("/.well-known/openid-configuration").json(ProviderMetadata.self)
            #expect(meta.revocation_endpoint == meta.issuer + "/oauth/revoke")
            #expect(meta.introspection_endpoint == meta.issuer + "/oauth/introspect")
        }
    }
}
