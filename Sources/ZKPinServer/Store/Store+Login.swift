/// Pass 1's challenges, the attempt budget (reserve, then settle exactly once), pass 2 in two
/// transactions and the auth tokens that carry its verdict to `/rps/authenticate`. The steps
/// are written once as functions of a transaction; the operations compose them. On
/// PostgreSQL the four hot paths run as single statements (`SingleStatementPaths`).
extension Store {
    // MARK: Attempts

    /// Reserves one attempt when the identity is active and failed + in-flight < max. A
    /// reservation not settled within `hold` seconds (a crash) stops counting.
    public func reserveAttempt(mpinId: String, maxAttempts: Int, now: Int, hold: Int) async throws -> AttemptReservation {
        try await transaction { tx in try LoginSteps.reserve(tx, mpinId: mpinId, maxAttempts: maxAttempts, now: now, hold: hold) }
    }

    public func settleAttempt(mpinId: String, _ settlement: AttemptSettlement) async throws -> AttemptResult? {
        try await transaction { tx in try LoginSteps.settle(tx, mpinId: mpinId, settlement) }
    }

    // MARK: Pass 2 in two transactions (the login's hot path)

    /// Consumes the named live challenge of `mpinId` and, when there was one, reserves an
    /// attempt exactly as `reserveAttempt` does, atomically; the identity comes back so pass 2
    /// needs no separate read. A refused reservation still consumes the challenge.
    public func startLogin(challengeID: String, mpinId: String, now: Int, maxAttempts: Int, hold: Int) async throws -> LoginStart {
        if dialect.hasWritableCTEs {
            return try await SingleStatementPaths.startLogin(
                driver, challengeID: challengeID, mpinId: mpinId, now: now, maxAttempts: maxAttempts, hold: hold)
        }
        let dialect = dialect
        return try await transaction { tx in
            guard let challenge = try LoginSteps.takeChallenge(tx, id: challengeID, mpinId: mpinId, now: now, dialect: dialect)
            else { return .noChallenge }
            let reservation = try LoginSteps.reserve(tx, mpinId: mpinId, maxAttempts: maxAttempts, now: now, hold: hold)
            guard reservation == .reserved, let identity = try tx.one("SELECT * FROM identities WHERE mpin_id = \(mpinId)").map(Identity.init(row:))
            else { return .refused(reservation == .reserved ? .unknown : reservation) }
            return .started(challenge, identity)
        }
    }

    /// Settles the reserved attempt exactly as `settleAttempt` does and stores `token` (none for
    /// a pass 2 that finishes the login itself), atomically. The stored token's `attemptsLeft` is `maxAttempts` minus the settled count
    /// (at least 0), and a `wrongPIN` outcome becomes `blocked` when this attempt blocked the
    /// identity. Nil (and no token) when the identity is gone.
    /// `audit`, when given, is appended in the same transaction.
    public func finishLogin(_ settlement: AttemptSettlement, token: AuthToken, maxAttempts: Int, audit: AuditEvent?) async throws -> AttemptResult? {
        try await finishLogin(settlement, mpinId: token.mpinId, token: token, maxAttempts: maxAttempts, audit: audit)
    }

    /// `finishLogin` for the identity `mpinId`, with no token when pass 2 finishes the login.
    public func finishLogin(_ settlement: AttemptSettlement, mpinId: String, token: AuthToken?, maxAttempts: Int, audit: AuditEvent?)
        async throws -> AttemptResult?
    {
        if dialect.hasWritableCTEs {
            return try await SingleStatementPaths.finishLogin(
                driver, settlement, mpinId: mpinId, token: token, maxAttempts: maxAttempts, audit: audit)
        }
        return try await transaction { tx in
            guard let result = try LoginSteps.settle(tx, mpinId: mpinId, settlement) else { return nil }
            if let token { _ = try tx.run(LoginSteps.insertAuthToken(token.settled(result, maxAttempts: maxAttempts))) }
            if let audit { _ = try tx.run(LoginSteps.appendAudit(audit)) }
            return result
        }
    }

