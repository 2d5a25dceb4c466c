import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// Sends each hook the security events of the audit log, in the log's order, as Security Event
/// Tokens posted the way RFC 8935 (push delivery) says: the token as the body
/// (`application/secevent+jwt`), 2xx (202) accepted. At least once: a hook's cursor moves past
/// an event only once its receiver took it, and the cursor is in the store, so a restart or
/// another instance goes on where it was. One instance sends a hook's events at a time (a
/// lease on the hook). A receiver that fails (429, 5xx, a timeout, no connection) is tried
/// again with backoff and gets every later event after it, in order; one that refuses an event
/// (another 4xx, a redirect, never followed) has that event skipped; events older than
/// `maxAge` are skipped and counted.
struct HookDeliverer: Sendable {
    let provider: OIDCProvider
    let metrics: HooksMetrics
    let logger: Logger
    let http: HTTPClient
    /// Seconds after which an undelivered event is skipped.
    let maxAge: Int

    static let idlePoll: Duration = .seconds(1)
    static let batch = 100
    static let lease = 60
    static let sendTimeout: TimeAmount = .seconds(10)
    /// A hole in the audit ids younger than this is waited for: on PostgreSQL a row with a lower
    /// id can commit after one with a higher id.
    static let gapWait = 5

    static func backoff(attempts: Int) -> Int { [5, 15, 30, 60, 300][min(max(attempts, 1), 5) - 1] }

    var storage: StorageGateway { provider.storage }

    func run() async {
        while !Task.isCancelled {
            var more = false
            do { more = try await round() } catch { logger.warning("hooks unavailable", metadata: ["error": "\(error)"]) }
            if !more { try? await Task.sleep(for: Self.idlePoll) }
        }
    }

    /// One round over the due hooks; true when one of them has more to send at once.
    @discardableResult
    func round() async throws -> Bool {
        let now = provider.now
        let hooks = try await storage("read hooks") { try await $0.hooks() }
        guard !hooks.isEmpty else { return false }
        // Side by side: a receiver that is slow or down delays only its own hook.
        let more = try await withThrowingTaskGroup(of: Bool.self) { group in
            for hook in hooks where hook.nextAttempt <= now {
                group.addTask {
                    // A read first: almost always there is nothing new, and then nothing is written.
                    let next = try await storage("read audit") { try await $0.auditRows(after: hook.cursor, limit: 1) }
                    guard !next.isEmpty else { return false }
                    guard let claimed = try await storage("claim hook", { try await $0.claimHook(id: hook.id, now: now, lease: Self.lease) })
                    else { return false }
                    return try await send(claimed)
                }
            }
            return try await group.reduce(false) { $0 || $1 }
        }
        // As of the round's start (the hooks were read once, above).
        let newest = try await storage("read audit") { try await $0.newestAuditId() }
        metrics.lag.set(Int64(max(0, newest - (hooks.map(\.cursor).min() ?? newest))))
        return more
    }

    /// Sends one claimed hook's next events; true when a full batch went (more may wait).
    func send(_ hook: Hook) async throws -> Bool {
        let rows = try await storage("read audit") { try await $0.auditRows(after: hook.cursor, limit: Self.batch) }
        var cursor = hook.cursor
        for row in rows {
            let now = provider.now
            if row.id != cursor + 1 && now - row.event.time < Self.gapWait { break }
            guard let event = SecurityEvents.event(auditKind: row.event.kind), hook.wants(event) else {
                cursor = row.id
                continue
            }
            if now - row.event.time > maxAge {
                metrics.dropped.increment()
                cursor = row.id
                continue
            }
            switch await postEvent(row, event: event, to: hook) {
            case .delivered(_):
                metrics.sent.increment()
                cursor = row.id
                try await storage("advance hook") { try await $0.advanceHook(id: hook.id, cursor: cursor) }
            case .refused(let reason):
                metrics.refused.increment()
                logger.warning(
                    "a hook refused a security event; skipped", metadata: ["hook": "\(hook.id)", "txn": "\(row.id)", "reason": "\(reason)"])
                cursor = row.id
            case .retry(let reason):
                metrics.failed.increment()
                let at = now + Self.backoff(attempts: hook.attempts + 1)
                let reached = cursor
                try await storage("advance hook") { try await $0.advanceHook(id: hook.id, cursor: reached) }
                try await storage("release hook") { try await $0.releaseHook(id: hook.id, at: at, failed: true) }
                logger.notice("hook to retry", metadata: ["hook": "\(hook.id)", "reason": "\(reason)", "next": "\(at)"])
                return false
            }
        }
        let reached = cursor
        try await storage("advance hook") { try await $0.advanceHook(id: hook.id, cursor: reached) }
        try await storage("release hook") { try await $0.releaseHook(id: hook.id, at: 0, failed: false) }
        return rows.count == Self.batch
    }

    func postEvent(_ row: NumberedAuditEvent, event: String, to hook: Hook) async -> OutboundPost.Outcome {
        let token: String
        do {
            let claims = SecurityEventToken(
                issuer: provider.issuer, hook: hook, row: row, event: event, now: provider.now, jti: Tokens.fresh(bytes: 16))
            token = try await provider.keys.current(.es256).sign(claims, type: SecurityEventToken.type)
        } catch { return .retry("the token could not be signed: \(error)") }
        var request = HTTPClientRequest(url: hook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/secevent+jwt")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: token))
        return await OutboundPost.send(request, with: http, timeout: Self.sendTimeout)
    }
}
