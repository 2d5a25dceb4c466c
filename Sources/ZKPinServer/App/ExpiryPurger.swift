import Logging

/// Deletes expired rows (pass-1 challenges, access sessions an hour past expiry, auth tokens,
/// web sessions, rate-limit windows, registrations, OpenID Connect codes and tokens) and
/// records the expiring tables' sizes in `/metrics`. Every instance runs it: each statement
/// deletes only expired rows, so instances purging the same PostgreSQL at once do no harm.
public struct ExpiryPurger: Sendable {
    let store: Store
    let clock: ServerClock
    let metrics: ServerMetrics
    let audit: AuditTrail
    let logger: Logger

    public init(rp: RelyingParty, logger: Logger) {
        store = rp.store
        clock = rp.clock
        metrics = rp.metrics
        audit = rp.audit
        self.logger = logger
    }

    /// One purge; false (logged and counted) when the store failed.
    @discardableResult
    public func purgeOnce() async -> Bool {
        let now = clock.now
        do {
            // The core's tables, then each feature's.
            try await store.purgeExpired(now: now)
            _ = try await store.deleteExpiredRegistrations(now: now)
            try await store.purgeExpiredOIDC(now: now)
            try await store.purgeExpiredOTPs(now: now)
            try await store.purgeExpiredDeviceCodes(now: now)
            try await store.purgeExpiredPush(now: now)
            // A request nobody answered is recorded when it goes (its site was told expired_token).
            for request in try await store.purgeExpiredBackchannelRequests(now: now) {
                metrics.approvalExpiries.increment()
                await audit.record(
                    "ciba_expired", userId: request.userId,
                    "client \(request.clientId): \(request.bindingMessage) (expired unanswered at \(request.expires))")
            }
            for (table, rows) in try await store.expiringRowCounts() { metrics.expiringRows(table).set(Double(rows)) }
            metrics.purges.increment()
            return true
        } catch {
            metrics.purgeFailures.increment()
            logger.error("expiry purge failed", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// Purges every `interval` until the task is cancelled.
    public func run(every interval: Duration = .seconds(60)) async {
        while !Task.isCancelled {
            await purgeOnce()
            try? await Task.sleep(for: interval)
        }
    }
}
