/// The security events a hook receives, each from the audit row that records it: the audit log
/// is the one ordered record of what happened (the server's requests and the operator's
/// `zkpin-server admin` commands alike), so a hook follows it with a cursor.
enum SecurityEvents {
    /// Event name → the audit kinds that are that event.
    static let kinds: [(name: String, auditKinds: [String])] = [
        ("identity-registered", ["register"]),
        ("identity-activated", ["activate"]),
        ("identity-blocked", ["block"]),
        ("identity-unblocked", ["unblock"]),
        ("identity-revoked", ["revoke"]),
        ("device-revoked", ["device_revoke"]),
        ("sign-in", ["login"]),
        ("site-sign-in", ["oidc_authorize"]),
        ("approval-approved", ["ciba_approved"]),
        ("approval-denied", ["ciba_denied"]),
        ("approval-expired", ["ciba_expired"]),
        ("not-me", ["ciba_not_me", "push_signin_not_me"]),
        ("client-added", ["oidc_client_add"]),
        ("client-removed", ["oidc_client_remove"]),
        ("keys-rotated", ["keys_rotate"])
    ]

    static let names = kinds.map(\.name)

    /// The event an audit kind is, nil for rows that are no security event (a refused request, a push delivery...).
    static func event(auditKind: String) -> String? { byAuditKind[auditKind] }

    private static let byAuditKind: [String: String] = Dictionary(
        kinds.flatMap { event in event.auditKinds.map { ($0, event.name) } }, uniquingKeysWith: { first, _ in first })

    /// The URI of an event in a token's `events` claim.
    static func uri(_ name: String) -> String { "urn:zkpin:secevent:" + name }
}