    /// Pass 1 in one transaction: counts `events` as `countEvent` does; when every count is
    /// within its limit, inserts the challenge only while its identity is active. Answers
    /// `.limited` (only the counts changed) or the identity's state (`active`: inserted; nil:
    /// no such identity, nothing inserted).
    public func admitPass1(_ challenge: Challenge, counting events: [CountedEvent], now: Int) async throws -> Pass1Admission {
        if dialect.hasWritableCTEs { return try await SingleStatementPaths.admitPass1(driver, challenge, counting: events, now: now) }
        return try await transaction { tx in
            var withinLimits = true
            for event in events where try LoginSteps.count(tx, key: event.key, window: event.window, now: now) > event.limit {
                withinLimits = false
            }
            guard withinLimits else { return .limited }
            guard let state = try LoginSteps.state(tx, mpinId: challenge.mpinId) else { return .identity(nil) }
            if state == .active { _ = try tx.run(LoginSteps.insertChallenge(challenge)) }
            return .identity(state)
        }
    }

    /// Consumes an auth token as `consumeAuthToken` does and answers it with its identity's
    /// state now (nil when the identity is gone), in one transaction. With `loginAudit`, a
    /// `login` audit row (the token's user and identity, that time and address) goes in too
    /// when the token is a success without an access code and the identity is active: the
    /// login is then complete.
    public func takeAuthToken(hash: String, now: Int, loginAudit: (time: Int, address: String)?) async throws
        -> (token: AuthToken, identityState: IdentityState?)?
    {
        if dialect.hasWritableCTEs { return try await SingleStatementPaths.takeAuthToken(driver, hash: hash, now: now, loginAudit: loginAudit) }
        let audit = loginAudit.map { LoginAudit(time: $0.time, address: $0.address) }
        let taken = try await transaction { tx -> TakenToken? in
            guard let token = try tx.one(LoginSteps.takeAuthToken(hash: hash, now: now)).map(AuthToken.init(row:)) else { return nil }
            let state = try LoginSteps.state(tx, mpinId: token.mpinId)
            if let audit, token.outcome == .success, token.accessCode == nil, state == .active {
                _ = try tx.run(
                    LoginSteps.appendAudit(
                        AuditEvent(time: audit.time, kind: "login", userId: token.userId, mpinId: token.mpinId, address: audit.address)))
            }
            return TakenToken(token: token, state: state)
        }
        return taken.map { ($0.token, $0.state) }
    }

    struct LoginAudit: Sendable { var time: Int, address: String }
    struct TakenToken: Sendable { var token: AuthToken, state: IdentityState? }

    // MARK: Pass-1 challenges

    public func insertChallenge(_ challenge: Challenge) async throws {
        try await driver.write(LoginSteps.insertChallenge(challenge))
    }

    /// Consumes the named live challenge of `mpinId`, or the newest live one when `id` is nil.
    public func consumeChallenge(id: String?, mpinId: String, now: Int) async throws -> Challenge? {
        try await driver.writeOne(LoginSteps.takeChallengeStatement(id: id, mpinId: mpinId, now: now, dialect: dialect)).map(Challenge.init(row:))
    }

    // MARK: Auth tokens (pass 2 → authenticate)

    public func insertAuthToken(_ token: AuthToken) async throws {
        try await driver.write(LoginSteps.insertAuthToken(token))
    }

    public func consumeAuthToken(hash: String, now: Int) async throws -> AuthToken? {
        try await driver.writeOne(LoginSteps.takeAuthToken(hash: hash, now: now)).map(AuthToken.init(row:))
    }
}

/// The steps of a login, each one statement, shared by the operations that compose them.
enum LoginSteps {
    /// Reservations older than `hold` (a crashed login) no longer count.
    static func reserveStatement(mpinId: String, maxAttempts: Int, now: Int, hold: Int) -> SQLStatement {
        """
        UPDATE identities
        SET reserved = CASE WHEN reserved_until <= \(now) THEN 1 ELSE reserved + 1 END,
            reserved_until = \(now + hold)
        WHERE mpin_id = \(mpinId) AND state = 'active'
          AND failed + CASE WHEN reserved_until <= \(now) THEN 0 ELSE reserved END < \(maxAttempts)
        RETURNING 1
        """
    }

    static func reserve(_ tx: any SQLTransaction, mpinId: String, maxAttempts: Int, now: Int, hold: Int) throws -> AttemptReservation {
        if try tx.one(reserveStatement(mpinId: mpinId, maxAttempts: maxAttempts, now: now, hold: hold)) != nil { return .reserved }
        // Nothing was reserved; this read only tells why.
        switch try state(tx, mpinId: mpinId) {
        case nil: return .unknown
        case .blocked: return .blocked
        case .revoked: return .revoked
        case .active: return .busy
        }
    }

