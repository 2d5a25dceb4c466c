/// The declared dialect overrides: the login's four hot paths as ONE statement each on
/// PostgreSQL (writable CTEs), where a transaction of several statements would cost a round
/// trip per statement. SQLite, which has no writable CTEs, runs the same steps as one
/// transaction in `Store+Login.swift`; the conformance and login transaction suites run both.
enum SingleStatementPaths {
    static func startLogin(
        _ driver: any SQLDriver, challengeID: String, mpinId: String, now: Int, maxAttempts: Int, hold: Int
    ) async throws -> LoginStart {
        // The challenge is deleted, and only when it was there is an attempt reserved (the
        // same UPDATE as LoginSteps.reserveStatement); the identity is read from the
        // statement's snapshot, as it was before the reservation.
        guard
            let row = try await driver.writeOne(
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
        let challenge = try Challenge(row: row)
        let state = try row.optionalText("i_state").map { IdentityState(rawValue: $0) ?? .revoked }
        guard try row.int("reserved_now") == 1, let state else {
            switch state {
            case nil: return .refused(.unknown)
            case .blocked: return .refused(.blocked)
            case .revoked: return .refused(.revoked)
            case .active: return .refused(.busy)
            }
        }
        let identity = Identity(
            mpinId: mpinId, userId: try row.text("i_user_id"), device: try row.text("i_device"), state: state,
            failedAttempts: try row.int("i_failed"), created: try row.int("i_created"), lastLogin: try row.optionalInt("i_last_login"))
        return .started(challenge, identity)
    }

    static func finishLogin(
        _ driver: any SQLDriver, _ settlement: AttemptSettlement, mpinId: String, token: AuthToken?, maxAttempts: Int, audit: AuditEvent?
    ) async throws -> AttemptResult? {
        let a = audit ?? AuditEvent(time: 0, kind: "")
        let t = token ?? AuthToken(hash: "", mpinId: mpinId, userId: "", outcome: .invalidToken, attemptsLeft: 0, accessCode: nil, expires: 0)
        // LoginSteps.settle's three UPDATEs folded into one by the settlement's kind, and the
        // token built from its result by the rule of AuthToken.settled.
        let kind: String, now: Int?, blockAt: Int
        switch settlement {
        case .success(let at): (kind, now, blockAt) = ("success", at, Int.max)
        case .wrongPIN(let max): (kind, now, blockAt) = ("wrong_pin", nil, max)
        case .neutral: (kind, now, blockAt) = ("neutral", nil, Int.max)
        }
        return try await driver.writeOne(
            """
            WITH settled AS (
                UPDATE identities SET reserved = CASE WHEN reserved > 0 THEN reserved - 1 ELSE 0 END,
                    failed = CASE CAST(\(kind) AS TEXT) WHEN 'success' THEN 0 WHEN 'wrong_pin' THEN failed + 1 ELSE failed END,
                    last_login = COALESCE(CAST(\(now) AS BIGINT), last_login),
                    state = CASE WHEN CAST(\(kind) AS TEXT) = 'wrong_pin' AND state = 'active' AND failed + 1 >= \(blockAt) THEN 'blocked' ELSE state END
                WHERE mpin_id = \(t.mpinId) RETURNING failed, state),
            stored AS (
                INSERT INTO auth_tokens(hash, mpin_id, user_id, outcome, attempts_left, access_code, expires)
                SELECT \(t.hash), \(t.mpinId), \(t.userId),
                       CASE WHEN CAST(\(t.outcome.rawValue) AS TEXT) = 'wrong_pin' AND settled.state = 'blocked' THEN 'blocked'
                            ELSE CAST(\(t.outcome.rawValue) AS TEXT) END,
                       GREATEST(0, \(maxAttempts) - settled.failed), CAST(\(t.accessCode) AS TEXT), \(t.expires)
                FROM settled WHERE \(token != nil) RETURNING 1),
            audited AS (
                INSERT INTO audit(time, kind, user_id, mpin_id, address, detail)
                SELECT \(a.time), \(a.kind), CAST(\(a.userId) AS TEXT), CAST(\(a.mpinId) AS TEXT), CAST(\(a.address) AS TEXT), \(a.detail)
                FROM settled WHERE \(audit != nil)
                RETURNING 1)
            SELECT failed, state FROM settled
            """
        ).map(AttemptResult.init(row:))
    }

    static func admitPass1(_ driver: any SQLDriver, _ c: Challenge, counting events: [CountedEvent], now: Int) async throws -> Pass1Admission {
        // The events counted as LoginSteps.countStatement does (keys distinct), then the insert
        // only when every count is within its limit and the identity's row says active.
        var event: SQLStatement = "SELECT * FROM (VALUES "
        for (index, e) in events.enumerated() {
            event.append("\(raw: index == 0 ? "" : ", ")(CAST(\(e.key) AS TEXT), CAST(\(e.limit) AS BIGINT), CAST(\(now + e.window) AS BIGINT))")
        }
        event.append(") AS e(key, lim, expires)")
        if events.isEmpty { event = "SELECT CAST(NULL AS TEXT) AS key, CAST(0 AS BIGINT) AS lim, CAST(0 AS BIGINT) AS expires WHERE FALSE" }
        guard
            let row = try await driver.writeOne(
                """
                WITH event AS (\(event)),
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
                    SELECT \(c.id), \(c.mpinId), \(c.u), CAST(\(c.ut) AS BYTEA), \(c.y), \(c.date), \(c.created), \(c.expires)
                    WHERE (SELECT within FROM verdict) AND EXISTS (SELECT 1 FROM identity WHERE state = 'active')
                    RETURNING 1)
                SELECT (SELECT within FROM verdict) AS within, (SELECT state FROM identity) AS state
                """)
        else { return .identity(nil) }
        guard try row.bool("within") else { return .limited }
        return .identity(try row.optionalText("state").map { IdentityState(rawValue: $0) ?? .revoked })
    }

    static func takeAuthToken(_ driver: any SQLDriver, hash: String, now: Int, loginAudit: (time: Int, address: String)?) async throws
        -> (token: AuthToken, identityState: IdentityState?)?
    {
        guard
            let row = try await driver.writeOne(
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
        let state = try row.optionalText("identity_state").map { IdentityState(rawValue: $0) ?? .revoked }
        return (try AuthToken(row: row), state)
    }
}
