/// Web Push subscriptions (one per push endpoint, each of one identity: a device) and the
/// delivery queue. A delivery is claimed with a lease (`next_attempt` moves past the lease
/// before the message is sent), so an instance killed while sending leaves it to be sent
/// again after the lease, and instances sharing PostgreSQL never claim the same one. Only
/// subscriptions of active identities are listed or delivered to; the purge removes those of
/// revoked and blocked identities.
extension Store {
    /// Stores `s`, replacing any subscription of the same endpoint (a browser that
    /// subscribes again, or gives its endpoint to another identity, keeps one row).
    public func upsertPushSubscription(_ s: PushSubscription) async throws {
        try await transaction { tx in
            _ = try tx.run("DELETE FROM push_subscriptions WHERE endpoint = \(s.endpoint)")
            _ = try tx.run(
                """
                INSERT INTO push_subscriptions(id, user_id, mpin_id, endpoint, p256dh, auth, created)
                VALUES (\(s.id), \(s.userId), \(s.mpinId), \(s.endpoint), \(s.p256dh), \(s.auth), \(s.created))
                """)
        }
    }

    /// The subscriptions of one identity (a device), oldest first.
    public func pushSubscriptions(mpinId: String) async throws -> [PushSubscription] {
        try await driver.read("SELECT * FROM push_subscriptions WHERE mpin_id = \(mpinId) ORDER BY created, id")
            .map(PushSubscription.init(row:))
    }

    /// The subscriptions of every active identity of the person.
    public func activePushSubscriptions(userId: String) async throws -> [PushSubscription] {
        try await driver.read(
            """
            SELECT s.* FROM push_subscriptions s JOIN identities i ON i.mpin_id = s.mpin_id
            WHERE s.user_id = \(userId) AND i.state = 'active' ORDER BY s.created, s.id
            """
        ).map(PushSubscription.init(row:))
    }

    /// Removes one subscription of an identity; false when it has none by that id or endpoint.
    public func deletePushSubscription(mpinId: String, idOrEndpoint: String) async throws -> Bool {
        try await transaction { tx in
            let gone = try tx.run(
                """
                DELETE FROM push_subscriptions WHERE mpin_id = \(mpinId) AND (id = \(idOrEndpoint) OR endpoint = \(idOrEndpoint))
                RETURNING id
                """)
            for row in gone { _ = try tx.run("DELETE FROM push_deliveries WHERE subscription_id = \(try row.text("id"))") }
            return !gone.isEmpty
        }
    }

    /// A subscription the push service said is gone (404, 410), with its queued deliveries.
    public func deletePushSubscription(id: String) async throws {
        try await transaction { tx in
            _ = try tx.run("DELETE FROM push_deliveries WHERE subscription_id = \(id)")
            _ = try tx.run("DELETE FROM push_subscriptions WHERE id = \(id)")
        }
    }

    public func queuePushDeliveries(_ deliveries: [PushDelivery]) async throws {
        guard !deliveries.isEmpty else { return }
        try await transaction { tx in
            for d in deliveries {
                _ = try tx.run(
                    """
                    INSERT INTO push_deliveries(id, subscription_id, payload, urgency, created, expires, next_attempt, attempts)
                    VALUES (\(d.id), \(d.subscriptionId), \(d.payload), \(d.urgency), \(d.created), \(d.expires), \(d.nextAttempt), \(d.attempts))
                    """)
            }
        }
    }

