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

extension RelyingParty {
    /// Checks a link `?i=&e=&s=`: signature (constant time), signed expiry, stored expiry.
    func checkLink(i: String?, e: String?, s: String?) async -> Result<PendingRegistration, ActivationFailure> {
        guard let mpinId = i, let eText = e, let expires = Int(eText), let sig = s, Hex.decode(mpinId) != nil
        else { return .failure(.refused("This activation link is incomplete. Open the link from the mail exactly as it is.")) }
        guard Tokens.equal(activationSignature(mpinId: mpinId, expires: expires), sig.lowercased())
        else { return .failure(.refused("This activation link is not valid.")) }
        guard expires > now else { return .failure(.refused("This activation link has expired. Register again with your client.")) }
        let found = try? await store.registration(mpinId: mpinId)
        guard let pending = found, pending.expires > now
        else { return .failure(.refused("This registration has expired. Register again with your client.")) }
        guard pending.activated == nil else { return .failure(.refused("This identity is already activated. You can close this page.")) }
        return .success(pending)
    }

    struct ActivationFailure: Error { let page: ActivationPage; static func refused(_ m: String) -> ActivationFailure { .init(page: .refused(m)) } }

    /// `GET /mpinActivate`.
    public func activationPage(i: String?, e: String?, s: String?) async -> ActivationPage {
        switch await checkLink(i: i, e: e, s: s) {
        case .success(let pending): return .ask(pending, wrongCode: false)
        case .failure(let f): return f.page
        }
    }

    /// `POST /mpinActivate`: activates when the confirmation code matches.
    public func activate(i: String?, e: String?, s: String?, code: String?, address: String) async -> ActivationPage {
        let pending: PendingRegistration
        switch await checkLink(i: i, e: e, s: s) {
        case .success(let p): pending = p
        case .failure(let f): return f.page
        }
        let key = "confirm:\(pending.mpinId)"
        guard await !limiter.exhausted(key, config.limits.wrongConfirmationsPerRegistration, now: now),
              await !limiter.exhausted("confirm-addr:\(address)", config.limits.wrongConfirmationsPerRegistration, now: now)
        else { return .refused("Too many wrong codes. Wait a quarter of an hour and try again.") }
        guard let code, Tokens.equal(codeHash(code), pending.codeHash) else {
            _ = await limiter.hit(key, config.limits.wrongConfirmationsPerRegistration, now: now)
            _ = await limiter.hit("confirm-addr:\(address)", config.limits.wrongConfirmationsPerRegistration, now: now)
            await audit("activation_wrong_code", userId: pending.userId, mpinId: pending.mpinId, address: address)
            return .ask(pending, wrongCode: true)
        }
        let done = (try? await store.activate(mpinId: pending.mpinId, now: now)) ?? false
        guard done else { return .refused("This registration was already activated or has expired.") }
        await audit("activate", userId: pending.userId, mpinId: pending.mpinId, address: address)
        metrics.activations.increment()
        return .activated(userId: pending.userId)
    }
}
