import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The store for several server instances: one PostgreSQL database through postgres-nio's
/// connection pool (which replaces connections that die, e.g. when PostgreSQL restarts).
/// Every one-time value is consumed and every attempt moved by ONE statement
/// (`UPDATE/DELETE ... RETURNING`, `INSERT ... ON CONFLICT`): under READ COMMITTED, concurrent
/// updates of one row wait for each other and re-check their WHERE clause on the new row, so
/// two instances can never both take the same value or exceed the attempt budget.
public final class PostgresStore: Store {
    let client: PostgresClient
    let runTask: Task<Void, Never>
    let logger: Logger
    public let location: PostgresLocation

    /// Connects (with a clear error when the database cannot be reached or refuses us), starts
    /// the pool and brings the schema up to date.
    public static func open(
        _ location: PostgresLocation, maxConnections: Int = 20,
        logger: Logger = Logger(label: "zkpin.postgres")
    ) async throws -> PostgresStore {
        // One plain connection first: the pool would keep retrying an unreachable server
        // quietly, while a single attempt fails at once with the reason. The schema is
        // brought up to date on it too, before the pool serves anything.
        let probe: PostgresConnection
        do {
            var config = PostgresConnection.Configuration(
                host: location.host, port: location.port, username: location.user,
                password: location.password, database: location.database, tls: .disable)
            config.options.connectTimeout = .seconds(10)
            probe = try await PostgresConnection.connect(configuration: config, id: 0, logger: logger)
        } catch {
            throw SetupError("cannot use the database \(location.display): \(describe(error))")
        }
        do {
            try await PostgresMigrations.migrate(probe, logger: logger)
            try await probe.close()
        } catch {
            try? await probe.close()
            throw SetupError("cannot prepare the schema of \(location.display): \(describe(error))")
        }
        var config = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user,
            password: location.password, database: location.database, tls: .disable)
        config.options.maximumConnections = maxConnections
        config.options.connectTimeout = .seconds(10)
        return PostgresStore(client: PostgresClient(configuration: config, backgroundLogger: logger), location: location, logger: logger)
    }

    private init(client: PostgresClient, location: PostgresLocation, logger: Logger) {
        self.client = client
        self.location = location
        self.logger = logger
        runTask = Task { await client.run() }
    }

    // Cancelling run() closes the pool's connections.
    deinit { runTask.cancel() }

    /// A reason a person can act on; PSQLError hides everything in its description.
    static func describe(_ error: any Error) -> String {
        if let sql = error as? PSQLError {
            if let message = sql.serverInfo?[.message] { return "PostgreSQL says: \(message)" }
            if let underlying = sql.underlying {
                let text = "\(underlying)"
                if text.contains("Connection refused") { return "connection refused (is PostgreSQL running and listening there?)" }
                return text
            }
            return "\(sql.code)"
        }
        return "\(error)"
    }

    // MARK: Queries

    /// Runs one statement and collects its rows.
    @discardableResult
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        var out: [PostgresRandomAccessRow] = []
        for try await row in try await client.query(query, logger: logger) { out.append(row.makeRandomAccess()) }
        return out
    }

    func one(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow? { try await rows(query).first }

    // MARK: Settings

    public func fixSetting(_ key: String, value: String) async throws -> String {
        // The no-op update makes RETURNING give the stored row when the key exists.
        let row = try await one(
            """
            INSERT INTO settings(key, value) VALUES (\(key), \(value))
            ON CONFLICT (key) DO UPDATE SET value = settings.value RETURNING value
            """)
        return try row?["value"].decode(String.self) ?? value
    }

    // MARK: Registrations and identities

    public func insertRegistration(_ r: PendingRegistration) async throws {
        try await rows(
            """
            INSERT INTO registrations(mpin_id, user_id, device, reg_ott_hash, code_hash, created, expires, address, activated)
            VALUES (\(r.mpinId), \(r.userId), \(r.device), \(r.regOTTHash), \(r.codeHash), \(r.created), \(r.expires), \(r.address), \(r.activated))
            """)
    }

    public func registration(mpinId: String) async throws -> PendingRegistration? {
        try await one("SELECT * FROM registrations WHERE mpin_id = \(mpinId)").map(Self.registration)
    }

    public func activate(mpinId: String, now: Int) async throws -> Bool {
        // One statement: the registration is taken and its identity created together.
        try await one(
            """
            WITH taken AS (
                UPDATE registrations SET activated = \(now)
                WHERE mpin_id = \(mpinId) AND activated IS NULL AND expires > \(now)
                RETURNING mpin_id, user_id, device)
            INSERT INTO identities(mpin_id, user_id, device, state, failed, reserved, reserved_until, created)
            SELECT mpin_id, user_id, device, 'active', 0, 0, 0, \(now) FROM taken
            RETURNING mpin_id
            """) != nil
    }

    public func deleteExpiredRegistrations(now: Int) async throws -> Int {
        try await rows("DELETE FROM registrations WHERE expires <= \(now) RETURNING 1").count
    }

    public func identity(mpinId: String) async throws -> Identity? {
        try await one("SELECT * FROM identities WHERE mpin_id = \(mpinId)").map(Self.identity)
    }

    public func identities() async throws -> [Identity] {
        try await rows("SELECT * FROM identities ORDER BY created, mpin_id").map(Self.identity)
    }

    public func revoke(userId: String) async throws -> Int {
        try await rows("UPDATE identities SET state = 'revoked' WHERE lower(user_id) = lower(\(userId)) AND state <> 'revoked' RETURNING 1").count
    }

    public func revoke(_ s: IdentitySelection) async throws -> Int {
        // A nil device or mpinId matches every row (COALESCE with the column itself).
        try await rows(
            """
            UPDATE identities SET state = 'revoked'
            WHERE lower(user_id) = lower(\(s.userId)) AND device = COALESCE(\(s.device), device)
              AND mpin_id = COALESCE(\(s.mpinId), mpin_id) AND state <> 'revoked'
            RETURNING 1
            """
        ).count
    }

    public func unblock(_ s: IdentitySelection) async throws -> Int {
        try await rows(
            """
            UPDATE identities SET state = 'active', failed = 0
            WHERE lower(user_id) = lower(\(s.userId)) AND device = COALESCE(\(s.device), device)
              AND mpin_id = COALESCE(\(s.mpinId), mpin_id) AND state = 'blocked'
            RETURNING 1
            """
        ).count
    }

    // MARK: Attempts

    public func reserveAttempt(mpinId: String, maxAttempts: Int, now: Int, hold: Int) async throws -> AttemptReservation {
        // Reservations older than `hold` (a crashed login) no longer count.
        let reserved = try await one(
            """
            UPDATE identities
            SET reserved = CASE WHEN reserved_until <= \(now) THEN 1 ELSE reserved + 1 END,
                reserved_until = \(now + hold)
            WHERE mpin_id = \(mpinId) AND state = 'active'
              AND failed + CASE WHEN reserved_until <= \(now) THEN 0 ELSE reserved END < \(maxAttempts)
            RETURNING 1
            """)
        if reserved != nil { return .reserved }
        // Nothing was reserved; this read only tells why.
        guard let row = try await one("SELECT state FROM identities WHERE mpin_id = \(mpinId)") else { return .unknown }
        switch IdentityState(rawValue: try row["state"].decode(String.self)) {
        case .blocked: return .blocked
        case .revoked: return .revoked
        default: return .busy
        }
    }

    public func settleAttempt(mpinId: String, _ settlement: AttemptSettlement) async throws -> AttemptResult? {
        let row: PostgresRandomAccessRow?
        switch settlement {
        case .success(let now):
            row = try await one(
                """
                UPDATE identities SET reserved = GREATEST(reserved - 1, 0), failed = 0, last_login = \(now)
                WHERE mpin_id = \(mpinId) RETURNING failed, state
                """)
        case .wrongPIN(let maxAttempts):
            row = try await one(
                """
                UPDATE identities SET reserved = GREATEST(reserved - 1, 0), failed = failed + 1,
                    state = CASE WHEN state = 'active' AND failed + 1 >= \(maxAttempts) THEN 'blocked' ELSE state END
                WHERE mpin_id = \(mpinId) RETURNING failed, state
                """)
        case .neutral:
            row = try await one(
                """
                UPDATE identities SET reserved = GREATEST(reserved - 1, 0) WHERE mpin_id = \(mpinId) RETURNING failed, state
                """)
        }
        guard let row else { return nil }
        return AttemptResult(
            failedAttempts: try row["failed"].decode(Int.self),
            state: IdentityState(rawValue: try row["state"].decode(String.self)) ?? .revoked)
    }

    // MARK: Pass 2 in two statements

    public func startLogin(challengeID: String, mpinId: String, now: Int, maxAttempts: Int, hold: Int) async throws -> LoginStart {
        // One statement: the challenge is deleted, and only when it was there is an attempt
        // reserved (the same UPDATE as reserveAttempt); the identity is read from the
        // statement's snapshot, as it was before the reservation.
        guard
            let row = try await one(
                """
                WITH taken AS (
                    DELETE FROM challenges WHERE id = \(challengeID) AND mpin_id = \(mpinId) AND expires > \(now) RETURNING *),
                reserved AS (
                    UPDATE identities
                    SET reserved = CASE WHEN reserved_until <= \(now) THEN 1 ELSE reserved + 1 END,
                        reserved_until = \(now + hold)
                    WHERE mpin_id = \(mpinId) AND state = 'active'
                      AND failed + CASE WHEN reserved_until <= \(now) THEN 0 ELSE reserved END < \(maxAttempts)
                      AND EXISTS (SELECT 1 FROM taken)
                    RETURNING 1)
                SELECT taken.id, taken.mpin_id, taken.u, taken.ut, taken.y, taken.date, taken.created, taken.expires,
                       (SELECT count(*) FROM reserved) AS reserved_now,
                       i.user_id AS i_user_id, i.device AS i_device, i.state AS i_state, i.failed AS i_failed,
                       i.created AS i_created, i.last_login AS i_last_login
                FROM taken LEFT JOIN identities i ON i.mpin_id = taken.mpin_id
                """)
        else { return .noChallenge }
        let challenge = try Self.challenge(row)
        guard try row["reserved_now"].decode(Int.self) == 1 else {
            switch try row["i_state"].decode(String?.self).flatMap(IdentityState.init(rawValue:)) {
            case nil: return .refused(.unknown)
            case .blocked: return .refused(.blocked)
            case .revoked: return .refused(.revoked)
            case .active: return .refused(.busy)
            }
        }
        let identity = Identity(
            mpinId: mpinId, userId: try row["i_user_id"].decode(String.self), device: try row["i_device"].decode(String.self),
            state: IdentityState(rawValue: try row["i_state"].decode(String.self)) ?? .revoked,
            failedAttempts: try row["i_failed"].decode(Int.self), created: try row["i_created"].decode(Int.self),
            lastLogin: try row["i_last_login"].decode(Int?.self))
        return .started(challenge, identity)
    }

    public func finishLogin(_ settlement: AttemptSettlement, token t: AuthToken, maxAttempts: Int, audit: AuditEvent?) async throws -> AttemptResult?
    {
        let a = audit ?? AuditEvent(time: 0, kind: "")
        // One statement: settleAttempt's three UPDATEs folded into one by the settlement's kind,
        // and the token built from its result by the rule of AuthToken.settled.
        let kind: String, now: Int?, blockAt: Int
        switch settlement {
        case .success(let at): (kind, now, blockAt) = ("success", at, Int.max)
        case .wrongPIN(let max): (kind, now, blockAt) = ("wrong_pin", nil, max)
        case .neutral: (kind, now, blockAt) = ("neutral", nil, Int.max)
        }
        guard
            let row = try await one(
                """
                WITH settled AS (
                    UPDATE identities SET reserved = GREATEST(reserved - 1, 0),
                        failed = CASE \(kind) WHEN 'success' THEN 0 WHEN 'wrong_pin' THEN failed + 1 ELSE failed END,
                        last_login = COALESCE(\(now), last_login),
                        state = CASE WHEN \(kind) = 'wrong_pin' AND state = 'active' AND failed + 1 >= \(blockAt) THEN 'blocked' ELSE state END
                    WHERE mpin_id = \(t.mpinId) RETURNING failed, state),
                stored AS (
                    INSERT INTO auth_tokens(hash, mpin_id, user_id, outcome, attempts_left, access_code, expires)
                    SELECT \(t.hash), \(t.mpinId), \(t.userId),
                           CASE WHEN \(t.outcome.rawValue) = 'wrong_pin' AND settled.state = 'blocked' THEN 'blocked' ELSE \(t.outcome.rawValue) END,
                           GREATEST(0, \(maxAttempts) - settled.failed), \(t.accessCode), \(t.expires)
                    FROM settled RETURNING 1),
                audited AS (
                    INSERT INTO audit(time, kind, user_id, mpin_id, address, detail)
                    SELECT \(a.time), \(a.kind), \(a.userId), \(a.mpinId), \(a.address), \(a.detail) FROM settled WHERE \(audit != nil)
                    RETURNING 1)
                SELECT failed, state FROM settled
                """)
        else { return nil }
        return AttemptResult(
            failedAttempts: try row["failed"].decode(Int.self),
            state: IdentityState(rawValue: try row["state"].decode(String.self)) ?? .revoked)
    }

    // MARK: Challenges

    public func admitPass1(_ c: Challenge, counting events: [CountedEvent], now: Int) async throws -> Pass1Admission {
        // One statement: the events counted as countEvent does (keys distinct), then the
        // insert only when every count is within its limit and the identity's row says active.
        guard
            let row = try await one(
                """
                WITH event AS (
                    SELECT * FROM unnest(\(events.map(\.key))::text[], \(events.map(\.limit))::bigint[],
                                         \(events.map { now + $0.window })::bigint[]) AS e(key, lim, expires)),
                counted AS (
                    INSERT INTO rate_limits(key, count, expires) SELECT key, 1, expires FROM event
                    ON CONFLICT (key) DO UPDATE SET
                        count = CASE WHEN rate_limits.expires <= \(now) THEN 1 ELSE rate_limits.count + 1 END,
                        expires = CASE WHEN rate_limits.expires <= \(now) THEN EXCLUDED.expires ELSE rate_limits.expires END
                    RETURNING key, count),
                verdict AS (SELECT NOT EXISTS (SELECT 1 FROM counted JOIN event USING (key) WHERE counted.count > event.lim) AS within),
                identity AS (SELECT state FROM identities WHERE mpin_id = \(c.mpinId)),
                inserted AS (
                    INSERT INTO challenges(id, mpin_id, u, ut, y, date, created, expires)
                    SELECT \(c.id), \(c.mpinId), \(ByteBuffer(bytes: c.u)), \(c.ut.map { ByteBuffer(bytes: $0) }), \(ByteBuffer(bytes: c.y)),
                           \(c.date), \(c.created), \(c.expires)
                    WHERE (SELECT within FROM verdict) AND EXISTS (SELECT 1 FROM identity WHERE state = 'active')
                    RETURNING 1)
                SELECT (SELECT within FROM verdict) AS within, (SELECT state FROM identity) AS state
                """)
        else { return .identity(nil) }
        guard try row["within"].decode(Bool.self) else { return .limited }
        return .identity(try row["state"].decode(String?.self).map { IdentityState(rawValue: $0) ?? .revoked })
    }

    public func insertChallenge(_ c: Challenge) async throws {
        try await rows(
            """
            INSERT INTO challenges(id, mpin_id, u, ut, y, date, created, expires)
            VALUES (\(c.id), \(c.mpinId), \(ByteBuffer(bytes: c.u)), \(c.ut.map { ByteBuffer(bytes: $0) }), \(ByteBuffer(bytes: c.y)),
                    \(c.date), \(c.created), \(c.expires))
            """)
    }

    public func consumeChallenge(id: String?, mpinId: String, now: Int) async throws -> Challenge? {
        if let id {
            return try await one(
                """
                DELETE FROM challenges WHERE id = \(id) AND mpin_id = \(mpinId) AND expires > \(now) RETURNING *
                """
            ).map(Self.challenge)
        }
        // SKIP LOCKED: a concurrent consumer takes another live challenge (or none), never the same.
        return try await one(
            """
            DELETE FROM challenges WHERE id = (
                SELECT id FROM challenges WHERE mpin_id = \(mpinId) AND expires > \(now)
                ORDER BY created DESC, seq DESC LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING *
            """
        ).map(Self.challenge)
    }

    // MARK: Access sessions

    public func insertAccessSession(_ s: AccessSession) async throws -> Bool {
        // An expired or finished session frees its code for a new draw.
        try await rows("DELETE FROM access_sessions WHERE code = \(s.code) AND (expires <= \(s.created) OR status = 'used')")
        // DO NOTHING on either unique key: a code live elsewhere makes the caller draw again.
        return try await one(
            """
            INSERT INTO access_sessions(web_ott_hash, code, status, created, expires, taken_up)
            VALUES (\(s.webOTTHash), \(s.code), \(s.status.rawValue), \(s.created), \(s.expires), FALSE)
            ON CONFLICT DO NOTHING RETURNING 1
            """) != nil
    }

    public func accessSession(webOTTHash: String) async throws -> AccessSession? {
        try await one("SELECT * FROM access_sessions WHERE web_ott_hash = \(webOTTHash)").map(Self.accessSession)
    }

    public func accessSession(code: String) async throws -> AccessSession? {
        try await one("SELECT * FROM access_sessions WHERE code = \(code)").map(Self.accessSession)
    }

    public func presentCode(_ code: String, now: Int) async throws -> AccessSession? {
        try await one(
            """
            UPDATE access_sessions SET status = 'wid'
            WHERE code = \(code) AND expires > \(now) AND status IN ('new', 'wid', 'wrong_pin') RETURNING *
            """
        ).map(Self.accessSession)
    }

    public func markRefused(code: String, outcome: AccessSession.Status, now: Int) async throws -> Bool {
        try await one(
            """
            UPDATE access_sessions SET status = \(outcome.rawValue)
            WHERE code = \(code) AND expires > \(now) AND status IN ('wid', 'user') RETURNING 1
            """) != nil
    }

    public func markWrongPIN(code: String, mpinId: String, now: Int) async throws -> Bool {
        try await one(
            """
            UPDATE access_sessions SET status = 'wrong_pin', mpin_id = \(mpinId)
            WHERE code = \(code) AND expires > \(now) AND status = 'wid' RETURNING 1
            """) != nil
    }

    public func markUser(code: String, mpinId: String, userId: String, authOTTHash: String, now: Int) async throws -> Bool {
        try await one(
            """
            UPDATE access_sessions SET status = 'user', mpin_id = \(mpinId), user_id = \(userId), auth_ott_hash = \(authOTTHash)
            WHERE code = \(code) AND expires > \(now) AND status = 'wid' RETURNING 1
            """) != nil
    }

    public func markAuthenticated(code: String, authOTTHash: String, now: Int) async throws -> Bool {
        try await one(
            """
            UPDATE access_sessions SET status = 'authenticate', authenticated_at = \(now)
            WHERE code = \(code) AND auth_ott_hash = \(authOTTHash) AND expires > \(now) AND status = 'user' RETURNING 1
            """) != nil
    }

    public func markTakenUp(webOTTHash: String) async throws {
        try await rows("UPDATE access_sessions SET taken_up = TRUE WHERE web_ott_hash = \(webOTTHash) AND status = 'authenticate'")
    }

    public func consumeAccessSession(webOTTHash: String, now: Int, window: Int) async throws -> AccessSession? {
        try await one(
            """
            UPDATE access_sessions SET status = 'used'
            WHERE web_ott_hash = \(webOTTHash) AND status = 'authenticate' AND authenticated_at > \(now - window) RETURNING *
            """
        ).map(Self.accessSession)
    }

    // MARK: Auth tokens

    public func insertAuthToken(_ t: AuthToken) async throws {
        try await rows(
            """
            INSERT INTO auth_tokens(hash, mpin_id, user_id, outcome, attempts_left, access_code, expires)
            VALUES (\(t.hash), \(t.mpinId), \(t.userId), \(t.outcome.rawValue), \(t.attemptsLeft), \(t.accessCode), \(t.expires))
            """)
    }

    public func takeAuthToken(hash: String, now: Int, loginAudit: (time: Int, address: String)?) async throws
        -> (token: AuthToken, identityState: IdentityState?)?
    {
        guard
            let row = try await one(
                """
                WITH taken AS (DELETE FROM auth_tokens WHERE hash = \(hash) AND expires > \(now) RETURNING *),
                result AS (SELECT taken.*, i.state AS identity_state FROM taken LEFT JOIN identities i ON i.mpin_id = taken.mpin_id),
                audited AS (
                    INSERT INTO audit(time, kind, user_id, mpin_id, address, detail)
                    SELECT \(loginAudit?.time ?? 0), 'login', user_id, mpin_id, \(loginAudit?.address ?? ""), '' FROM result
                    WHERE \(loginAudit != nil) AND outcome = 'success' AND access_code IS NULL AND identity_state = 'active'
                    RETURNING 1)
                SELECT * FROM result
                """)
        else { return nil }
        let state = try row["identity_state"].decode(String?.self).map { IdentityState(rawValue: $0) ?? .revoked }
        return (try Self.authToken(row), state)
    }

    public func consumeAuthToken(hash: String, now: Int) async throws -> AuthToken? {
        try await one("DELETE FROM auth_tokens WHERE hash = \(hash) AND expires > \(now) RETURNING *").map(Self.authToken)
    }

    // MARK: Web sessions

    public func insertWebSession(_ s: WebSession) async throws {
        try await rows(
            """
            INSERT INTO web_sessions(hash, mpin_id, user_id, created, expires)
            VALUES (\(s.hash), \(s.mpinId), \(s.userId), \(s.created), \(s.expires))
            """)
    }

    public func webSession(hash: String, now: Int) async throws -> WebSession? {
        guard let r = try await one("SELECT * FROM web_sessions WHERE hash = \(hash) AND expires > \(now)") else { return nil }
        return WebSession(
            hash: try r["hash"].decode(String.self), mpinId: try r["mpin_id"].decode(String.self),
            userId: try r["user_id"].decode(String.self), created: try r["created"].decode(Int.self),
            expires: try r["expires"].decode(Int.self))
    }

    public func deleteWebSession(hash: String) async throws {
        try await rows("DELETE FROM web_sessions WHERE hash = \(hash)")
    }

    // MARK: Audit

    public func appendAudit(_ e: AuditEvent) async throws {
        try await rows(
            """
            INSERT INTO audit(time, kind, user_id, mpin_id, address, detail)
            VALUES (\(e.time), \(e.kind), \(e.userId), \(e.mpinId), \(e.address), \(e.detail))
            """)
    }

    public func auditLog(limit: Int) async throws -> [AuditEvent] {
        try await rows("SELECT * FROM audit ORDER BY id DESC LIMIT \(limit)").reversed().map { r in
            AuditEvent(
                time: try r["time"].decode(Int.self), kind: try r["kind"].decode(String.self),
                userId: try r["user_id"].decode(String?.self), mpinId: try r["mpin_id"].decode(String?.self),
                address: try r["address"].decode(String?.self), detail: try r["detail"].decode(String.self))
        }
    }

    public func auditLog(_ query: AuditQuery) async throws -> [AuditEvent] {
        try await rows(
            """
            SELECT * FROM audit WHERE (\(query.userId)::text IS NULL OR lower(user_id) = lower(\(query.userId)))
              AND time >= \(query.since ?? Int.min)
            ORDER BY id DESC LIMIT \(query.limit)
            """
        ).reversed().map { r in
            AuditEvent(
                time: try r["time"].decode(Int.self), kind: try r["kind"].decode(String.self),
                userId: try r["user_id"].decode(String?.self), mpinId: try r["mpin_id"].decode(String?.self),
                address: try r["address"].decode(String?.self), detail: try r["detail"].decode(String.self))
        }
    }

    // MARK: Rate limits

    public func countEvent(key: String, window: Int, now: Int) async throws -> Int {
        // A window that has run out restarts at this event; both CASEs read the old row.
        let row = try await one(
            """
            INSERT INTO rate_limits(key, count, expires) VALUES (\(key), 1, \(now + window))
            ON CONFLICT (key) DO UPDATE SET
                count = CASE WHEN rate_limits.expires <= \(now) THEN 1 ELSE rate_limits.count + 1 END,
                expires = CASE WHEN rate_limits.expires <= \(now) THEN EXCLUDED.expires ELSE rate_limits.expires END
            RETURNING count
            """)
        return try row?["count"].decode(Int.self) ?? 1
    }

    public func eventCount(key: String, now: Int) async throws -> Int {
        try await one("SELECT count FROM rate_limits WHERE key = \(key) AND expires > \(now)")?["count"].decode(Int.self) ?? 0
    }

    public func purgeExpired(now: Int) async throws {
        try await rows("DELETE FROM challenges WHERE expires <= \(now)")
        try await rows("DELETE FROM auth_tokens WHERE expires <= \(now)")
        try await rows("DELETE FROM web_sessions WHERE expires <= \(now)")
        try await rows("DELETE FROM rate_limits WHERE expires <= \(now)")
        // Keep access sessions a while past expiry so a late poll still reads `expired`.
        try await rows("DELETE FROM access_sessions WHERE expires <= \(now - 3600)")
    }

    public func expiringRowCounts() async throws -> [String: Int] {
        // The table names are this program's constants, never input.
        let sql = ExpiringTables.names.map { "SELECT '\($0)' AS name, count(*) AS rows FROM \($0)" }.joined(separator: " UNION ALL ")
        var counts: [String: Int] = [:]
        for row in try await rows(PostgresQuery(unsafeSQL: sql)) {
            counts[try row["name"].decode(String.self)] = try row["rows"].decode(Int.self)
        }
        return counts
    }

    // MARK: Row mapping

    static func registration(_ r: PostgresRandomAccessRow) throws -> PendingRegistration {
        PendingRegistration(
            mpinId: try r["mpin_id"].decode(String.self), userId: try r["user_id"].decode(String.self),
            device: try r["device"].decode(String.self), regOTTHash: try r["reg_ott_hash"].decode(String.self),
            codeHash: try r["code_hash"].decode(String.self), created: try r["created"].decode(Int.self),
            expires: try r["expires"].decode(Int.self), address: try r["address"].decode(String.self),
            activated: try r["activated"].decode(Int?.self))
    }

    static func identity(_ r: PostgresRandomAccessRow) throws -> Identity {
        Identity(
            mpinId: try r["mpin_id"].decode(String.self), userId: try r["user_id"].decode(String.self),
            device: try r["device"].decode(String.self),
            state: IdentityState(rawValue: try r["state"].decode(String.self)) ?? .revoked,
            failedAttempts: try r["failed"].decode(Int.self), created: try r["created"].decode(Int.self),
            lastLogin: try r["last_login"].decode(Int?.self))
    }

    static func challenge(_ r: PostgresRandomAccessRow) throws -> Challenge {
        Challenge(
            id: try r["id"].decode(String.self), mpinId: try r["mpin_id"].decode(String.self),
            u: Array(try r["u"].decode(ByteBuffer.self).readableBytesView),
            ut: try r["ut"].decode(ByteBuffer?.self).map { Array($0.readableBytesView) },
            y: Array(try r["y"].decode(ByteBuffer.self).readableBytesView),
            date: try r["date"].decode(Int.self), created: try r["created"].decode(Int.self),
            expires: try r["expires"].decode(Int.self))
    }

    static func accessSession(_ r: PostgresRandomAccessRow) throws -> AccessSession {
        AccessSession(
            webOTTHash: try r["web_ott_hash"].decode(String.self), code: try r["code"].decode(String.self),
            status: AccessSession.Status(rawValue: try r["status"].decode(String.self)) ?? .used,
            mpinId: try r["mpin_id"].decode(String?.self), userId: try r["user_id"].decode(String?.self),
            authOTTHash: try r["auth_ott_hash"].decode(String?.self), takenUp: try r["taken_up"].decode(Bool.self),
            created: try r["created"].decode(Int.self), expires: try r["expires"].decode(Int.self),
            authenticatedAt: try r["authenticated_at"].decode(Int?.self))
    }

    static func authToken(_ r: PostgresRandomAccessRow) throws -> AuthToken {
        AuthToken(
            hash: try r["hash"].decode(String.self), mpinId: try r["mpin_id"].decode(String.self),
            userId: try r["user_id"].decode(String.self),
            outcome: AuthToken.Outcome(rawValue: try r["outcome"].decode(String.self)) ?? .invalidToken,
            attemptsLeft: try r["attempts_left"].decode(Int.self), accessCode: try r["access_code"].decode(String?.self),
            expires: try r["expires"].decode(Int.self))
    }
}
