/// Backchannel authentication requests (OpenID CIBA, docs/api.md "Approvals"): a site asks,
/// the person's device answers, the site polls (or is pinged) and redeems the answer once.
/// Every change of a request's status is one statement or one locked transaction, so two
/// answers, or two redemptions, give exactly one winner.
extension Store {
    /// Stores `r`, asked for the person the hint named (`person`: the e-mail address, whether
    /// anybody registered it or not).
    public func insertBackchannelRequest(_ r: BackchannelRequest, person: String? = nil) async throws {
        try await driver.write(
            """
            INSERT INTO ciba_requests(id, client_id, user_id, scope, binding_message, authorization_details, notification_token,
                status, created, expires, poll_interval, next_poll, person)
            VALUES (\(r.id), \(r.clientId), \(r.userId), \(r.scope), \(r.bindingMessage), \(r.authorizationDetails),
                    \(r.notificationToken), \(r.status.rawValue), \(r.created), \(r.expires), \(r.interval), \(r.nextPoll), \(person))
            """)
    }

    /// Requests asked for `person` (the hint's e-mail address) that wait for an answer: the
    /// same count for an address nobody registered, so the limit on it tells a site nothing.
    public func pendingBackchannelRequestCount(person: String, now: Int) async throws -> Int {
        try await driver.readOne(
            """
            SELECT count(*) AS n FROM ciba_requests WHERE person = \(person)
                AND status = \(BackchannelRequest.Status.pending.rawValue) AND expires > \(now)
            """
        )?.int("n") ?? 0
    }

    /// One poll of the token endpoint by `clientId`: decides by `PollingRules` and records the
    /// poll (the next allowed time, a longer interval after `slow_down`, the request used up
    /// once its answer is handed over), in one locked transaction. nil: no such request of
    /// this client.
    public func pollBackchannelRequest(id: String, clientId: String, now: Int) async throws
        -> (request: BackchannelRequest, verdict: PollingRules.Verdict)?
    {
        guard let (row, verdict) = try await pollGrant(table: "ciba_requests", key: "id", id: id, clientId: clientId, now: now)
        else { return nil }
        return (try BackchannelRequest(row: row), verdict)
    }

    /// The person's requests still waiting for an answer, oldest first.
    public func pendingBackchannelRequests(userId: String, now: Int) async throws -> [BackchannelRequest] {
        try await driver.read(
            """
            SELECT * FROM ciba_requests WHERE user_id = \(userId) AND status = \(BackchannelRequest.Status.pending.rawValue)
                AND expires > \(now) ORDER BY created, \(raw: dialect.insertionOrder)
            """
        ).map(BackchannelRequest.init(row:))
    }

    public func backchannelRequest(id: String) async throws -> BackchannelRequest? {
        try await driver.readOne("SELECT * FROM ciba_requests WHERE id = \(id)").map(BackchannelRequest.init(row:))
    }

    /// Answers a pending, live request of `userId` once: approved (with the signed approval
    /// and the identity that signed) or denied. nil when it was answered already, expired, or
    /// is not that person's.
    public func answerBackchannelRequest(
        id: String, userId: String, approval: String?, mpinId: String, now: Int
    ) async throws -> BackchannelRequest? {
        let status: BackchannelRequest.Status = approval == nil ? .denied : .approved
        return try await driver.writeOne(
            """
            UPDATE ciba_requests SET status = \(status.rawValue), approval = \(approval), mpin_id = \(mpinId), answered = \(now)
            WHERE id = \(id) AND user_id = \(userId) AND status = \(BackchannelRequest.Status.pending.rawValue) AND expires > \(now)
            RETURNING *
            """
        ).map(BackchannelRequest.init(row:))
    }

    /// Seconds an approved request is kept past expiry: its signed approval is the evidence
    /// that `/oauth/approval/verify` compares a site's stored claim with (400 days: a yearly
    /// audit and its follow-up).
    public static let approvalEvidenceRetention = 400 * 86_400

