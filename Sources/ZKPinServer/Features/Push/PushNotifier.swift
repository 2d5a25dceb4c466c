import Foundation
import Logging
import Synchronization
import ZKPinWire

/// Turns person events into queued messages, one per subscription of the person's active
/// identities, and wakes the deliverer. Queueing is one store transaction; nothing here
/// waits on a push service. A store failure loses the notification, never the event's own
/// work (the request it tells of is stored and listed as before), and is logged.
struct PushNotifier: Sendable {
    let storage: StorageGateway
    let clock: ServerClock
    let metrics: PushMetrics
    let wake: Wakeup
    /// The live streams of this process (others find the event by polling).
    let live: PushBroadcast
    let logger: Logger

    func handle(_ event: PersonEvent) async {
        switch event {
        case .approvalRequested(let userId, let requestId, let site, let message, let expires):
            await queue(
                userId: userId, PushPayload(kind: "approval", id: requestId, site: site, message: message, expires: expires), urgency: "high")
        case .identityActivated(let userId, let mpinId, let device):
            // Told to the person's other devices; kept a day.
            await queue(
                userId: userId, PushPayload(kind: "identity", device: device, expires: clock.now + 86_400), urgency: "normal",
                except: mpinId)
        case .signedOut:
            break  // the devices need not hear of a browser's sign-out
        }
    }

    func queue(userId: String, _ payload: PushPayload, urgency: String, except: String? = nil) async {
        let now = clock.now
        do {
            let text = String(decoding: try JSONEncoder().encode(payload), as: UTF8.self)
            try await storage("record live event") {
                try await $0.insertPushEvent(id: Tokens.fresh(bytes: 16), userId: userId, payload: text, created: now, expires: payload.expires)
            }
            live.signal()
            let subscriptions = try await storage("read push subscriptions") { try await $0.activePushSubscriptions(userId: userId) }
                .filter { $0.mpinId != except }
            guard !subscriptions.isEmpty else { return }
            let deliveries = subscriptions.map {
                PushDelivery(
                    id: Tokens.fresh(bytes: 16), subscriptionId: $0.id, payload: text, urgency: urgency, created: now, expires: payload.expires,
                    nextAttempt: now)
            }
            try await storage("queue push messages") { try await $0.queuePushDeliveries(deliveries) }
            metrics.queued.increment(by: Int64(deliveries.count))
            wake.signal()
        } catch {
            logger.error("push messages could not be queued", metadata: ["kind": "\(payload.kind)", "error": "\(error)"])
        }
    }
}

/// Wakes every waiting live stream at once (each then reads its person's events).
final class PushBroadcast: Sendable {
    private let waiters = Mutex<[UUID: CheckedContinuation<Void, Never>]>([:])

    func signal() {
        for w in waiters.withLock({ w -> [CheckedContinuation<Void, Never>] in
            defer { w = [:] }; return Array(w.values)
        }) { w.resume() }
    }

    /// Returns at the next signal or after `timeout`, whichever comes first.
    func wait(timeout: Duration) async {
        let id = UUID()
        var timer: Task<Void, Never>?
        await withCheckedContinuation { c in
            // Registered before the timer starts, so the timer always finds it (or a signal took it).
            waiters.withLock { $0[id] = c }
            timer = Task { [self] in
                do { try await Task.sleep(for: timeout) } catch { return }
                waiters.withLock { $0.removeValue(forKey: id) }?.resume()
            }
        }
        timer?.cancel()
    }
}
