import Foundation
import Logging
import ZKPinWire

/// Sends the queued messages: claims what is due (`Store.claimPushDeliveries`, with a lease so
/// that a send cut short by a crash is retried, and instances never claim the same one),
/// encrypts each for its subscription and sends it (`PushSender`), then records the outcome:
/// taken (removed from the queue), gone (the subscription is removed), retry (later, with
/// backoff or the service's Retry-After, until the message expires), refused (dropped).
struct PushDeliverer: Sendable {
    let storage: StorageGateway
    let sender: PushSender
    let options: PushOptions
    let clock: ServerClock
    let metrics: PushMetrics
    let audit: AuditTrail
    let logger: Logger
    let wake: Wakeup

    /// Seconds between looks at the queue when nothing wakes the deliverer.
    static let idlePoll: Duration = .seconds(1)
    static let batch = 16

    /// Seconds before the next try after `attempts` failed ones.
    static func backoff(attempts: Int) -> Int { [5, 20, 60, 300][min(max(attempts, 1), 4) - 1] }

    /// Delivers until the task is cancelled.
    func run() async {
        while !Task.isCancelled {
            var sent = 0
            do { sent = try await deliverDue() } catch { logger.warning("push queue unavailable", metadata: ["error": "\(error)"]) }
            if sent == Self.batch { continue }  // more may be due
            await waitForWork()
        }
    }

    /// One pass: sends what is due now; answers how many it claimed.
    @discardableResult
    func deliverDue() async throws -> Int {
        let now = clock.now
        let claimed = try await storage("claim push messages") {
            try await $0.claimPushDeliveries(now: now, lease: options.lease, limit: Self.batch)
        }
        await withTaskGroup(of: Void.self) { group in
            for (delivery, subscription) in claimed { group.addTask { await deliver(delivery, to: subscription) } }
        }
        return claimed.count
    }

    func deliver(_ d: PushDelivery, to s: PushSubscription) async {
        let now = clock.now
        let keys: WebPushReceiverKeys
        do { keys = try WebPushReceiverKeys(p256dh: s.p256dh, auth: s.auth) } catch {
            await settle(d, s, .refused(status: nil, reason: "the stored keys are not valid"), now: now)
            return
        }
        let message = PushMessage(payload: Array(d.payload.utf8), ttl: max(0, d.expires - now), urgency: PushUrgency(rawValue: d.urgency) ?? .normal)
        let outcome = await sender.send(message, to: s.endpoint, keys: keys)
        await settle(d, s, outcome, now: clock.now)
    }

    func settle(_ d: PushDelivery, _ s: PushSubscription, _ outcome: PushOutcome, now: Int) async {
        let origin = PushSubscriptions.origin(s.endpoint)
        do {
            switch outcome {
            case .delivered:
                try await storage("finish push message") { try await $0.finishPushDelivery(id: d.id, subscriptionId: s.id, now: now) }
                metrics.sent.increment()
            case .gone(let status):
                try await storage("remove gone push subscription") { try await $0.deletePushSubscription(id: s.id) }
                metrics.gone.increment()
                await audit.record("push_gone", userId: s.userId, mpinId: s.mpinId, "\(origin): HTTP \(status), subscription removed")
            case .retryLater(let after, let reason):
                metrics.failed.increment()
                let next = now + (after.map { min(max($0, 1), 3600) } ?? Self.backoff(attempts: d.attempts))
                if next >= d.expires {
                    try await storage("drop push message") { try await $0.dropPushDelivery(id: d.id) }
                } else {
                    try await storage("retry push message") { try await $0.retryPushDelivery(id: d.id, at: next) }
                }
                logger.notice("push send to retry", metadata: ["service": "\(origin)", "reason": "\(reason)", "next": "\(next)"])
            case .refused(let status, let reason):
                metrics.failed.increment()
                try await storage("drop push message") { try await $0.dropPushDelivery(id: d.id) }
                logger.warning(
                    "push send refused", metadata: ["service": "\(origin)", "status": "\(status.map(String.init) ?? "-")", "reason": "\(reason)"])
            case .redirected(let status, _):
                metrics.failed.increment()
                try await storage("drop push message") { try await $0.dropPushDelivery(id: d.id) }
                logger.warning("push service redirected; not followed", metadata: ["service": "\(origin)", "status": "\(status)"])
            }
        } catch {
            // The lease runs out and the message is claimed again.
            logger.warning("push outcome not recorded", metadata: ["error": "\(error)"])
        }
    }

    /// Until something is queued here, or the idle poll's time is up.
    func waitForWork() async { await wake.wait(timeout: Self.idlePoll) }
}
