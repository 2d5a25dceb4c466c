import JWTKit

/// A Security Event Token (RFC 8417) for one event, signed with the provider's keys (on
/// `/oauth/jwks`): `iss` the provider, `aud` the hook's URL, a fresh `jti`, `iat`, `toe` the
/// time of the event, `txn` the audit row's id (the order, and what a receiver deduplicates a
/// redelivery by), `sub_id` the person (RFC 9493 `email` format) when there is one, and one
/// `events` member whose value carries the event's details.
struct SecurityEventToken: JWTPayload, Equatable {
    static let type = "secevent+jwt"

    struct Subject: Codable, Equatable {
        var format = "email"
        var email: String
    }

    struct Details: Codable, Equatable {
        var mpin_id: String?
        var address: String?
        var detail: String?
    }

    var iss: String
    var aud: String
    var iat: Int
    var jti: String
    var toe: Int
    var txn: String
    var sub_id: Subject?
    var events: [String: Details]

    func verify(using algorithm: some JWTAlgorithm) async throws {}

    init(issuer: String, hook: Hook, row: NumberedAuditEvent, event: String, now: Int, jti: String) {
        iss = issuer
        aud = hook.url
        iat = now
        self.jti = jti
        toe = row.event.time
        txn = String(row.id)
        sub_id = row.event.userId.map { Subject(email: $0) }
        let e = row.event
        events = [
            SecurityEvents.uri(event): Details(mpin_id: e.mpinId, address: e.address, detail: e.detail.isEmpty ? nil : e.detail)
        ]
    }
}
