/// Access sessions (one code and the page that shows it) and web sessions.
extension Store {
    /// Inserts; false when a live session already uses the code (draw another).
    public func insertAccessSession(_ s: AccessSession) async throws -> Bool {
        try await transaction { tx in
            // An expired or finished session frees its code for a new draw.
            _ = try tx.run(
                "DELETE FROM access_sessions WHERE code = \(s.code) AND (expires <= \(s.created) OR status = \(AccessSession.Status.used.rawValue))")
            // DO NOTHING on either unique key: a code live elsewhere makes the caller draw again.
            return try tx.one(
                """
                INSERT INTO access_sessions(web_ott_hash, code, status, created, expires, taken_up, site)
                VALUES (\(s.webOTTHash), \(s.code), \(s.status.rawValue), \(s.created), \(s.expires), \(false), \(s.site))
                ON CONFLICT DO NOTHING RETURNING 1
                """) != nil
        }
    }

    public func accessSession(webOTTHash: String) async throws -> AccessSession? {
        try await driver.readOne("SELECT * FROM access_sessions WHERE web_ott_hash = \(webOTTHash)").map(AccessSession.init(row:))
    }

    public func accessSession(code: String) async throws -> AccessSession? {
        try await driver.readOne("SELECT * FROM access_sessions WHERE code = \(code)").map(AccessSession.init(row:))
    }

    /// Performs `move` on the session `key` finds, in one statement: only from the states the
    /// move may leave and while its conditions hold. The session after the move, or nil when
    /// it did not apply.
    public func move(_ move: AccessTransition, _ key: AccessKey, _ values: AccessMoveValues) async throws -> AccessSession? {
        var set: SQLStatement = "status = \(move.to.rawValue)"
        for column in move.sets {
            switch column {
            case .mpinId: set.append(", mpin_id = \(values.mpinId)")
            case .userId: set.append(", user_id = \(values.userId)")
            case .authOTTHash: set.append(", auth_ott_hash = \(values.authOTTHash)")
            case .authenticatedAt: set.append(", authenticated_at = \(values.now)")
            case .takenUp: set.append(", taken_up = \(true)")
            }
        }
        var condition: SQLStatement
        switch key {
        case .code(let code): condition = "code = \(code)"
        case .webOTTHash(let hash): condition = "web_ott_hash = \(hash)"
        }
        condition.append(" AND status IN (\(list: move.from.map(\.rawValue)))")
        for required in move.conditions {
            switch required {
            case .live: condition.append(" AND expires > \(values.now)")
            case .sameAuthOTT: condition.append(" AND auth_ott_hash = \(values.authOTTHash)")
            case .recentlyAuthenticated: condition.append(" AND authenticated_at > \(values.now - (values.window ?? 0))")
            }
        }
        let statement: SQLStatement = "UPDATE access_sessions SET \(set) WHERE \(condition) RETURNING *"
        return try await driver.writeOne(statement).map(AccessSession.init(row:))
    }

    // MARK: Web sessions

    public func insertWebSession(_ s: WebSession) async throws {
        try await driver.write(
            "INSERT INTO web_sessions(hash, mpin_id, user_id, created, expires) VALUES (\(s.hash), \(s.mpinId), \(s.userId), \(s.created), \(s.expires))"
        )
    }

    /// A live web session of an identity that is still active (revoking or blocking an
    /// identity signs its browsers out at once).
    public func webSession(hash: String, now: Int) async throws -> WebSession? {
        try await driver.readOne(
            """
            SELECT w.* FROM web_sessions w JOIN identities i ON i.mpin_id = w.mpin_id
            WHERE w.hash = \(hash) AND w.expires > \(now) AND i.state = 'active'
            """
        ).map(WebSession.init(row:))
    }

    /// Deletes a web session; answers the one deleted, nil when there was none.
    @discardableResult
    public func deleteWebSession(hash: String) async throws -> WebSession? {
        try await driver.writeOne("DELETE FROM web_sessions WHERE hash = \(hash) RETURNING *").map(WebSession.init(row:))
    }
}

extension SQLStatement {
    /// Appends another statement's text and values.
    mutating func append(_ other: SQLStatement) {
        text += other.text
        values += other.values
    }
}

extension SQLStatement.Interpolation {
    /// Another statement's text and values, spliced in.
    mutating func appendInterpolation(_ statement: SQLStatement) {
        text += statement.text
        values += statement.values
    }
}

/// The moves by name, each one call of `move` (AccessService is their only caller outside tests).
extension Store {
    /// new, wid or wrong_pin → wid for a live code; the session, or nil (unknown, expired, or past pass 2).
    public func presentCode(_ code: String, now: Int) async throws -> AccessSession? {
        try await move(.present, .code(code), AccessMoveValues(now: now))
    }

    /// wid → wrong_pin for a live code, noting `mpinId` so that the page can show the attempts left.
    public func markWrongPIN(code: String, mpinId: String, now: Int) async throws -> Bool {
        try await move(.wrongPIN, .code(code), AccessMoveValues(now: now, mpinId: mpinId)) != nil
    }

    /// wid or user → `outcome` (`blocked` or `refused`) for a live code, so the page can say what happened.
    public func markRefused(code: String, outcome: AccessSession.Status, now: Int) async throws -> Bool {
        try await move(outcome == .blocked ? .block : .refuse, .code(code), AccessMoveValues(now: now)) != nil
    }

    /// new, wid or wrong_pin → denied for a live code: its push sign-in was denied on a device.
    public func markDenied(code: String, now: Int) async throws -> Bool {
        try await move(.deny, .code(code), AccessMoveValues(now: now)) != nil
    }

    /// wid → user after pass 2 verified.
    public func markUser(code: String, mpinId: String, userId: String, authOTTHash: String, now: Int) async throws -> Bool {
        try await move(.verify, .code(code), AccessMoveValues(now: now, mpinId: mpinId, userId: userId, authOTTHash: authOTTHash)) != nil
    }

    /// user → authenticate for the login of `authOTTHash`, while the code is live.
    public func markAuthenticated(code: String, authOTTHash: String, now: Int) async throws -> Bool {
        try await move(.authenticate, .code(code), AccessMoveValues(now: now, authOTTHash: authOTTHash)) != nil
    }

    /// Records that the page's poll saw `authenticate`.
    public func markTakenUp(webOTTHash: String) async throws {
        _ = try await move(.takeUp, .webOTTHash(webOTTHash), AccessMoveValues(now: 0))
    }

    /// authenticate → used (the page exchanges it for a cookie); nil when not in `authenticate`
    /// or authenticated more than `window` seconds ago.
    public func consumeAccessSession(webOTTHash: String, now: Int, window: Int) async throws -> AccessSession? {
        try await move(.use, .webOTTHash(webOTTHash), AccessMoveValues(now: now, window: window))
    }
}
