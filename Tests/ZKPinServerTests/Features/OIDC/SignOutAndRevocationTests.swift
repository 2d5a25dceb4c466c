import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// What revocation, blocking and logout end: a revoked or blocked identity's browser session,
/// access tokens and silent sign-ins stop at once; a logout hint of another person asks first.
@Suite struct SignOutAndRevocationTests {
    /// One person signed in through the provider: the cookie and the tokens.
    static func signedIn(_ h: Harness, _ t: any Transport, email: String) async throws -> (TestUser, String, TokenResponse, OIDCClient) {
        let (client, secret) = try await OIDCFlow.addClient(h, name: "Wiki \(email)")
        let flow = OIDCFlow(t: t)
        let user = try await TestUser.register(t, email: email, pin: 1357, outbox: h.outbox)
        let (done, cookie) = try await flow.signIn(page: try await t.get(OIDCFlow.authorizePath(client: client.id)), user: user)
        let code = try #require(OIDCFlow.redirectItems(done)["code"])
        let reply = try await flow.token(
            ["grant_type": "authorization_code", "code": code, "redirect_uri": OIDCFlow.callback], basic: (client.id, try #require(secret)))
        #expect(reply.status == 200, "\(reply.text)")
        return (user, cookie, try reply.json(TokenResponse.self), client)
    }

    @Test(arguments: ["revoke", "block"]) func aRevokedOrBlockedIdentityIsSignedOutEverywhere(how: String) async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let (user, cookie, tokens, client) = try await Self.signedIn(h, t, email: "rita@example.com")
            let bearer = [("Authorization", "Bearer \(tokens.access_token)")]
            #expect(try await t.get("/account", headers: [("Cookie", cookie)]).status == 200)
            #expect(try await t.get("/oauth/userinfo", headers: bearer).status == 200)
            if how == "revoke" {
                #expect(try await h.rp.store.revoke(userId: user.email) == 1)
            } else {
                for pin in [1111, 2222, 3333] { _ = try await user.login(t, pin: pin) }
                #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.state == .blocked)
            }
            #expect(try await t.get("/account", headers: [("Cookie", cookie)]).status == 303)
            let info = try await t.get("/oauth/userinfo", headers: bearer)
            #expect(info.status == 401 && info.header("WWW-Authenticate")?.contains("invalid_token") == true)
            let silent = try await t.get(OIDCFlow.authorizePath(client: client.id, extra: ["prompt": "none"]), headers: [("Cookie", cookie)])
            #expect(silent.status == 303 && OIDCFlow.redirectItems(silent)["error"] == "login_required", "\(silent.header("Location") ?? "")")
        }
    }

    @Test func anotherPersonsIDTokenHintAsksBeforeSigningOut() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let (_, aliceCookie, _, _) = try await Self.signedIn(h, t, email: "alice@example.com")
            let (_, _, malloryTokens, _) = try await Self.signedIn(h, t, email: "mallory@example.com")
            // Mallory's page sends Alice's browser to logout with Mallory's own ID token.
            let attack = try await t.get(
                "/oauth/logout?" + OIDCFlow.query(["id_token_hint": malloryTokens.id_token, "post_logout_redirect_uri": OIDCFlow.bye]),
                headers: [("Cookie", aliceCookie)])
            #expect(attack.status == 200 && attack.text.contains("Sign out?"), "\(attack.status) \(attack.header("Location") ?? "")")
            #expect(try await t.get("/account", headers: [("Cookie", aliceCookie)]).status == 200)
        }
    }

    /// Two concurrent uses of one refresh token: whatever the order, no token of the family
    /// survives (the winner's tokens are stored only while the family stands).
    @Test(arguments: StoreKind.available) func reuseRevokesTheWinnersTokensToo(kind: StoreKind) async throws {
        let store = try await kind.make()
        for round in 0..<12 {
            let family = "fam-\(round)"
            try await store.insertAuthorizationCode(
                AuthorizationCode(
                    hash: family, clientId: "zk", redirectURI: "https://a/cb", userId: "a@example.com", mpinId: "m", scope: "openid",
                    nonce: nil, codeChallenge: nil, authTime: 1, created: 1, expires: 100))
            let access = OIDCAccessToken(
                hash: "at-\(round)", clientId: "zk", userId: "a@example.com", mpinId: "m", scope: "openid", codeHash: family, expires: 9_999)
            let refresh = OIDCRefreshToken(
                hash: "rt-\(round)", clientId: "zk", userId: "a@example.com", mpinId: "m", scope: "openid offline_access", authTime: 1,
                family: family, expires: 9_999)
            async let stored = store.insertOIDCTokens(access, refresh: refresh)
            async let revoked = store.revokeOIDCAccessTokens(codeHash: family)
            _ = try await (stored, revoked)
            #expect(try await store.oidcAccessTokenRow(hash: "at-\(round)") == false, "round \(round): the winner's access token survived")
            #expect(try await store.usedOIDCRefreshTokenFamily(hash: "rt-\(round)") == nil)
            #expect(try await store.redeemOIDCRefreshToken(hash: "rt-\(round)", now: 50) == nil, "round \(round): the refresh token survived")
            // Once revoked, the family takes no new tokens.
            #expect(!(try await store.insertOIDCTokens(access, refresh: nil)))
        }
    }
}

extension Store {
    /// Whether an access token row exists at all (whatever its identity's state).
    func oidcAccessTokenRow(hash: String) async throws -> Bool {
        try await driver.readOne("SELECT 1 AS one FROM oidc_access_tokens WHERE hash = \(hash)") != nil
    }
}