    /// Claims up to `limit` deliveries due by `now` whose subscription's identity is active:
    /// each one's next attempt moves to `now + lease` and its attempts count up, in one
    /// statement, so that no other instance claims it meanwhile.
    public func claimPushDeliveries(now: Int, lease: Int, limit: Int) async throws -> [(PushDelivery, PushSubscription)] {
        let skip = dialect.skipTaken
        let claimed = try await driver.write(
            """
            UPDATE push_deliveries SET next_attempt = \(now + lease), attempts = attempts + 1
            WHERE id IN (
                SELECT d.id FROM push_deliveries d
                JOIN push_subscriptions s ON s.id = d.subscription_id
                JOIN identities i ON i.mpin_id = s.mpin_id
                WHERE d.next_attempt <= \(now) AND d.expires > \(now) AND i.state = 'active'
                ORDER BY d.next_attempt LIMIT \(limit) \(raw: skip))
            RETURNING *
            """
        ).map(PushDelivery.init(row:))
        guard !claimed.isEmpty else { return [] }
        let subscriptions = try await driver.read(
            "SELECT * FROM push_subscriptions WHERE id IN (\(list: claimed.map(\.subscriptionId)))"
        ).map(PushSubscription.init(row:))
        let byId = Dictionary(subscriptions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return claimed.compactMap { d in byId[d.subscriptionId].map { (d, $0) } }
    }

    /// A delivery the push service took: gone from the queue, the subscription's last delivery set.
    public func finishPushDelivery(id: String, subscriptionId: String, now: Int) async throws {
        try await transaction { tx in
            _ = try tx.run("DELETE FROM push_deliveries WHERE id = \(id)")
            _ = try tx.run("UPDATE push_subscriptions SET last_delivery = \(now) WHERE id = \(subscriptionId)")
        }
    }

    /// A delivery to try again at `at` (or to drop, when it expires first: the purge does).
    public func retryPushDelivery(id: String, at: Int) async throws {
        try await driver.write("UPDATE push_deliveries SET next_attempt = \(at) WHERE id = \(id)")
    }

    public func dropPushDelivery(id: String) async throws {
        try await driver.write("DELETE FROM push_deliveries WHERE id = \(id)")
    }

    /// Deletes expired deliveries, live events and push sign-ins, and the subscriptions (with their deliveries) of
    /// identities that are no longer active (revoked, blocked) or gone.
    public func purgeExpiredPush(now: Int) async throws {
        try await transaction { tx in
            _ = try tx.run("DELETE FROM push_deliveries WHERE expires <= \(now)")
            _ = try tx.run("DELETE FROM push_events WHERE expires <= \(now)")
            _ = try tx.run("DELETE FROM push_signins WHERE expires <= \(now)")
            let inactive = """
                SELECT s.id FROM push_subscriptions s LEFT JOIN identities i ON i.mpin_id = s.mpin_id
                WHERE i.mpin_id IS NULL OR i.state <> 'active'
                """
            _ = try tx.run("DELETE FROM push_deliveries WHERE subscription_id IN (\(raw: inactive))")
            _ = try tx.run("DELETE FROM push_subscriptions WHERE id IN (\(raw: inactive))")
        }
    }

    // MARK: The person's recent events (the live stream, /rps/push/events)

    public func insertPushEvent(id: String, userId: String, payload: String, created: Int, expires: Int) async throws {
        try await driver.write(
            """
            INSERT INTO push_events(id, user_id, payload, created, expires)
            VALUES (\(id), \(userId), \(payload), \(created), \(expires))
            """)
    }

    /// The person's live events after position `after` (in insertion order), oldest first.
    public func pushEvents(userId: String, after: Int, now: Int, limit: Int = 50) async throws -> [(position: Int, payload: String)] {
        let order = dialect.insertionOrder
        return try await driver.read(
            """
            SELECT \(raw: order) AS position, payload FROM push_events
            WHERE user_id = \(userId) AND \(raw: order) > \(after) AND expires > \(now)
            ORDER BY \(raw: order) LIMIT \(limit)
            """
        ).map { (try $0.int("position"), try $0.text("payload")) }
    }

    /// The newest position of the person's events (0 when none): where a new stream starts.
    public func lastPushEventPosition(userId: String) async throws -> Int {
        try await driver.readOne(
            "SELECT COALESCE(MAX(\(raw: dialect.insertionOrder)), 0) AS position FROM push_events WHERE user_id = \(userId)"
        )?.int("position") ?? 0
    }

    /// Deliveries waiting in the queue (for /metrics and tests).
    public func queuedPushDeliveries() async throws -> Int {
        try await driver.readOne("SELECT count(*) AS n FROM push_deliveries")?.int("n") ?? 0
    }
}

/// A Web Push subscription of one identity (RFC 8030 endpoint, RFC 8291 keys).
public struct PushSubscription: Sendable, Equatable {
    public var id: String
    public var userId: String
    public var mpinId: String
    /// The push service's URL for this device (under an allowed origin when it was stored).
    public var endpoint: String
    /// The device's P-256 public key and auth secret, base64url as the browser gives them.
    public var p256dh: String
    public var auth: String
    public var created: Int
    public var lastDelivery: Int?

