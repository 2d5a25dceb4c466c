import Foundation
import JWTKit
import Testing
import ZKPinWire

@testable import ZKPinServer

/// A site registered with a back-channel logout URI hears of every end of a person's sign-in
/// there: a sign-out at ZKPin (the pages', `/oauth/logout`), `admin revoke`, "this device is
/// lost" and a block by wrong PINs. The tokens it gets pass a site's checks written here; the
/// tokens of the ended sign-in stop at once; deliveries are retried and never follow a redirect.
@Suite struct BackchannelLogoutTests {
    struct SignedIn {
        var user: TestUser
        var cookie: String
        var tokens: TokenResponse
        var client: OIDCClient
        var secret: String
    }

    static func addSite(_ h: Harness, _ site: LogoutSite, sessionRequired: Bool = true) async throws -> (OIDCClient, String) {
        let (client, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: "Wiki", redirectURIs: [OIDCFlow.callback], postLogoutURIs: [OIDCFlow.bye], isPublic: false,
            logout: .init(backchannel: site.uri, backchannelSessionRequired: sessionRequired), now: h.clock.now)
        return (client, try #require(secret))
    }

    /// A person signed in to the site through the code flow, with a refresh token.
    static func signIn(_ h: Harness, _ t: any Transport, client: OIDCClient, secret: String, email: String) async throws -> SignedIn {
        let flow = OIDCFlow(t: t)
        let user = try await TestUser.register(t, email: email, pin: 2468, outbox: h.outbox)
        let page = try await t.get(OIDCFlow.authorizePath(client: client.id, extra: ["scope": "openid email offline_access"]))
        let (done, cookie) = try await flow.signIn(page: page, user: user)
        let code = try #require(OIDCFlow.redirectItems(done)["code"])
        let reply = try await flow.token(
            ["grant_type": "authorization_code", "code": code, "redirect_uri": OIDCFlow.callback], basic: (client.id, secret))
        #expect(reply.status == 200, "\(reply.text)")
        return SignedIn(user: user, cookie: cookie, tokens: try reply.json(TokenResponse.self), client: client, secret: secret)
    }

    static func checker(_ h: Harness, _ t: any Transport, client: OIDCClient) async throws -> LogoutTokenChecker {
        try LogoutTokenChecker(issuer: h.rp.config.publicURL, audience: client.id, jwks: try await t.get("/oauth/jwks").body)
    }

    @Test(arguments: ["sign-out", "oauth-logout", "revoke", "lost", "block"])
    func theSiteHearsOfEveryEnd(how: String) async throws {
        let site = try await LogoutSite.start()
        defer { site.stop() }
        let h = try await Harness.make()
        let (client, secret) = try await Self.addSite(h, site)
        try await h.run { t in
            let s = try await Self.signIn(h, t, client: client, secret: secret, email: "lena@example.com")
            let idClaims = LogoutTokenChecker.claims(s.tokens.id_token)
            let sid = try #require(idClaims["sid"] as? String, "the ID token carries sid")
            // Nothing is sent while the person stays signed in.
            try await h.assembly.background.deliverLogouts()
            #expect(site.tokens.withLock { $0 }.isEmpty)

            switch how {
            case "sign-out":
                #expect(try await t.form("/logout", [:], headers: [("Origin", OIDCFlow.origin), ("Cookie", s.cookie)]).status == 303)
            case "oauth-logout":
                let bye = try await t.get(
                    "/oauth/logout?" + OIDCFlow.query(["id_token_hint": s.tokens.id_token, "post_logout_redirect_uri": OIDCFlow.bye]),
                    headers: [("Cookie", s.cookie)])
                #expect(bye.status == 303, "\(bye.text)")
            case "revoke":
                #expect(try await h.rp.store.revoke(userId: s.user.email) == 1)
            case "lost":
                #expect(try await h.rp.devices.revoke(userId: s.user.email, mpinId: s.user.mpinId, address: "127.0.0.1"))
            default:
                for pin in [1111, 2222, 3333] { _ = try await s.user.login(t, pin: pin) }
                #expect(try await h.rp.store.identity(mpinId: s.user.mpinId)?.state == .blocked)
            }
            try await h.assembly.background.deliverLogouts()
            let sent = site.tokens.withLock { $0 }
            #expect(sent.count == 1, "\(how): \(sent.count) logout tokens")
            let checker = try await Self.checker(h, t, client: client)
            let claims = try checker.check(try #require(sent.first), now: h.clock.now)
            #expect(claims.sub == idClaims["sub"] as? String && claims.sid == sid && claims.typ == "logout+jwt", "\(how)")
            // A replay of the same token is refused by the site.
            #expect(throws: LogoutTokenChecker.Refusal.replayed) { try checker.check(sent[0], now: h.clock.now) }

            // The sign-in's tokens end with it.
            let flow = OIDCFlow(t: t)
            let introspected = try await flow.post("/oauth/introspect", ["token": s.tokens.access_token], basic: (client.id, secret))
            #expect(try introspected.json(IntrospectionResponse.self).active == false, "\(how): \(introspected.text)")
            let refresh = try await flow.token(
                ["grant_type": "refresh_token", "refresh_token": try #require(s.tokens.refresh_token)], basic: (client.id, secret))
            #expect(refresh.status == 400 && refresh.oauthError == "invalid_grant", "\(how): \(refresh.text)")

            // Told once: another round sends nothing more.
            try await h.assembly.background.deliverLogouts()
            #expect(site.tokens.withLock { $0.count } == 1)
            let audit = try await h.rp.store.auditLog(limit: 200).map(\.kind)
            #expect(audit.contains("site_signout") && audit.contains("backchannel_logout"), "\(audit)")
        }
    }

    /// Only the signed-out session's sign-ins end: the same person's sign-in from another
    /// browser stays, and so does another person's.
    @Test func aSignOutEndsOnlyItsOwnSession() async throws {
        let site = try await LogoutSite.start()
        defer { site.stop() }
        let h = try await Harness.make()
        let (client, secret) = try await Self.addSite(h, site)
        try await h.run { t in
            let ann = try await Self.signIn(h, t, client: client, secret: secret, email: "ann@example.com")
            let bob = try await Self.signIn(h, t, client: client, secret: secret, email: "bob@example.com")
            #expect(try await t.form("/logout", [:], headers: [("Origin", OIDCFlow.origin), ("Cookie", ann.cookie)]).status == 303)
            try await h.assembly.background.deliverLogouts()
            let sent = site.tokens.withLock { $0 }
            #expect(sent.count == 1)
            #expect(LogoutTokenChecker.claims(sent[0])["sid"] as? String == LogoutTokenChecker.claims(ann.tokens.id_token)["sid"] as? String)
            let flow = OIDCFlow(t: t)
            let bobs = try await flow.post("/oauth/introspect", ["token": bob.tokens.access_token], basic: (client.id, secret))
            #expect(try bobs.json(IntrospectionResponse.self).active == true)
        }
    }

    /// The site's check refuses what a forger or a replayer sends: a token signed with another
    /// key, one with a nonce, one without the event, one naming nobody, one for another site.
    @Test func theSitesCheckRefusesForgeries() async throws {
        let h = try await Harness.make()
        let (client, _) = try await OIDCFlow.addClient(h)
        try await h.run { t in
            let checker = try await Self.checker(h, t, client: client)
            let now = h.clock.now
            let ours = try SigningKey.loadOrCreate(dataDirectory: h.dir)
            let good = LogoutTokenClaims(iss: h.rp.config.publicURL, aud: client.id, iat: now, exp: now + 120, jti: "j1", sub: "s", sid: nil)
            _ = try checker.check(try await ours.sign(good, type: LogoutTokenClaims.type), now: now)
            let stranger = try SigningKey.loadOrCreate(dataDirectory: try TempDir.make())
            var other = good
            other.jti = "j2"
            let forged1 = try await stranger.sign(other)
            #expect(throws: LogoutTokenChecker.Refusal.badSignature) { try checker.check(forged1, now: now) }
            struct WithNonce: JWTPayload {
                var base: LogoutTokenClaims
                var nonce = "n"
                func encode(to encoder: any Encoder) throws {
                    try base.encode(to: encoder)
                    var c = encoder.container(keyedBy: Key.self)
                    try c.encode(nonce, forKey: Key(stringValue: "nonce")!)
                }
                func verify(using algorithm: some JWTAlgorithm) async throws {}
                struct Key: CodingKey {
                    var stringValue: String
                    init?(stringValue: String) { self.stringValue = stringValue }
                    var intValue: Int? { nil }
                    init?(intValue: Int) { nil }
                }
            }
            other.jti = "j3"
            let forged2 = try await ours.sign(WithNonce(base: other))
            #expect(throws: LogoutTokenChecker.Refusal.nonce) { try checker.check(forged2, now: now) }
            other.jti = "j4"
            other.events = [:]
            let forged3 = try await ours.sign(other)
            #expect(throws: LogoutTokenChecker.Refusal.noEvent) { try checker.check(forged3, now: now) }
            other.events = good.events
            other.jti = "j5"
            other.aud = "someone-else"
            let forged4 = try await ours.sign(other)
            #expect(throws: LogoutTokenChecker.Refusal.wrongAudience) { try checker.check(forged4, now: now) }
            other.aud = client.id
            other.jti = "j6"
            other.exp = now - 1
            let forged5 = try await ours.sign(other)
            #expect(throws: LogoutTokenChecker.Refusal.expired) { try checker.check(forged5, now: now) }
        }
    }

    /// A site that is down is tried again with backoff, from the store (a new server on the
    /// same database delivers what the old one could not); a redirect is never followed, and a
    /// logout whose window closed is dropped and counted.
    @Test func deliveryIsRetriedAcrossARestartAndNeverRedirected() async throws {
        let site = try await LogoutSite.start()
        defer { site.stop() }
        let h = try await Harness.make { $0.backchannelLogoutWindow = 600 }
        let (client, secret) = try await Self.addSite(h, site)
        try await h.run { t in
            let s = try await Self.signIn(h, t, client: client, secret: secret, email: "ola@example.com")
            site.script.withLock { $0 = [503] }
            #expect(try await h.rp.store.revoke(userId: s.user.email) == 1)
            try await h.assembly.background.deliverLogouts()
            #expect(site.tokens.withLock { $0.count } == 1)
            #expect(try await h.rp.store.logoutQueueLength() == 1, "a 503 keeps the logout queued")
            // Not due again before its backoff.
            try await h.assembly.background.deliverLogouts()
            #expect(site.tokens.withLock { $0.count } == 1)
        }
        // "Restart": another server on the same data folder and clock takes the queued logout.
        h.clock.advance(BackchannelLogouts.backoff(attempts: 1))
        let restarted = try ZKPinServerApp.assemble(rp: h.rp, dta2: nil, options: ServeOptions(), logger: .init(label: "test"))
        try await restarted.background.deliverLogouts()
        #expect(site.tokens.withLock { $0.count } == 2)
        #expect(try await h.rp.store.logoutQueueLength() == 0)

        // A redirect is refused, not followed.
        let h2 = try await Harness.make()
        let (client2, secret2) = try await Self.addSite(h2, site)
        try await h2.run { t in
            let s = try await Self.signIn(h2, t, client: client2, secret: secret2, email: "pia@example.com")
            site.script.withLock { $0 = [302] }
            #expect(try await h2.rp.store.revoke(userId: s.user.email) == 1)
            try await h2.assembly.background.deliverLogouts()
            #expect(site.internalHits.withLock { $0 } == 0, "the redirect was followed")
            #expect(try await h2.rp.store.logoutQueueLength() == 0)
            #expect(try await h2.rp.store.auditLog(limit: 100).contains { $0.kind == "backchannel_logout_refused" && $0.detail.contains("302") })
        }

        // A site down for longer than the window: dropped and counted.
        let h3 = try await Harness.make { $0.backchannelLogoutWindow = 60 }
        let (client3, secret3) = try await Self.addSite(h3, site)
        try await h3.run { t in
            let s = try await Self.signIn(h3, t, client: client3, secret: secret3, email: "uma@example.com")
            site.script.withLock { $0 = [500, 500, 500] }
            #expect(try await h3.rp.store.revoke(userId: s.user.email) == 1)
            try await h3.assembly.background.deliverLogouts()
            h3.clock.advance(61)
            try await h3.assembly.background.deliverLogouts()
            #expect(try await h3.rp.store.logoutQueueLength() == 0)
            let metrics = try await t.get("/metrics").text
            #expect(metrics.contains("zkpin_backchannel_logouts_dropped_total 1"), "\(metrics)")
        }
    }

    /// Front-channel: the sign-out page loads the site's logout page in a frame with `iss` and
    /// `sid`, its policy allows exactly that frame's origin, and it then goes on to the site's
    /// post-logout URI.
    @Test func theSignOutPageFramesTheSitesFrontChannelLogout() async throws {
        let h = try await Harness.make()
        let (client, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: "Blog", redirectURIs: [OIDCFlow.callback], postLogoutURIs: [OIDCFlow.bye], isPublic: false,
            logout: .init(frontchannel: "https://blog.example.com/fc-logout", frontchannelSessionRequired: true), now: h.clock.now)
        try await h.run { t in
            let s = try await Self.signIn(h, t, client: client, secret: try #require(secret), email: "ivo@example.com")
            let sid = try #require(LogoutTokenChecker.claims(s.tokens.id_token)["sid"] as? String)
            let page = try await t.get(
                "/oauth/logout?" + OIDCFlow.query(["id_token_hint": s.tokens.id_token, "post_logout_redirect_uri": OIDCFlow.bye]),
                headers: [("Cookie", s.cookie)])
            #expect(page.status == 200, "\(page.text)")
            let issuer = RedirectURL.encode(h.rp.config.publicURL)
            #expect(page.text.contains("src=\"https://blog.example.com/fc-logout?iss=\(issuer)&amp;sid=\(sid)\""), "\(page.text)")
            #expect(page.text.contains("signed out of ZKPin and of Blog"))
            let policy = try #require(page.header("Content-Security-Policy"))
            #expect(policy.hasSuffix("; frame-src https://blog.example.com") && policy.contains("default-src 'none'"), "\(policy)")
            #expect(page.text.contains("http-equiv=\"refresh\"") && page.text.contains(OIDCFlow.bye))
            #expect(try await t.get("/account", headers: [("Cookie", s.cookie)]).status == 303)
        }
    }

    @Test func registrationRefusesUnsafeLogoutURIs() async throws {
        let h = try await Harness.make()
        func add(_ logout: ClientRegistry.LogoutURIs) async -> String? {
            do {
                _ = try await ClientRegistry.add(
                    to: h.rp.store, name: "Site", redirectURIs: [OIDCFlow.callback], postLogoutURIs: [], isPublic: false, logout: logout,
                    now: h.clock.now)
                return nil
            } catch { return "\(error)" }
        }
        #expect(await add(.init(backchannel: "http://intranet.example.com/logout"))?.contains("https") == true)
        #expect(await add(.init(frontchannel: "ftp://example.com/x")) != nil)
        #expect(await add(.init(backchannelSessionRequired: true))?.contains("--backchannel-logout-uri") == true)
        #expect(await add(.init(backchannel: "https://example.com/logout", frontchannel: "http://localhost:9/fc")) == nil)
        let discovery = try await h.run { t in try await t.get("/.well-known/openid-configuration").text }
        #expect(discovery.contains("\"backchannel_logout_supported\":true") && discovery.contains("\"frontchannel_logout_session_supported\":true"))
    }
}
