import Foundation
import ZKPinProtocol
import ZKPinWire

/// A signed-in browser, as the `/account` page shows it.
public struct AccountView: Sendable, Equatable {
    public var userId: String
    public var device: String
    public var lastLogin: Int?
    /// The identity this session signed in with.
    public var mpinId: String = ""
}

/// Access codes and the page that shows them: drawing a code, the page's status, the client's
/// presentation of a code, the page's exchange of a finished login for a session cookie.
struct AccessService: Sendable {
    let config: ServerConfig
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    let links: LinkSigner
    let audit: AuditTrail
    let clock: ServerClock
    /// A sign-out is told (the sites the person signed in to from this session hear of it).
    let events: PersonEvents

    /// `POST /rps/getAccessNumber` and the login page: a fresh code bound to a fresh webOTT.
    /// With `address`, limited per client address (each code is a row until it is purged).
    /// `makeWebOTT` draws the webOTT (PageBinding binds it to the browser and the purpose);
    /// `site` is the OpenID Connect client the code signs in to, if any.
    func accessNumber(
        address: String? = nil, site: String? = nil, makeWebOTT: () -> String = { Tokens.fresh() }
    ) async throws(APIError) -> AccessNumberResponse {
        if let address, !(try await limiter.hit("codes:\(address)", config.limits.accessCodesPerAddress, now: clock.now)) {
            throw APIError(.rateLimited, "too many access codes asked from this address; wait a minute")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let code = AccessCode.generate { Int.random(in: 0...9, using: &generator) }
            let webOTT = makeWebOTT()
            let created = clock.now
            let session = AccessSession(
                webOTTHash: Tokens.hash(webOTT), code: code, created: created,
                expires: created + config.accessCodeTTL, site: site)
            if try await storage("insert access session", { try await $0.insertAccessSession(session) }) {
                return AccessNumberResponse(
                    accessNumber: code, webOTT: webOTT, ttlSeconds: config.accessCodeTTL,
                    qrUrl: "\(config.publicURL)/#\(code)")
            }
        }
        throw APIError(.unavailable, "no free access code; try again")
    }

    /// `POST /rps/access`: the page's status, as the server saw it.
    func access(_ request: AccessRequest) async throws(APIError) -> AccessResponse {
        let hash = Tokens.hash(request.webOTT)
        let found = try await storage("read access session") { try await $0.accessSession(webOTTHash: hash) }
        guard let session = found else { throw APIError(.notFound, "unknown webOTT") }
        switch session.status {
        case .authenticate:
            try await storage("mark taken up") { try await $0.markTakenUp(webOTTHash: session.webOTTHash) }
            return AccessResponse(
                status: .authenticate, userId: session.userId,
                authOTT: links.pageToken(webOTT: request.webOTT, authOTTHash: session.authOTTHash ?? ""))
        case .used:
            return AccessResponse(status: .expired)
        case _ where session.expires <= clock.now:
            return AccessResponse(status: .expired)
        case .new: return AccessResponse(status: .new)
        case .wid: return AccessResponse(status: .wid)
        case .wrongPIN: return AccessResponse(status: .wrongPIN, attemptsLeft: try await attemptsLeft(mpinId: session.mpinId))
        case .user: return AccessResponse(status: .user, userId: session.userId)
        case .blocked: return AccessResponse(status: .blocked)
        case .refused: return AccessResponse(status: .refused)
        case .denied: return AccessResponse(status: .denied)
        }
    }

    /// The wrong PINs the identity may still make (as `/rps/authenticate` told the client); nil
    /// when the session names no identity or it is gone.
    func attemptsLeft(mpinId: String?) async throws(APIError) -> Int? {
        guard let mpinId else { return nil }
        let identity = try await storage("read identity") { try await $0.identity(mpinId: mpinId) }
        return identity.map { max(0, config.maxAttempts - $0.failedAttempts) }
    }

    /// `POST /rps/codeStatus`: the code presented, and the site it signs in to (nil for the
    /// service's own page), so the client can name it.
    func codeStatus(_ request: CodeStatusRequest, address: String) async throws(APIError) -> CodeStatusResponse {
        guard request.status == "wid" else { throw APIError.bad("status must be \"wid\"") }
        try Self.checkForm(code: request.wid, field: "wid")
        return CodeStatusResponse(clientName: try await present(code: request.wid, address: address).site)
    }

