import Foundation
import GRDB

/// The embedded default store: one SQLite file (WAL) through GRDB. Consuming statements use
/// `UPDATE/DELETE ... RETURNING` so each one-time value is taken in a single statement.
public final class SQLiteStore: Store {
    let pool: DatabasePool

    /// Opens (creating when missing) the database at `path` and runs the migrations.
    public init(path: String) throws {
        var config = Configuration()
        config.busyMode = .timeout(10)
        // 0600 before SQLite opens it: SQLite creates the -wal and -shm files with the
        // database file's mode, whatever the folder's mode and the umask.
        PrivateFile.prepare(path)
        // WAL lets the page polls read while a login writes; DatabasePool enables it.
        pool = try DatabasePool(path: path, configuration: config)
        try SQLiteMigrations.migrator.migrate(pool)
    }

    // MARK: Settings

    public func fixSetting(_ key: String, value: String) async throws -> String {
        try await pool.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO settings(key, value) VALUES (?, ?)", arguments: [key, value])
            return try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key]) ?? value
        }
    }

    // MARK: Registrations and identities

    public func insertRegistration(_ r: PendingRegistration) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO registrations(mpin_id, user_id, device, reg_ott_hash, code_hash, created, expires, address, activated)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [r.mpinId, r.userId, r.device, r.regOTTHash, r.codeHash, r.created, r.expires, r.address, r.activated])
        }
    }

    public func registration(mpinId: String) async throws -> PendingRegistration? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM registrations WHERE mpin_id = ?", arguments: [mpinId]).map(Self.registration)
        }
    }

    public func activate(mpinId: String, now: Int) async throws -> Bool {
        try await pool.write { db in
            // One statement takes the registration; the identity insert shares its transaction.
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        UPDATE registrations SET activated = ? WHERE mpin_id = ? AND activated IS NULL AND expires > ?
                        RETURNING user_id, device
                        """, arguments: [now, mpinId, now])
            else { return false }
            try db.execute(
                sql: """
                    INSERT INTO identities(mpin_id, user_id, device, state, failed, reserved, reserved_until, created)
                    VALUES (?, ?, ?, 'active', 0, 0, 0, ?)
                    """, arguments: [mpinId, row["user_id"] as String, row["device"] as String, now])
            return true
        }
    }

    public func deleteExpiredRegistrations(now: Int) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM registrations WHERE expires <= ?", arguments: [now])
            return db.changesCount
        }
    }

    public func identity(mpinId: String) async throws -> Identity? {
        try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM identities WHERE mpin_id = ?"), arguments: [mpinId]).map(Self.identity)
        }
    }

    public func identities() async throws -> [Identity] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM identities ORDER BY created, mpin_id").map(Self.identity)
        }
    }

    public func revoke(userId: String) async throws -> Int {
        try await pool.write { db in
            // E-mail addresses match without regard to case (Case@Example.com is case@example.com).
            try db.execute(
                sql: "UPDATE identities SET state = 'revoked' WHERE lower(user_id) = lower(?) AND state <> 'revoked'",
                arguments: [userId])
            return db.changesCount
        }
    }

    public func revoke(_ selection: IdentitySelection) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE identities SET state = 'revoked' WHERE \(Self.selected) AND state <> 'revoked'",
                arguments: Self.arguments(selection))
            return db.changesCount
        }
    }

    public func unblock(_ selection: IdentitySelection) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE identities SET state = 'active', failed = 0 WHERE \(Self.selected) AND state = 'blocked'",
                arguments: Self.arguments(selection))
            return db.changesCount
        }
    }

    /// The identities of an `IdentitySelection`; a nil device or mpinId matches every row.
    static let selected = "lower(user_id) = lower(?) AND device = COALESCE(?, device) AND mpin_id = COALESCE(?, mpin_id)"
    static func arguments(_ s: IdentitySelection) -> StatementArguments { [s.userId, s.device, s.mpinId] }

    // MARK: Attempts

    public func reserveAttempt(mpinId: String, maxAttempts: Int, now: Int, hold: Int) async throws -> AttemptReservation {
        try await pool.write { db in try Self.reserveAttempt(db, mpinId: mpinId, maxAttempts: maxAttempts, now: now, hold: hold) }
    }

    public func settleAttempt(mpinId: String, _ settlement: AttemptSettlement) async throws -> AttemptResult? {
        try await pool.write { db in try Self.settleAttempt(db, mpinId: mpinId, settlement) }
    }

    // MARK: Pass 2 in two transactions

    public func startLogin(challengeID: String, mpinId: String, now: Int, maxAttempts: Int, hold: Int) async throws -> LoginStart {
        try await pool.write { db in
            guard let challenge = try Self.consumeChallenge(db, id: challengeID, mpinId: mpinId, now: now) else { return .noChallenge }
            let reservation = try Self.reserveAttempt(db, mpinId: mpinId, maxAttempts: maxAttempts, now: now, hold: hold)
            guard reservation == .reserved,
                let identity = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM identities WHERE mpin_id = ?"),
                    arguments: [mpinId]
                ).map(Self.identity)
            else { return .refused(reservation == .reserved ? .unknown : reservation) }
            return .started(challenge, identity)
        }
    }

    public func finishLogin(_ settlement: AttemptSettlement, token: AuthToken, maxAttempts: Int, audit: AuditEvent?) async throws -> AttemptResult? {
        try await pool.write { db in
            guard let result = try Self.settleAttempt(db, mpinId: token.mpinId, settlement) else { return nil }
            try Self.insertAuthToken(db, token.settled(result, maxAttempts: maxAttempts))
            if let audit { try Self.appendAudit(db, audit) }
            return result
        }
    }

    public func admitPass1(_ c: Challenge, counting events: [CountedEvent], now: Int) async throws -> Pass1Admission {
        try await pool.write { db in
            var withinLimits = true
            for event in events where try Self.countEvent(db, key: event.key, window: event.window, now: now) > event.limit {
                withinLimits = false
            }
            guard withinLimits else { return .limited }
            guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT state FROM identities WHERE mpin_id = ?"), arguments: [c.mpinId])
            else { return .identity(nil) }
            let state = IdentityState(rawValue: text) ?? .revoked
            if state == .active { try Self.insertChallenge(db, c) }
            return .identity(state)
        }
    }

    public func takeAuthToken(hash: String, now: Int, loginAudit: (time: Int, address: String)?) async throws
        -> (token: AuthToken, identityState: IdentityState?)?
    {
        try await pool.write { db in
            guard
                let token = try Row.fetchOne(
                    db.cachedStatement(sql: "DELETE FROM auth_tokens WHERE hash = ? AND expires > ? RETURNING *"),
                    arguments: [hash, now]
                ).map(Self.authToken)
            else { return nil }
            let text = try String.fetchOne(db.cachedStatement(sql: "SELECT state FROM identities WHERE mpin_id = ?"), arguments: [token.mpinId])
            let state = text.map { IdentityState(rawValue: $0) ?? .revoked }
            if let loginAudit, token.outcome == .success, token.accessCode == nil, state == .active {
                try Self.appendAudit(
                    db, AuditEvent(time: loginAudit.time, kind: "login", userId: token.userId, mpinId: token.mpinId, address: loginAudit.address))
            }
            return (token, state)
        }
    }

    static func insertChallenge(_ db: Database, _ c: Challenge) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO challenges(id, mpin_id, u, ut, y, date, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [c.id, c.mpinId, Data(c.u), c.ut.map { Data($0) }, Data(c.y), c.date, c.created, c.expires])
    }

    static func appendAudit(_ db: Database, _ e: AuditEvent) throws {
        try db.cachedStatement(sql: "INSERT INTO audit(time, kind, user_id, mpin_id, address, detail) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [e.time, e.kind, e.userId, e.mpinId, e.address, e.detail])
    }

    // Cached statements: prepared once per connection, not on every login.

    static func reserveAttempt(_ db: Database, mpinId: String, maxAttempts: Int, now: Int, hold: Int) throws -> AttemptReservation {
        // Reservations older than `hold` (a crashed login) no longer count.
        try db.cachedStatement(
            sql: """
                UPDATE identities
                SET reserved = CASE WHEN reserved_until <= ?1 THEN 1 ELSE reserved + 1 END,
                    reserved_until = ?1 + ?2
                WHERE mpin_id = ?3 AND state = 'active'
                  AND failed + CASE WHEN reserved_until <= ?1 THEN 0 ELSE reserved END < ?4
                """
        ).execute(arguments: [now, hold, mpinId, maxAttempts])
        if db.changesCount == 1 { return .reserved }
        guard let state = try String.fetchOne(db.cachedStatement(sql: "SELECT state FROM identities WHERE mpin_id = ?"), arguments: [mpinId])
        else { return .unknown }
        switch IdentityState(rawValue: state) {
        case .blocked: return .blocked
        case .revoked: return .revoked
        default: return .busy
        }
    }

    static func settleAttempt(_ db: Database, mpinId: String, _ settlement: AttemptSettlement) throws -> AttemptResult? {
        let row: Row?
        switch settlement {
        case .success(let now):
            row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        UPDATE identities SET reserved = MAX(reserved - 1, 0), failed = 0, last_login = ?
                        WHERE mpin_id = ? RETURNING failed, state
                        """), arguments: [now, mpinId])
        case .wrongPIN(let maxAttempts):
            row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        UPDATE identities SET reserved = MAX(reserved - 1, 0), failed = failed + 1,
                            state = CASE WHEN state = 'active' AND failed + 1 >= ? THEN 'blocked' ELSE state END
                        WHERE mpin_id = ? RETURNING failed, state
                        """), arguments: [maxAttempts, mpinId])
        case .neutral:
            row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        UPDATE identities SET reserved = MAX(reserved - 1, 0) WHERE mpin_id = ? RETURNING failed, state
                        """), arguments: [mpinId])
        }
        return row.map { AttemptResult(failedAttempts: $0["failed"], state: IdentityState(rawValue: $0["state"]) ?? .revoked) }
    }

    static func consumeChallenge(_ db: Database, id: String?, mpinId: String, now: Int) throws -> Challenge? {
        let row: Row?
        if let id {
            row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        DELETE FROM challenges WHERE id = ? AND mpin_id = ? AND expires > ? RETURNING *
                        """), arguments: [id, mpinId, now])
        } else {
            row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        DELETE FROM challenges WHERE id = (SELECT id FROM challenges WHERE mpin_id = ? AND expires > ?
                            ORDER BY created DESC, rowid DESC LIMIT 1) RETURNING *
                        """), arguments: [mpinId, now])
        }
        return row.map(Self.challenge)
    }

    static func insertAuthToken(_ db: Database, _ t: AuthToken) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO auth_tokens(hash, mpin_id, user_id, outcome, attempts_left, access_code, expires)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [t.hash, t.mpinId, t.userId, t.outcome.rawValue, t.attemptsLeft, t.accessCode, t.expires])
    }

    // MARK: Challenges

    public func insertChallenge(_ c: Challenge) async throws {
        try await pool.write { db in try Self.insertChallenge(db, c) }
    }

    public func consumeChallenge(id: String?, mpinId: String, now: Int) async throws -> Challenge? {
        try await pool.write { db in try Self.consumeChallenge(db, id: id, mpinId: mpinId, now: now) }
    }

    // MARK: Access sessions

    public func insertAccessSession(_ s: AccessSession) async throws -> Bool {
        try await pool.write { db in
            // An expired or finished session frees its code for a new draw.
            try db.execute(
                sql: "DELETE FROM access_sessions WHERE code = ? AND (expires <= ? OR status = 'used')",
                arguments: [s.code, s.created])
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO access_sessions(web_ott_hash, code, status, created, expires, taken_up)
                    VALUES (?, ?, ?, ?, ?, 0)
                    """, arguments: [s.webOTTHash, s.code, s.status.rawValue, s.created, s.expires])
            return db.changesCount == 1
        }
    }

    public func accessSession(webOTTHash: String) async throws -> AccessSession? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM access_sessions WHERE web_ott_hash = ?", arguments: [webOTTHash]).map(Self.accessSession)
        }
    }

    public func accessSession(code: String) async throws -> AccessSession? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM access_sessions WHERE code = ?", arguments: [code]).map(Self.accessSession)
        }
    }

    public func presentCode(_ code: String, now: Int) async throws -> AccessSession? {
        try await pool.write { db in
            try Row.fetchOne(
                db,
                sql: """
                    UPDATE access_sessions SET status = 'wid'
                    WHERE code = ? AND expires > ? AND status IN ('new', 'wid', 'wrong_pin') RETURNING *
                    """, arguments: [code, now]
            ).map(Self.accessSession)
        }
    }

    public func markRefused(code: String, outcome: AccessSession.Status, now: Int) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE access_sessions SET status = ?
                    WHERE code = ? AND expires > ? AND status IN ('wid', 'user')
                    """, arguments: [outcome.rawValue, code, now])
            return db.changesCount == 1
        }
    }

    public func markWrongPIN(code: String, mpinId: String, now: Int) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE access_sessions SET status = 'wrong_pin', mpin_id = ?
                    WHERE code = ? AND expires > ? AND status = 'wid'
                    """, arguments: [mpinId, code, now])
            return db.changesCount == 1
        }
    }

    public func markUser(code: String, mpinId: String, userId: String, authOTTHash: String, now: Int) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE access_sessions SET status = 'user', mpin_id = ?, user_id = ?, auth_ott_hash = ?
                    WHERE code = ? AND expires > ? AND status = 'wid'
                    """, arguments: [mpinId, userId, authOTTHash, code, now])
            return db.changesCount == 1
        }
    }

    public func markAuthenticated(code: String, authOTTHash: String, now: Int) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE access_sessions SET status = 'authenticate', authenticated_at = ?
                    WHERE code = ? AND auth_ott_hash = ? AND expires > ? AND status = 'user'
                    """, arguments: [now, code, authOTTHash, now])
            return db.changesCount == 1
        }
    }

    public func markTakenUp(webOTTHash: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE access_sessions SET taken_up = 1 WHERE web_ott_hash = ? AND status = 'authenticate'",
                arguments: [webOTTHash])
        }
    }

    public func consumeAccessSession(webOTTHash: String, now: Int, window: Int) async throws -> AccessSession? {
        try await pool.write { db in
            try Row.fetchOne(
                db,
                sql: """
                    UPDATE access_sessions SET status = 'used'
                    WHERE web_ott_hash = ? AND status = 'authenticate' AND authenticated_at > ? RETURNING *
                    """, arguments: [webOTTHash, now - window]
            ).map(Self.accessSession)
        }
    }

    // MARK: Auth tokens

    public func insertAuthToken(_ t: AuthToken) async throws {
        try await pool.write { db in try Self.insertAuthToken(db, t) }
    }

    public func consumeAuthToken(hash: String, now: Int) async throws -> AuthToken? {
        try await pool.write { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "DELETE FROM auth_tokens WHERE hash = ? AND expires > ? RETURNING *"),
                arguments: [hash, now]
            ).map(Self.authToken)
        }
    }

    // MARK: Web sessions

    public func insertWebSession(_ s: WebSession) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO web_sessions(hash, mpin_id, user_id, created, expires) VALUES (?, ?, ?, ?, ?)",
                arguments: [s.hash, s.mpinId, s.userId, s.created, s.expires])
        }
    }

    public func webSession(hash: String, now: Int) async throws -> WebSession? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM web_sessions WHERE hash = ? AND expires > ?", arguments: [hash, now]).map {
                WebSession(hash: $0["hash"], mpinId: $0["mpin_id"], userId: $0["user_id"], created: $0["created"], expires: $0["expires"])
            }
        }
    }

    public func deleteWebSession(hash: String) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM web_sessions WHERE hash = ?", arguments: [hash]) }
    }

    // MARK: Audit

    public func appendAudit(_ e: AuditEvent) async throws {
        try await pool.write { db in
            try Self.appendAudit(db, e)
        }
    }

    public func auditLog(limit: Int) async throws -> [AuditEvent] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM audit ORDER BY id DESC LIMIT ?", arguments: [limit]).reversed().map {
                AuditEvent(
                    time: $0["time"], kind: $0["kind"], userId: $0["user_id"], mpinId: $0["mpin_id"],
                    address: $0["address"], detail: $0["detail"])
            }
        }
    }

    public func auditLog(_ query: AuditQuery) async throws -> [AuditEvent] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM audit WHERE (?1 IS NULL OR lower(user_id) = lower(?1)) AND time >= ?2
                    ORDER BY id DESC LIMIT ?3
                    """, arguments: [query.userId, query.since ?? Int.min, query.limit]
            ).reversed().map {
                AuditEvent(
                    time: $0["time"], kind: $0["kind"], userId: $0["user_id"], mpinId: $0["mpin_id"],
                    address: $0["address"], detail: $0["detail"])
            }
        }
    }

    // MARK: Rate limits

    public func countEvent(key: String, window: Int, now: Int) async throws -> Int {
        try await pool.write { db in try Self.countEvent(db, key: key, window: window, now: now) }
    }

    static func countEvent(_ db: Database, key: String, window: Int, now: Int) throws -> Int {
        // A window that has run out restarts at this event; both CASEs read the old row.
        try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    INSERT INTO rate_limits(key, count, expires) VALUES (?1, 1, ?2 + ?3)
                    ON CONFLICT(key) DO UPDATE SET
                        count = CASE WHEN expires <= ?2 THEN 1 ELSE count + 1 END,
                        expires = CASE WHEN expires <= ?2 THEN excluded.expires ELSE expires END
                    RETURNING count
                    """), arguments: [key, now, window]) ?? 1
    }

    public func eventCount(key: String, now: Int) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count FROM rate_limits WHERE key = ? AND expires > ?"), arguments: [key, now]) ?? 0
        }
    }

    public func purgeExpired(now: Int) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM rate_limits WHERE expires <= ?", arguments: [now])
            try db.execute(sql: "DELETE FROM challenges WHERE expires <= ?", arguments: [now])
            try db.execute(sql: "DELETE FROM auth_tokens WHERE expires <= ?", arguments: [now])
            try db.execute(sql: "DELETE FROM web_sessions WHERE expires <= ?", arguments: [now])
            // Keep access sessions a while past expiry so a late poll still reads `expired`.
            try db.execute(sql: "DELETE FROM access_sessions WHERE expires <= ?", arguments: [now - 3600])
        }
    }

    public func expiringRowCounts() async throws -> [String: Int] {
        try await pool.read { db in
            var counts: [String: Int] = [:]
            for table in ExpiringTables.names { counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
            return counts
        }
    }

    // MARK: Row mapping

    static func registration(_ r: Row) -> PendingRegistration {
        PendingRegistration(
            mpinId: r["mpin_id"], userId: r["user_id"], device: r["device"], regOTTHash: r["reg_ott_hash"], codeHash: r["code_hash"],
            created: r["created"], expires: r["expires"], address: r["address"], activated: r["activated"])
    }

    static func identity(_ r: Row) -> Identity {
        Identity(
            mpinId: r["mpin_id"], userId: r["user_id"], device: r["device"],
            state: IdentityState(rawValue: r["state"]) ?? .revoked, failedAttempts: r["failed"],
            created: r["created"], lastLogin: r["last_login"])
    }

    static func challenge(_ r: Row) -> Challenge {
        let u: Data = r["u"], y: Data = r["y"], ut: Data? = r["ut"]
        return Challenge(
            id: r["id"], mpinId: r["mpin_id"], u: Array(u), ut: ut.map { Array($0) }, y: Array(y),
            date: r["date"], created: r["created"], expires: r["expires"])
    }

    static func accessSession(_ r: Row) -> AccessSession {
        AccessSession(
            webOTTHash: r["web_ott_hash"], code: r["code"],
            status: AccessSession.Status(rawValue: r["status"]) ?? .used, mpinId: r["mpin_id"],
            userId: r["user_id"], authOTTHash: r["auth_ott_hash"], takenUp: (r["taken_up"] as Int) != 0,
            created: r["created"], expires: r["expires"], authenticatedAt: r["authenticated_at"])
    }

    static func authToken(_ r: Row) -> AuthToken {
        AuthToken(
            hash: r["hash"], mpinId: r["mpin_id"], userId: r["user_id"],
            outcome: AuthToken.Outcome(rawValue: r["outcome"]) ?? .invalidToken,
            attemptsLeft: r["attempts_left"], accessCode: r["access_code"], expires: r["expires"])
    }
}