    static func state(_ tx: any SQLTransaction, mpinId: String) throws -> IdentityState? {
        try tx.one("SELECT state FROM identities WHERE mpin_id = \(mpinId)").map { IdentityState(rawValue: try $0.text("state")) ?? .revoked }
    }

    static func settle(_ tx: any SQLTransaction, mpinId: String, _ settlement: AttemptSettlement) throws -> AttemptResult? {
        let released = "reserved = CASE WHEN reserved > 0 THEN reserved - 1 ELSE 0 END"
        let row: SQLRow?
        switch settlement {
        case .success(let now):
            row = try tx.one(
                "UPDATE identities SET \(raw: released), failed = 0, last_login = \(now) WHERE mpin_id = \(mpinId) RETURNING failed, state")
        case .wrongPIN(let maxAttempts):
            row = try tx.one(
                """
                UPDATE identities SET \(raw: released), failed = failed + 1,
                    state = CASE WHEN state = 'active' AND failed + 1 >= \(maxAttempts) THEN 'blocked' ELSE state END
                WHERE mpin_id = \(mpinId) RETURNING failed, state
                """)
        case .neutral:
            row = try tx.one("UPDATE identities SET \(raw: released) WHERE mpin_id = \(mpinId) RETURNING failed, state")
        }
        return try row.map(AttemptResult.init(row:))
    }

    static func takeChallengeStatement(id: String?, mpinId: String, now: Int, dialect: SQLDialect) -> SQLStatement {
        if let id { return "DELETE FROM challenges WHERE id = \(id) AND mpin_id = \(mpinId) AND expires > \(now) RETURNING *" }
        // A concurrent consumer takes another live challenge (or none), never the same.
        return """
            DELETE FROM challenges WHERE id = (
                SELECT id FROM challenges WHERE mpin_id = \(mpinId) AND expires > \(now)
                ORDER BY created DESC, \(raw: dialect.insertionOrder) DESC LIMIT 1 \(raw: dialect.skipTaken))
            RETURNING *
            """
    }

    static func takeChallenge(_ tx: any SQLTransaction, id: String?, mpinId: String, now: Int, dialect: SQLDialect) throws -> Challenge? {
        try tx.one(takeChallengeStatement(id: id, mpinId: mpinId, now: now, dialect: dialect)).map(Challenge.init(row:))
    }

    static func insertChallenge(_ c: Challenge) -> SQLStatement {
        """
        INSERT INTO challenges(id, mpin_id, u, ut, y, date, created, expires)
        VALUES (\(c.id), \(c.mpinId), \(c.u), \(c.ut), \(c.y), \(c.date), \(c.created), \(c.expires))
        """
    }

    static func insertAuthToken(_ t: AuthToken) -> SQLStatement {
        """
        INSERT INTO auth_tokens(hash, mpin_id, user_id, outcome, attempts_left, access_code, expires)
        VALUES (\(t.hash), \(t.mpinId), \(t.userId), \(t.outcome.rawValue), \(t.attemptsLeft), \(t.accessCode), \(t.expires))
        """
    }

    static func takeAuthToken(hash: String, now: Int) -> SQLStatement {
        "DELETE FROM auth_tokens WHERE hash = \(hash) AND expires > \(now) RETURNING *"
    }

    static func appendAudit(_ e: AuditEvent) -> SQLStatement {
        """
        INSERT INTO audit(time, kind, user_id, mpin_id, address, detail)
        VALUES (\(e.time), \(e.kind), \(e.userId), \(e.mpinId), \(e.address), \(e.detail))
        """
    }

    /// Counts one event of `key` in its fixed window; a window that has run out restarts at
    /// this event (both CASEs read the old row). One atomic upsert.
    static func countStatement(key: String, window: Int, now: Int) -> SQLStatement {
        """
        INSERT INTO rate_limits(key, count, expires) VALUES (\(key), 1, \(now + window))
        ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN rate_limits.expires <= \(now) THEN 1 ELSE rate_limits.count + 1 END,
            expires = CASE WHEN rate_limits.expires <= \(now) THEN excluded.expires ELSE rate_limits.expires END
        RETURNING count
        """
    }

    static func count(_ tx: any SQLTransaction, key: String, window: Int, now: Int) throws -> Int {
        try tx.one(countStatement(key: key, window: window, now: now))?.int("count") ?? 1
    }
}