    /// An access code field's form: seven digits, else 400 (openapi.yaml says so). Whether the
    /// code is live, and its check digit, are the store's and `present`'s answer (412).
    static func checkForm(code: String, field: String) throws(APIError) {
        guard code.utf8.count == AccessCode.length, code.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw APIError.bad("\(field) must be the page's \(AccessCode.length)-digit access code")
        }
    }

    /// Marks an access code as presented (412 for an unknown, expired or used one; rate-limited
    /// per address, and the limit is checked before the code is touched); the session after.
    @discardableResult
    func present(code: String, address: String) async throws(APIError) -> AccessSession {
        let rule = config.limits.wrongCodesPerAddress
        let now = clock.now
        if try await limiter.exhausted("code:\(address)", rule, now: now) {
            throw APIError(.rateLimited, "too many wrong access codes from this address; wait a minute")
        }
        let session = AccessCode.isValid(code) ? try await storage("present code") { try await $0.presentCode(code, now: now) } : nil
        guard let session else {
            _ = try await limiter.hit("code:\(address)", rule, now: now)
            throw APIError(.accessCodeExpired, "unknown, expired or used access code")
        }
        return session
    }

    /// Shows the page of `code` (when there is one) that its login was blocked or refused.
    func markRefused(code: String?, _ outcome: AccessSession.Status) async throws(APIError) {
        guard let code else { return }
        let now = clock.now
        _ = try await storage("mark refused") { try await $0.markRefused(code: code, outcome: outcome, now: now) }
    }

    /// Shows the page of `code` that its push sign-in was denied on the person's device; false
    /// when a login with it finished (or it expired) first.
    func markDenied(code: String) async throws(APIError) -> Bool {
        let now = clock.now
        return try await storage("mark denied") { try await $0.markDenied(code: code, now: now) }
    }

    /// wid → user: pass 2 verified `identity` with the code's login; false when the code
    /// expired or moved on meanwhile.
    func markVerified(code: String, _ identity: Identity, authOTTHash: String) async throws(APIError) -> Bool {
        let now = clock.now
        return try await storage("mark user") {
            try await $0.markUser(code: code, mpinId: identity.mpinId, userId: identity.userId, authOTTHash: authOTTHash, now: now)
        }
    }

    /// wid → wrong_pin: the page shows the attempts left; the code stays usable until it expires.
    func markWrongPIN(code: String, mpinId: String) async throws(APIError) {
        let now = clock.now
        _ = try await storage("mark wrong PIN") { try await $0.markWrongPIN(code: code, mpinId: mpinId, now: now) }
    }

    /// user → authenticate for the login of `authOTTHash`; false when the code expired first.
    func markAuthenticated(code: String, authOTTHash: String) async throws(APIError) -> Bool {
        let now = clock.now
        return try await storage("mark authenticated") { try await $0.markAuthenticated(code: code, authOTTHash: authOTTHash, now: now) }
    }

    /// Polls the store (so it works across instances) until the page saw `authenticate`.
    func waitForTakeUp(code: String) async throws(APIError) -> Bool {
        let deadline = Date().addingTimeInterval(config.takeUpWait)
        while true {
            if let s = try await storage("read access session", { try await $0.accessSession(code: code) }), s.takenUp { return true }
            if Date() >= deadline || Task.isCancelled { return false }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// `POST /session`: consumes webOTT and the page token; returns the cookie value.
    func openSession(_ request: SessionRequest) async throws(APIError) -> String {
        let hash = Tokens.hash(request.webOTT)
        let found = try await storage("read access session") { try await $0.accessSession(webOTTHash: hash) }
        guard let session = found, session.status == .authenticate, let authHash = session.authOTTHash,
            Tokens.equal(links.pageToken(webOTT: request.webOTT, authOTTHash: authHash), request.authOTT.lowercased())
        else { throw APIError(.forbidden, "unknown or used login") }
        let now = clock.now
        let window = config.accessCodeTTL + 60
        let consumed = try await storage("consume access session") { try await $0.consumeAccessSession(webOTTHash: hash, now: now, window: window) }
        guard let taken = consumed, let mpinId = taken.mpinId, let userId = taken.userId
        else { throw APIError(.forbidden, "this login was used already or expired") }
        let cookie = Tokens.fresh()
        let webSession = WebSession(hash: Tokens.hash(cookie), mpinId: mpinId, userId: userId, created: now, expires: now + config.sessionTTL)
        try await storage("insert web session") { try await $0.insertWebSession(webSession) }
        await audit.record("session", userId: userId, mpinId: mpinId)
        return cookie
    }

    /// The account of a session cookie, nil when there is none (or it ended).
    func account(cookie: String?) async throws(APIError) -> AccountView? {
        guard let cookie else { return nil }
        let now = clock.now
        guard let session = try await storage("read web session", { try await $0.webSession(hash: Tokens.hash(cookie), now: now) })
        else { return nil }
        let identity = try await storage("read identity") { try await $0.identity(mpinId: session.mpinId) }
        return AccountView(userId: session.userId, device: identity?.device ?? "", lastLogin: identity?.lastLogin, mpinId: session.mpinId)
    }

    /// The person of a session cookie whose identity is active, nil otherwise: one store read
    /// (a proxy asks this before every request to the sites it protects).
    func signedInPerson(cookie: String?) async throws(APIError) -> String? {
        guard let cookie else { return nil }
        let now = clock.now
        return try await storage("read web session") { try await $0.webSession(hash: Tokens.hash(cookie), now: now) }?.userId
    }

    /// `POST /logout` and every other sign-out: the session ends, and `signedOut` is told.
    func closeSession(cookie: String?) async throws(APIError) {
        guard let cookie else { return }
        let ended = try await storage("delete web session") { try await $0.deleteWebSession(hash: Tokens.hash(cookie)) }
        if let ended { await events.emit(.signedOut(userId: ended.userId, mpinId: ended.mpinId, sessionHash: ended.hash)) }
    }
}