    /// Requests are kept ten minutes past expiry, so that a late poll is told `expired_token`;
    /// approved ones (their signed approval) for `approvalEvidenceRetention`. Answers the
    /// purged requests that nobody answered (for the audit and `/metrics`).
    @discardableResult
    public func purgeExpiredBackchannelRequests(now: Int) async throws -> [BackchannelRequest] {
        try await driver.write(
            """
            DELETE FROM ciba_requests
            WHERE expires < \(now - 600) AND (approval IS NULL OR expires < \(now - Self.approvalEvidenceRetention)) RETURNING *
            """
        ).map(BackchannelRequest.init(row:))
            .filter { $0.status == .pending }
    }
}

/// A site's question to a person (CIBA Core 1.0 section 7) and its answer.
public struct BackchannelRequest: Sendable, Equatable {
    public typealias Status = GrantStatus

    /// The `auth_req_id`. Not a bearer credential: redeeming it needs the client's own
    /// authentication, and the person's device sees it (it is part of what it signs).
    public var id: String
    public var clientId: String
    /// nil when the hint named nobody registered here: answered like any other, it expires.
    public var userId: String?
    public var scope: String
    public var bindingMessage: String
    /// RFC 9396 `authorization_details` as the client sent it (a JSON array).
    public var authorizationDetails: String?
    /// Ping mode: the bearer token for the client's notification endpoint.
    public var notificationToken: String?
    public var status: Status
    public var created: Int
    public var expires: Int
    /// Seconds the client must wait between polls (longer after each `slow_down`).
    public var interval: Int
    public var nextPoll: Int
    /// The signed approval (JSON, docs/api.md), set with `approved`.
    public var approval: String?
    /// The identity that answered.
    public var mpinId: String?
    public var answered: Int?

    public init(
        id: String, clientId: String, userId: String?, scope: String, bindingMessage: String, authorizationDetails: String?,
        notificationToken: String?, created: Int, expires: Int, interval: Int
    ) {
        self.id = id; self.clientId = clientId; self.userId = userId; self.scope = scope; self.bindingMessage = bindingMessage
        self.authorizationDetails = authorizationDetails; self.notificationToken = notificationToken; status = .pending
        self.created = created; self.expires = expires; self.interval = interval; nextPoll = created + interval
    }

    init(row r: SQLRow) throws {
        self.init(
            id: try r.text("id"), clientId: try r.text("client_id"), userId: try r.optionalText("user_id"), scope: try r.text("scope"),
            bindingMessage: try r.text("binding_message"), authorizationDetails: try r.optionalText("authorization_details"),
            notificationToken: try r.optionalText("notification_token"), created: try r.int("created"), expires: try r.int("expires"),
            interval: try r.int("poll_interval"))
        status = try GrantStatus(row: r)
        nextPoll = try r.int("next_poll")
        approval = try r.optionalText("approval")
        mpinId = try r.optionalText("mpin_id")
        answered = try r.optionalInt("answered")
    }
}

/// CIBA requests and the clients that may make them. Written with BIGINT in both dialects as
/// shipped (SQLite takes it as an integer column); the device grant's table came in the same
/// version, after these (`DeviceGrantSchema`).
enum BackchannelSchema {
    static let changes: [SchemaChange] = [
        SchemaChange(version: 7, owner: "CIBA", summary: "backchannel authentication requests", expiring: ["ciba_requests"]) { d in
            [
                "ALTER TABLE oidc_clients ADD COLUMN ciba_mode TEXT",
                "ALTER TABLE oidc_clients ADD COLUMN ciba_notification_endpoint TEXT",
                """
                CREATE TABLE ciba_requests(id TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT, scope TEXT NOT NULL, binding_message TEXT NOT NULL,
                authorization_details TEXT, notification_token TEXT, status TEXT NOT NULL, created BIGINT NOT NULL,
                expires BIGINT NOT NULL, poll_interval BIGINT NOT NULL, next_poll BIGINT NOT NULL, approval TEXT, mpin_id TEXT,
                answered BIGINT\(d.insertionOrderColumn))
                """,
                "CREATE INDEX ciba_requests_user ON ciba_requests(user_id, status)"
            ]
        },
        // The hint's e-mail address on every request, registered or not: the limit of waiting
        // requests per person counts it.
        SchemaChange(version: 12, owner: "CIBA", summary: "the person each backchannel request names") { _ in
            ["ALTER TABLE ciba_requests ADD COLUMN person TEXT", "CREATE INDEX ciba_requests_person ON ciba_requests(person, status)"]
        }
    ]
}
