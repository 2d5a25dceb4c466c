import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// Posts the queued logout tokens to the sites' back-channel logout URIs (OpenID Connect
/// Back-Channel Logout 1.0, section 2.5), and each round first ends the sign-ins of identities
/// that stopped being active (whoever ended them, on whichever machine). At least once: a
/// logout is taken from the queue with a lease, and removed only when the site took it (2xx) or
/// refused it (another 4xx, or a redirect, which is never followed); 429, 5xx, timeouts and
/// connection errors are retried with backoff until the window closes (then dropped, counted).
struct BackchannelLogouts: Sendable {
    let signOut: SiteSignOut
    /// Never follows a redirect: a site must not point this request at another address.
    let http: HTTPClient

    static let idlePoll: Duration = .seconds(1)
    static let batch = 16
    /// Seconds a taken logout is someone's before another round may take it again.
    static let lease = 60
    static let sendTimeout: TimeAmount = .seconds(10)

    /// Seconds before the next try after `attempts` failed ones.
    static func backoff(attempts: Int) -> Int { [5, 30, 120, 600, 3600][min(max(attempts, 1), 5) - 1] }

    var provider: OIDCProvider { signOut.provider }
    var metrics: SignOutMetrics { signOut.metrics }
    var logger: Logger { signOut.logger }

    /// Rounds until the task is cancelled.
    func run() async {
        while !Task.isCancelled {
            var more = false
            do { more = try await round() } catch { logger.warning("back-channel logout queue unavailable", metadata: ["error": "\(error)"]) }
            if !more { await signOut.wake.wait(timeout: Self.idlePoll) }
        }
    }

    /// One round; true when more may be waiting.
    @discardableResult
    func round() async throws -> Bool {
        let ended = try await signOut.endForEndedIdentities(limit: 100)
        let now = provider.now
        let dropped = try await provider.storage("drop expired logouts") { try await $0.dropExpiredLogoutDeliveries(now: now) }
        if dropped > 0 {
            metrics.dropped.increment(by: Int64(dropped))
            logger.warning("back-channel logouts dropped undelivered", metadata: ["count": "\(dropped)"])
        }
        let sent = try await deliverDue()
        let waiting = try await provider.storage("count logouts") { try await $0.logoutQueueLength() }
        metrics.queue.set(Int64(waiting))
        return ended == 100 || sent == Self.batch
    }

    /// Sends what is due now; answers how many it took.
    @discardableResult
    func deliverDue() async throws -> Int {
        let now = provider.now
        let due = try await provider.storage("claim logouts") {
            try await $0.claimLogoutDeliveries(now: now, lease: Self.lease, limit: Self.batch)
        }
        await withTaskGroup(of: Void.self) { group in
            for d in due { group.addTask { await deliver(d) } }
        }
        return due.count
    }

    typealias Outcome = OutboundPost.Outcome

    func deliver(_ d: LogoutDelivery) async {
        let outcome: Outcome
        let client: OIDCClient?
        do { client = try await provider.client(id: d.clientId) } catch {
            return  // the lease ends and the logout is taken again
        }
        if let client, let uri = client.backchannelLogoutURI {
            outcome = await postToken(d, to: uri, client: client)
        } else {
            outcome = .refused("the client or its back-channel logout URI was removed")
        }
        await settle(d, outcome)
    }

    /// The logout token for one site, posted as a form (section 2.5).
    func postToken(_ d: LogoutDelivery, to uri: String, client: OIDCClient) async -> Outcome {
        guard OutboundURL.isAllowed(uri) else { return .refused("the URI is neither https nor http on loopback") }
        let now = provider.now
        let claims = LogoutTokenClaims(
            iss: provider.issuer, aud: client.id, iat: now, exp: now + LogoutTokenClaims.lifetime, jti: Tokens.fresh(bytes: 16),
            sub: provider.subject(userId: d.userId), sid: d.sid)
        let token: String
        do {
            token = try await provider.keys.current(SigningKey.Algorithm(rawValue: client.idTokenAlg) ?? .es256)
                .sign(claims, type: LogoutTokenClaims.type)
        } catch { return .retry("the logout token could not be signed: \(error)") }
        var request = HTTPClientRequest(url: uri)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "logout_token=" + token))
        return await OutboundPost.send(request, with: http, timeout: Self.sendTimeout)
    }

    func settle(_ d: LogoutDelivery, _ outcome: Outcome) async {
        let now = provider.now
        do {
            switch outcome {
            case .delivered(let status):
                try await provider.storage("finish logout") { try await $0.finishLogoutDelivery(id: d.id) }
                metrics.sent.increment()
                await provider.audit.record("backchannel_logout", userId: d.userId, "client \(d.clientId): HTTP \(status)")
            case .refused(let reason):
                try await provider.storage("drop logout") { try await $0.finishLogoutDelivery(id: d.id) }
                metrics.refused.increment()
                await provider.audit.record("backchannel_logout_refused", userId: d.userId, "client \(d.clientId): \(reason)")
                logger.warning("back-channel logout refused", metadata: ["client": "\(d.clientId)", "reason": "\(reason)"])
            case .retry(let reason):
                metrics.failed.increment()
                let next = now + Self.backoff(attempts: d.attempts)
                try await provider.storage("retry logout") { try await $0.retryLogoutDelivery(id: d.id, at: next) }
                logger.notice("back-channel logout to retry", metadata: ["client": "\(d.clientId)", "reason": "\(reason)", "next": "\(next)"])
            }
        } catch {
            logger.warning("back-channel logout outcome not recorded", metadata: ["error": "\(error)"])
        }
    }
}
