import Logging

/// Appends audit rows. An audit write that fails is logged, not answered: the step it records
/// already happened in the store.
struct AuditTrail: Sendable {
    let store: Store
    let clock: ServerClock
    let logger: Logger

    func record(_ kind: String, userId: String? = nil, mpinId: String? = nil, address: String? = nil, _ detail: String = "") async {
        do {
            try await store.appendAudit(AuditEvent(time: clock.now, kind: kind, userId: userId, mpinId: mpinId, address: address, detail: detail))
        } catch {
            logger.error("audit write failed", metadata: ["kind": "\(kind)", "error": "\(error)"])
        }
    }
}
