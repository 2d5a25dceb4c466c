import Logging
import ZKPinWire

/// The OpenID Connect provider (OpenID Connect Core 1.0, authorization code flow) on top of
/// the relying party: its login step is the access-code page, its sessions are ZKPin's web
/// sessions. HTTP lives in OIDCRoutes; this type speaks in values and OAuthError.
final class OIDCProvider: Sendable {
    /// The public URL: the `iss` of every token.
    let issuer: String
    /// How long a page's access code lives (a pending authorization lives a minute longer).
    let accessCodeTTL: Int
    let storage: StorageGateway
    let audit: AuditTrail
    /// The access-code login that the authorize page runs, and its session cookies.
    let access: AccessService
    /// Keys the subjects, so they are the same on every instance (the link key).
    let subjectKey: [UInt8]
    let clock: ServerClock
    let keys: KeyRing
    let metrics: OIDCMetrics
    /// Failed client authentications and unknown bearer tokens, per address.
    let limiter: StoreRateLimiter
    let limits: ServerConfig.Limits
    /// What happened for a person (a CIBA request emits).
    let events: PersonEvents
    /// The grant types the features add to the token endpoint.
    let extensionGrants: [ExtensionGrant]
    /// Clients as the token side authenticates them (read at most every two seconds).
    let clients = ClientCache()
    static let codeTTL = 60
    static let accessTokenTTL = 3600
    static let idTokenTTL = 600

    init(rp: RelyingParty, keys: KeyRing, extensionGrants: [ExtensionGrant] = []) {
        issuer = rp.config.publicURL
        accessCodeTTL = rp.config.accessCodeTTL
        storage = rp.storage
        audit = rp.audit
        access = rp.access
        subjectKey = rp.links.key
        clock = rp.clock
        self.keys = keys
        metrics = OIDCMetrics(rp.metrics)
        limiter = StoreRateLimiter(storage: rp.storage)
        limits = rp.config.limits
        self.extensionGrants = extensionGrants
        events = rp.events
    }

    /// Refuses (429) an address whose failures used up `rule`, before any other work.
    func checkFailures(_ key: String, _ rule: RateLimiter.Rule, address: String) async throws(OAuthError) {
        let now = self.now
        let exhausted: Bool
        do { exhausted = try await limiter.exhausted(key, rule, now: now) } catch { throw .temporarilyUnavailable }
        guard exhausted else { return }
        let error = OAuthError.tooManyRequests(rule.window)
        await refused(error, clientId: nil, address: address)
        throw error
    }

    /// Counts one failure towards `rule`.
    func countFailure(_ key: String, _ rule: RateLimiter.Rule) async throws(OAuthError) {
        let now = self.now
        do { _ = try await limiter.hit(key, rule, now: now) } catch { throw .temporarilyUnavailable }
    }

    var now: Int { clock.now }

    /// The subject of a person: stable across registrations (a blocked person registers anew
    /// with a new mpinId), opaque, the same on every instance (keyed with the link key).
    func subject(userId: String) -> String { String(Tokens.hmac(key: subjectKey, "oidc-sub\n" + userId).prefix(32)) }

    /// The `sid` of a ZKPin web session: derived from the stored hash of its cookie, so it
    /// names the session to the sites without revealing anything that opens it.
    static func sid(sessionHash: String) -> String { String(Tokens.hash("oidc-sid\n" + sessionHash).prefix(32)) }

    func client(id: String) async throws(APIError) -> OIDCClient? {
        try await storage("read OIDC client") { try await $0.oidcClient(id: id) }
    }

    /// A store call of the token side: a failure is `temporarily_unavailable` (503).
    func stored<T>(_ operation: (Store) async throws -> T) async throws(OAuthError) -> T {
        do { return try await storage("OIDC token store call", operation) } catch { throw .temporarilyUnavailable }
    }

    /// The ZKPin web session of a cookie, nil when there is none.
    func session(cookie: String?) async throws(APIError) -> WebSession? {
        guard let cookie, !cookie.isEmpty else { return nil }
        let now = self.now
        return try await storage("read web session") { try await $0.webSession(hash: Tokens.hash(cookie), now: now) }
    }

