import Foundation
import ZKPinWire

/// `/rps/push/subscriptions`: a device stores, lists and removes its Web Push subscriptions.
/// Each call proves the identity with its holder proof; wrong proofs are limited per address
/// (they are guesses at a 256-bit HMAC, but each costs a store read). The endpoint must be
/// under an allowed origin (`PushOptions.services`), its keys a valid P-256 point and a
/// 16-byte secret: checked before anything is stored.
struct PushSubscriptions: Sendable {
    let options: PushOptions
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    let links: LinkSigner
    let audit: AuditTrail
    let clock: ServerClock

    static let wrongProofsPerAddress = RateLimiter.Rule(limit: 20, window: 300)
    static let maxEndpointBytes = 2048

    func subscribe(_ r: PushSubscribeRequest, address: String) async throws(APIError) -> PushSubscriptionView {
        guard !r.endpoint.isEmpty, r.endpoint.utf8.count <= Self.maxEndpointBytes else {
            throw APIError.bad("endpoint must be the push service's URL (at most \(Self.maxEndpointBytes) bytes)")
        }
        do { _ = try WebPushReceiverKeys(p256dh: r.keys.p256dh, auth: r.keys.auth) } catch { throw APIError.bad("keys: \(error)") }
        do { _ = try options.services.check(endpoint: r.endpoint) } catch {
            throw APIError.bad("\(error.description); this server sends push messages only to \(options.services)")
        }
        let identity = try await holder(r.mpinId, r.holder, address: address)
        let existing = try await storage("read push subscriptions") { try await $0.pushSubscriptions(mpinId: identity.mpinId) }
        if existing.count >= options.subscriptionsPerIdentity, !existing.contains(where: { $0.endpoint == r.endpoint }) {
            throw APIError(.forbidden, "this device has \(existing.count) push subscriptions already: remove one first")
        }
        let s = PushSubscription(
            id: Tokens.fresh(bytes: 16), userId: identity.userId, mpinId: identity.mpinId, endpoint: r.endpoint, p256dh: r.keys.p256dh,
            auth: r.keys.auth, created: clock.now)
        try await storage("store push subscription") { try await $0.upsertPushSubscription(s) }
        await audit.record("push_subscribed", userId: identity.userId, mpinId: identity.mpinId, address: address, Self.origin(r.endpoint))
        return PushSubscriptionView(id: s.id, endpoint: s.endpoint, created: s.created, lastDelivery: nil)
    }

    func list(_ r: PushListRequest, address: String) async throws(APIError) -> PushListResponse {
        let identity = try await holder(r.mpinId, r.holder, address: address)
        let found = try await storage("read push subscriptions") { try await $0.pushSubscriptions(mpinId: identity.mpinId) }
        return PushListResponse(
            subscriptions: found.map { PushSubscriptionView(id: $0.id, endpoint: $0.endpoint, created: $0.created, lastDelivery: $0.lastDelivery) })
    }

    func unsubscribe(_ r: PushUnsubscribeRequest, address: String) async throws(APIError) -> PushListResponse {
        guard !r.subscription.isEmpty, r.subscription.utf8.count <= Self.maxEndpointBytes else {
            throw APIError.bad("subscription must be a subscription's id or endpoint")
        }
        let identity = try await holder(r.mpinId, r.holder, address: address)
        let removed = try await storage("remove push subscription") {
            try await $0.deletePushSubscription(mpinId: identity.mpinId, idOrEndpoint: r.subscription)
        }
        guard removed else { throw APIError(.notFound, "this device has no such push subscription") }
        await audit.record("push_unsubscribed", userId: identity.userId, mpinId: identity.mpinId, address: address)
        return try await list(PushListRequest(mpinId: r.mpinId, holder: r.holder), address: address)
    }

    /// The active identity whose holder proof this is; a wrong proof, an unknown or inactive
    /// identity are one answer (403), counted per address.
    func holder(_ mpinId: String, _ proof: String, address: String) async throws(APIError) -> Identity {
        _ = try MPinIDText.bytes(mpinId)
        let key = "push-holder:" + address
        let now = clock.now
        guard try await !limiter.exhausted(key, Self.wrongProofsPerAddress, now: now) else {
            throw APIError(.rateLimited, "too many wrong holder proofs from this address: wait a few minutes")
        }
        let identity = try await storage("read identity") { try await $0.identity(mpinId: mpinId) }
        guard proof.utf8.count <= 128, Tokens.equal(links.holderProof(mpinId: mpinId), proof.lowercased()), let identity,
            identity.state == .active
        else {
            _ = try await limiter.hit(key, Self.wrongProofsPerAddress, now: now)
            throw APIError(.forbidden, "not this identity's holder proof, or the identity is not active (sign in again to get one)")
        }
        return identity
    }

    /// The endpoint's origin, for the audit (the rest of the URL names the device).
    static func origin(_ endpoint: String) -> String { PushOrigin.parse(endpoint)?.origin.description ?? "?" }
}