    public init(
        id: String, userId: String, mpinId: String, endpoint: String, p256dh: String, auth: String, created: Int, lastDelivery: Int? = nil
    ) {
        self.id = id; self.userId = userId; self.mpinId = mpinId; self.endpoint = endpoint
        self.p256dh = p256dh; self.auth = auth; self.created = created; self.lastDelivery = lastDelivery
    }

    init(row r: SQLRow) throws {
        self.init(
            id: try r.text("id"), userId: try r.text("user_id"), mpinId: try r.text("mpin_id"), endpoint: try r.text("endpoint"),
            p256dh: try r.text("p256dh"), auth: try r.text("auth"), created: try r.int("created"),
            lastDelivery: try r.optionalInt("last_delivery"))
    }
}

/// One message queued for one subscription: the JSON the device gets (encrypted only when it
/// is sent), until it expires with the request it tells of.
public struct PushDelivery: Sendable, Equatable {
    public var id: String
    public var subscriptionId: String
    public var payload: String
    /// RFC 8030 section 5.3: "high" for a request waiting for the person, "normal" otherwise.
    public var urgency: String
    public var created: Int
    public var expires: Int
    public var nextAttempt: Int
    public var attempts: Int

    public init(
        id: String, subscriptionId: String, payload: String, urgency: String, created: Int, expires: Int, nextAttempt: Int,
        attempts: Int = 0
    ) {
        self.id = id; self.subscriptionId = subscriptionId; self.payload = payload; self.urgency = urgency
        self.created = created; self.expires = expires; self.nextAttempt = nextAttempt; self.attempts = attempts
    }

    init(row r: SQLRow) throws {
        self.init(
            id: try r.text("id"), subscriptionId: try r.text("subscription_id"), payload: try r.text("payload"),
            urgency: try r.text("urgency"), created: try r.int("created"), expires: try r.int("expires"),
            nextAttempt: try r.int("next_attempt"), attempts: try r.int("attempts"))
    }
}

/// The subscriptions and the delivery queue.
enum PushSchema {
    static let changes: [SchemaChange] = [
        SchemaChange(
            version: 9, owner: "Push", summary: "Web Push subscriptions, the delivery queue, the live events",
            expiring: ["push_deliveries", "push_events"]
        ) { d in
            [
                """
                CREATE TABLE push_subscriptions(
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL, endpoint TEXT NOT NULL UNIQUE,
                    p256dh TEXT NOT NULL, auth TEXT NOT NULL, created \(d.integer) NOT NULL, last_delivery \(d.integer))
                """,
                "CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id)",
                "CREATE INDEX push_subscriptions_identity ON push_subscriptions(mpin_id)",
                """
                CREATE TABLE push_deliveries(
                    id TEXT PRIMARY KEY, subscription_id TEXT NOT NULL, payload TEXT NOT NULL, urgency TEXT NOT NULL,
                    created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL, next_attempt \(d.integer) NOT NULL,
                    attempts \(d.integer) NOT NULL)
                """,
                "CREATE INDEX push_deliveries_due ON push_deliveries(next_attempt)",
                // What the person's open apps and `zkpin approve --watch` read live, whichever
                // instance they are connected to.
                """
                CREATE TABLE push_events(
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, payload TEXT NOT NULL, created \(d.integer) NOT NULL,
                    expires \(d.integer) NOT NULL\(d.insertionOrderColumn))
                """,
                "CREATE INDEX push_events_user ON push_events(user_id)"
            ]
        }
    ]
}