    /// Whether a session may answer the request without a new login (prompt, max_age).
    func sessionSuffices(_ session: WebSession, for request: ValidAuthorization) -> Bool {
        if request.forceLogin { return false }
        if let maxAge = request.maxAge, now - session.created > maxAge { return false }
        return true
    }

    /// Issues a code for a signed-in person; returns the redirect to the client.
    func issueCode(
        clientId: String, redirectURI: String, scope: String, state: String?, nonce: String?, codeChallenge: String?,
        userId: String, mpinId: String, authTime: Int, sid: String?, address: String
    ) async throws -> String {
        let code = Tokens.fresh()
        let created = now
        let grant = AuthorizationCode(
            hash: Tokens.hash(code), clientId: clientId, redirectURI: redirectURI, userId: userId, mpinId: mpinId, scope: scope,
            nonce: nonce, codeChallenge: codeChallenge, authTime: authTime, created: created, expires: created + Self.codeTTL, sid: sid)
        try await storage("insert authorization code") { try await $0.insertAuthorizationCode(grant) }
        metrics.authorizations.increment()
        await audit.record("oidc_authorize", userId: userId, mpinId: mpinId, address: address, "client \(clientId)")
        // Expired codes and tokens go with ExpiryPurger's rounds, not on a request's path.
        return RedirectURL.with(redirectURI, [("code", code), ("state", state), ("iss", issuer)])
    }

    /// The redirect of an error to a verified redirect URI (RFC 6749 4.1.2.1, RFC 9207 iss).
    func errorRedirect(_ error: OAuthError, redirectURI: String, state: String?, clientId: String, address: String) async -> String {
        await refused(error, clientId: clientId, address: address)
        return RedirectURL.with(redirectURI, [("error", error.code), ("error_description", error.description), ("state", state), ("iss", issuer)])
    }

    func refused(_ error: OAuthError, clientId: String?, address: String) async {
        metrics.refusals.increment()
        await audit.record("oidc_refused", address: address, "\(error.code): \(error.description) (client \(clientId ?? "-"))")
    }

    /// Shows the access-code page for a request: a fresh code whose page carries the request.
    /// `makeWebOTT` draws the page's webOTT (PageBinding: bound to the browser, for `authorize`).
    func startLogin(_ request: ValidAuthorization, makeWebOTT: () -> String) async throws -> AccessNumberResponse {
        let access = try await self.access.accessNumber(site: request.client.name, makeWebOTT: makeWebOTT)
        let created = now
        let pending = PendingAuthorization(
            webOTTHash: Tokens.hash(access.webOTT), clientId: request.client.id, redirectURI: request.redirectURI, scope: request.scope,
            state: request.state, nonce: request.nonce, codeChallenge: request.codeChallenge, created: created,
            expires: created + accessCodeTTL + 60)
        try await storage("insert pending authorization") { try await $0.insertPendingAuthorization(pending) }
        return access
    }

    /// The page's post after a successful `zkpin login`: the ZKPin session cookie (as `/session`
    /// gives it) and the redirect to the client with a fresh code.
    func completeLogin(webOTT: String, authOTT: String, address: String) async throws -> (cookie: String, redirect: String) {
        let cookie = try await access.openSession(SessionRequest(webOTT: webOTT, authOTT: authOTT))
        guard let session = try await self.session(cookie: cookie) else {
            throw AuthorizationPageError(message: "The session could not be opened.")
        }
        let now = self.now
        guard
            let pending = try await storage(
                "consume pending authorization",
                {
                    try await $0.consumePendingAuthorization(webOTTHash: Tokens.hash(webOTT), now: now)
                })
        else {
            // Signed in at ZKPin, but the application's request is gone: it has to ask again.
            throw SignedInWithoutRequest(cookie: cookie)
        }
        let redirect = try await issueCode(
            clientId: pending.clientId, redirectURI: pending.redirectURI, scope: pending.scope,
            state: pending.state, nonce: pending.nonce, codeChallenge: pending.codeChallenge,
            userId: session.userId, mpinId: session.mpinId, authTime: session.created, sid: Self.sid(sessionHash: session.hash), address: address)
        return (cookie, redirect)
    }

    struct SignedInWithoutRequest: Error { var cookie: String }
}
