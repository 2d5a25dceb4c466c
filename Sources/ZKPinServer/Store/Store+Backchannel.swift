/// Backchannel authentication requests (OpenID CIBA, docs/api.md "Approvals"): a site asks,
/// the person's device answers, the site polls (or is pinged) and redeems the answer once.
/// Every change of a request's status is one statement or one locked transaction, so two
/// answers, or two redemptions, give exactly one winner.
extension Store {
    public func insertBackchannelRequest(_ r: BackchannelRequest) async throws {
        try await driver.write(
            """
            INSERT INTO ciba_requests(id, client_id, user_id, scope, binding_message, authorization_details, notification_token,
                status, created, expires, poll_interval, next_poll)
            VALUES (\(r.id), \(r.clientId), \(r.userId), \(r.scope), \(r.bindingMessage), \(r.authorizationDetails),
                    \(r.notificationToken), \(r.status.rawValue), \(r.created), \(r.expires), \(r.interval), \(r.nextPoll))
            """)
    }

    /// One poll of the token endpoint by `clientId`: decides by `PollingRules` and records the
    /// poll (the next allowed time, a longer interval after `slow_down`, the request used up
    /// once its answer is handed over), in one locked transaction. nil: no such request of
    /// this client.
    public func pollBackchannelRequest(id: String, clientId: String, now: Int) async throws
        -> (request: BackchannelRequest, verdict: PollingRules.Verdict)?
    {
        let lock = dialect.lockRow
        return try await transaction { tx in
            guard
                let row = try tx.one("SELECT * FROM ciba_requests WHERE id = \(id) AND client_id = \(clientId) \(raw: lock)"),
                var request = try? BackchannelRequest(row: row)
            else { return nil }
            let verdict = PollingRules.decide(request.pollState, now: now)
            request.apply(verdict, now: now)
            _ = try tx.run(
                """
                UPDATE ciba_requests SET status = \(request.status.rawValue), poll_interval = \(request.interval),
                    next_poll = \(request.nextPoll) WHERE id = \(id)
                """)
            return (request, verdict)
        }
    }

    /// The person's requests still waiting for an answer, oldest first.
    public func pendingBackchannelRequests(userId: String, now: Int) async throws -> [BackchannelRequest] {
        try await driver.read(
            """
            SELECT * FROM ciba_requests WHERE user_id = \(userId) AND status = \(BackchannelRequest.Status.pending.rawValue)
                AND expires > \(now) ORDER BY created, id
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

    /// Requests are kept ten minutes past expiry, so that a late poll is told `expired_token`.
    public func purgeExpiredBackchannelRequests(now: Int) async throws {
        try await driver.write("DELETE FROM ciba_requests WHERE expires < \(now - 600)")
    }
}

/// A site's question to a person (CIBA Core 1.0 section 7) and its answer.
public struct BackchannelRequest: Sendable, Equatable {
    public enum Status: String, Sendable {
        case pending, approved, denied
        /// The answer was handed to the site (tokens or access_denied): nothing more to redeem.
        case redeemed
    }

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
        guard let status = Status(rawValue: try r.text("status")) else { throw SQLRow.Mismatch(column: "status", found: try r.value("status")) }
        self.status = status
        nextPoll = try r.int("next_poll")
        approval = try r.optionalText("approval")
        mpinId = try r.optionalText("mpin_id")
        answered = try r.optionalInt("answered")
    }

    var pollState: PollingRules.State {
        let answer: PollingRules.Answer? =
            switch status {
            case .pending: nil
            case .approved: .approved
            case .denied: .denied
            case .redeemed: .redeemed
            }
        return PollingRules.State(answer: answer, expires: expires, nextPoll: nextPoll, interval: interval)
    }

    mutating func apply(_ verdict: PollingRules.Verdict, now: Int) {
        let next = PollingRules.after(verdict, pollState, now: now)
        interval = next.interval
        nextPoll = next.nextPoll
        if verdict == .issue || verdict == .denied { status = .redeemed }
    }
}

/// The CIBA tables, for both stores (SQLite migration v7, PostgreSQL version 6).
enum BackchannelSchema {
    static let columns = """
        id TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT, scope TEXT NOT NULL, binding_message TEXT NOT NULL,
        authorization_details TEXT, notification_token TEXT, status TEXT NOT NULL, created BIGINT NOT NULL,
        expires BIGINT NOT NULL, poll_interval BIGINT NOT NULL, next_poll BIGINT NOT NULL, approval TEXT, mpin_id TEXT,
        answered BIGINT
        """

    static let postgres: [String] = [
        "ALTER TABLE oidc_clients ADD COLUMN ciba_mode TEXT",
        "ALTER TABLE oidc_clients ADD COLUMN ciba_notification_endpoint TEXT",
        "CREATE TABLE ciba_requests(\(columns))",
        "CREATE INDEX ciba_requests_user ON ciba_requests(user_id, status)"
    ]

    /// SQLite takes BIGINT as an integer column (type affinity), so the columns are the same text.
    static let sqlite = """
        ALTER TABLE oidc_clients ADD COLUMN ciba_mode TEXT;
        ALTER TABLE oidc_clients ADD COLUMN ciba_notification_endpoint TEXT;
        CREATE TABLE ciba_requests(\(columns));
        CREATE INDEX ciba_requests_user ON ciba_requests(user_id, status);
        """
}
