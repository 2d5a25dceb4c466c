import ZKPinProtocol
import ZKPinWire

/// What the activation page shows.
public enum ActivationPage: Sendable, Equatable {
    /// The link is good: show the details and ask for the code (`wrongCode` after a miss).
    case ask(PendingRegistration, wrongCode: Bool)
    case activated(userId: String)
    /// Forged, expired, unknown or already used link, or too many wrong codes.
    case refused(String)
}

/// `GET|POST /mpinActivate`: the mailed link plus the confirmation code activate a registration.
struct ActivationService: Sendable {
    let config: ServerConfig
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    let links: LinkSigner
    let audit: AuditTrail
    let metrics: ServerMetrics
    let clock: ServerClock
    let events: PersonEvents

    /// The link's query `?i=&e=&s=`.
    struct Link: Sendable {
        var i: String?
        var e: String?
        var s: String?
    }

    /// Checks a link: signature (constant time), signed expiry, stored expiry. The store is read
    /// only for a link the server signed.
    func check(_ link: Link) async throws(APIError) -> Result<PendingRegistration, Refusal> {
        guard let mpinId = link.i, let eText = link.e, let expires = Int(eText), let sig = link.s, Hex.decode(mpinId) != nil
        else { return .failure(Refusal("This activation link is incomplete. Open the link from the mail exactly as it is.")) }
        guard Tokens.equal(links.activationSignature(mpinId: mpinId, expires: expires), sig.lowercased())
        else { return .failure(Refusal("This activation link is not valid.")) }
        let now = clock.now
        guard expires > now else { return .failure(Refusal("This activation link has expired. Register again with your client.")) }
        let found = try await storage("read registration") { try await $0.registration(mpinId: mpinId) }
        guard let pending = found, pending.expires > now
        else { return .failure(Refusal("This registration has expired. Register again with your client.")) }
        guard pending.activated == nil else { return .failure(Refusal("This identity is already activated. You can close this page.")) }
        return .success(pending)
    }

    struct Refusal: Error { let message: String; init(_ message: String) { self.message = message } }

    /// `GET /mpinActivate`.
    func page(_ link: Link) async throws(APIError) -> ActivationPage {
        switch try await check(link) {
        case .success(let pending): return .ask(pending, wrongCode: false)
        case .failure(let refusal): return .refused(refusal.message)
        }
    }

    /// `POST /mpinActivate`: activates when the confirmation code matches. `readCode` parses
    /// the form only after the link has been verified.
    func activate(_ link: Link, address: String, readCode: () async throws(APIError) -> String?) async throws(APIError) -> ActivationPage {
        let pending: PendingRegistration
        switch try await check(link) {
        case .success(let p): pending = p
        case .failure(let refusal): return .refused(refusal.message)
        }
        let now = clock.now
        let rule = config.limits.wrongConfirmationsPerRegistration
        let key = "confirm:\(pending.mpinId)", addressKey = "confirm-addr:\(address)"
        // Every try at this registration's code is counted, atomically, before the code is
        // compared, and a right code (or an unreadable form) gives the count back: concurrent
        // wrong codes never get more than the limit compared (checking first and counting after
        // let 8 of them through, issue 29). The address's count is of wrong codes only, read
        // before and raised after: counting right codes there too, even for a moment, refused
        // people activating at the same time behind one address (an office, `zkpin load`).
        let tooMany = ActivationPage.refused("Too many wrong codes. Wait a quarter of an hour and try again.")
        guard try await !limiter.exhausted(addressKey, rule, now: now) else { return tooMany }
        guard try await limiter.hit(key, rule, now: now) else { return tooMany }
        let code: String?
        do { code = try await readCode() } catch {
            try await limiter.giveBack(key)
            throw error
        }
        guard let code, Tokens.equal(links.confirmationCodeHash(code), pending.codeHash) else {
            _ = try await limiter.hit(addressKey, rule, now: now)
            await audit.record("activation_wrong_code", userId: pending.userId, mpinId: pending.mpinId, address: address)
            return .ask(pending, wrongCode: true)
        }
        try await limiter.giveBack(key)
        let done = try await storage("activate") { try await $0.activate(mpinId: pending.mpinId, now: now) }
        guard done else { return .refused("This registration was already activated or has expired.") }
        await audit.record("activate", userId: pending.userId, mpinId: pending.mpinId, address: address)
        await events.emit(.identityActivated(userId: pending.userId, mpinId: pending.mpinId, device: pending.device))
        metrics.activations.increment()
        return .activated(userId: pending.userId)
    }
}
