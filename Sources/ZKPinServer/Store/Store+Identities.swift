/// Settings, registrations and identities.
extension Store {
    /// Stores `value` under `key` unless a value is there; returns the stored value.
    public func fixSetting(_ key: String, value: String) async throws -> String {
        try await transaction { tx in
            _ = try tx.run("INSERT INTO settings(key, value) VALUES (\(key), \(value)) ON CONFLICT DO NOTHING")
            return try tx.one("SELECT value FROM settings WHERE key = \(key)")?.text("value") ?? value
        }
    }

    public func insertRegistration(_ r: PendingRegistration) async throws {
        try await driver.write(
            """
            INSERT INTO registrations(mpin_id, user_id, device, reg_ott_hash, code_hash, created, expires, address, activated)
            VALUES (\(r.mpinId), \(r.userId), \(r.device), \(r.regOTTHash), \(r.codeHash), \(r.created), \(r.expires), \(r.address), \(r.activated))
            """)
    }

    public func registration(mpinId: String) async throws -> PendingRegistration? {
        try await driver.readOne("SELECT * FROM registrations WHERE mpin_id = \(mpinId)").map(PendingRegistration.init(row:))
    }

    /// Activates a live, not yet activated registration and creates its identity (active),
    /// atomically; false when it is unknown, expired or already activated.
    public func activate(mpinId: String, now: Int) async throws -> Bool {
        try await transaction { tx in
            // One statement takes the registration; the identity insert shares its transaction.
            guard
                let taken = try tx.one(
                    """
                    UPDATE registrations SET activated = \(now) WHERE mpin_id = \(mpinId) AND activated IS NULL AND expires > \(now)
                    RETURNING user_id, device
                    """)
            else { return false }
            _ = try tx.run(
                """
                INSERT INTO identities(mpin_id, user_id, device, state, failed, reserved, reserved_until, created)
                VALUES (\(mpinId), \(try taken.text("user_id")), \(try taken.text("device")), 'active', 0, 0, 0, \(now))
                """)
            return true
        }
    }

    public func deleteExpiredRegistrations(now: Int) async throws -> Int {
        try await changed("DELETE FROM registrations WHERE expires <= \(now) RETURNING 1")
    }

    public func identity(mpinId: String) async throws -> Identity? {
        try await driver.readOne("SELECT * FROM identities WHERE mpin_id = \(mpinId)").map(Identity.init(row:))
    }

    public func identities() async throws -> [Identity] {
        try await driver.read("SELECT * FROM identities ORDER BY created, mpin_id").map(Identity.init(row:))
    }

    /// A page of the identities (of one person when `userId` is given, in any case), oldest first.
    public func identities(userId: String?, limit: Int, offset: Int) async throws -> [Identity] {
        try await driver.read(
            """
            SELECT * FROM identities WHERE (CAST(\(userId) AS TEXT) IS NULL OR lower(user_id) = lower(\(userId)))
            ORDER BY created, mpin_id LIMIT \(limit) OFFSET \(offset)
            """
        ).map(Identity.init(row:))
    }

    /// The people whose address contains `part` (any case), by address, with how many identities
    /// they have in each state: at most `limit` people.
    public func people(containing part: String, limit: Int) async throws -> [(userId: String, states: [String: Int])] {
        // LIKE with its wildcards escaped: the part is matched as typed.
        let pattern =
            "%"
            + part.lowercased().replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        let rows = try await driver.read(
            """
            SELECT user_id, state, COUNT(*) AS n FROM identities
            WHERE user_id IN (
                SELECT DISTINCT user_id FROM identities WHERE lower(user_id) LIKE \(pattern) ESCAPE '\\' ORDER BY user_id LIMIT \(limit))
            GROUP BY user_id, state ORDER BY user_id
            """)
        var people: [(userId: String, states: [String: Int])] = []
        for row in rows {
            let user = try row.text("user_id")
            if people.last?.userId != user { people.append((user, [:])) }
            people[people.count - 1].states[try row.text("state")] = try row.int("n")
        }
        return people
    }

    /// The identities of one person (the e-mail address in any case), oldest first: the devices
    /// of the account page.
    public func identities(userId: String) async throws -> [Identity] {
        try await driver.read("SELECT * FROM identities WHERE lower(user_id) = lower(\(userId)) ORDER BY created, mpin_id").map(Identity.init(row:))
    }

    /// Revokes every identity of `userId` (the e-mail address in any case); returns how many changed.
    public func revoke(userId: String) async throws -> Int {
        try await revoke(IdentitySelection(userId: userId))
    }

    /// Revokes the identities `selection` names that are not revoked yet; returns how many changed.
    /// What they hold ends with them, in the same transaction: web sessions, OpenID Connect
    /// access and refresh tokens, and one-time codes not yet used. (A verdict waiting for `/rps/authenticate` stays: its answer
    /// tells the client that the identity is revoked.)
    public func revoke(_ selection: IdentitySelection) async throws -> Int {
        try await transaction { tx in
            let revoked = try tx.run("UPDATE identities SET state = 'revoked' WHERE \(selected: selection) AND state <> 'revoked' RETURNING mpin_id")
                .map { try $0.text("mpin_id") }
            guard !revoked.isEmpty else { return 0 }
            for table in ["web_sessions", "oidc_access_tokens", "oidc_refresh_tokens", "otp_codes"] {
                _ = try tx.run("DELETE FROM \(raw: table) WHERE mpin_id IN (\(list: revoked))")
            }
            return revoked.count
        }
    }

    /// Active → blocked for the identities `selection` names (the person's "Not me" with
    /// `--not-me-blocks on`); returns how many changed.
    public func block(_ selection: IdentitySelection) async throws -> Int {
        try await changed("UPDATE identities SET state = 'blocked' WHERE \(selected: selection) AND state = 'active' RETURNING 1")
    }

    /// Blocked → active with no failed attempts, for the blocked identities `selection` names
    /// (an operator's recovery: the person keeps their token and PIN); returns how many changed.
    public func unblock(_ selection: IdentitySelection) async throws -> Int {
        try await changed("UPDATE identities SET state = 'active', failed = 0 WHERE \(selected: selection) AND state = 'blocked' RETURNING 1")
    }
}

extension SQLStatement.Interpolation {
    /// The identities of an `IdentitySelection`: e-mail addresses match in any case
    /// (Case@Example.com is case@example.com); a nil device or mpinId matches every row.
    mutating func appendInterpolation(selected s: IdentitySelection) {
        appendInterpolation(raw: "lower(user_id) = lower(")
        appendInterpolation(s.userId)
        appendInterpolation(raw: ") AND device = COALESCE(")
        appendInterpolation(s.device)
        appendInterpolation(raw: ", device) AND mpin_id = COALESCE(")
        appendInterpolation(s.mpinId)
        appendInterpolation(raw: ", mpin_id)")
    }
}
