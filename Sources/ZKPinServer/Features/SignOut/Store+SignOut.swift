/// A sign-in at a site that a sign-out or the end of an identity ended, with its site (nil
/// when the client was removed meanwhile).
public struct EndedLogin: Sendable, Equatable {
    public var login: OIDCLogin
    public var client: OIDCClient?
}

/// A logout token waiting to be posted to a site's back-channel logout URI.
public struct LogoutDelivery: Sendable, Equatable {
    public var id: String
    public var clientId: String
    public var userId: String
    public var sid: String?
    public var created: Int
    /// Dropped (and counted) when it is still undelivered at this time.
    public var expires: Int
    public var nextAttempt: Int
    public var attempts: Int
}

/// Ending sign-ins at sites and the queue of back-channel logouts. Each ending is one
/// transaction: the sign-in row is taken, its token family revoked and the site's logout
/// queued together, so a crash loses no logout and tells no site twice.
extension Store {
    /// Ends the sign-ins that came from one web session (its sign-out).
    public func endSiteLogins(sid: String, now: Int, window: Int) async throws -> [EndedLogin] {
        try await endSiteLogins(
            taking: "DELETE FROM oidc_logins WHERE sid = \(sid) RETURNING *", now: now, window: window)
    }

    /// Ends up to `limit` sign-ins of identities that are no longer active (revoked by the
    /// operator or their owner, blocked by wrong PINs, or gone). Whatever ended the identity
    /// (a request, `zkpin-server admin revoke` on another machine) needs to tell no one: the
    /// server finds these on its own.
    public func endSiteLoginsOfEndedIdentities(now: Int, window: Int, limit: Int) async throws -> [EndedLogin] {
        // A read first: this runs every second, and almost always finds nothing to end.
        let any = try await driver.readOne(
            """
            SELECT 1 AS one FROM oidc_logins l
            WHERE NOT EXISTS (SELECT 1 FROM identities i WHERE i.mpin_id = l.mpin_id AND i.state = 'active') LIMIT 1
            """)
        guard any != nil else { return [] }
        let skip = dialect.skipTaken
        return try await endSiteLogins(
            taking: """
                DELETE FROM oidc_logins WHERE family IN (
                    SELECT l.family FROM oidc_logins l
                    WHERE NOT EXISTS (SELECT 1 FROM identities i WHERE i.mpin_id = l.mpin_id AND i.state = 'active')
                    LIMIT \(limit) \(raw: skip))
                RETURNING *
                """, now: now, window: window)
    }

    private func endSiteLogins(taking statement: SQLStatement, now: Int, window: Int) async throws -> [EndedLogin] {
        try await transaction { tx in
            let logins = try tx.run(statement).map(OIDCLogin.init(row:))
            guard !logins.isEmpty else { return [] }
            let clients = try tx.run("SELECT * FROM oidc_clients WHERE id IN (\(list: Array(Set(logins.map(\.clientId)))))")
                .map(OIDCClient.init(row:))
            let byId = Dictionary(clients.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for login in logins {
                _ = try tx.run("UPDATE oidc_codes SET revoked = \(true) WHERE hash = \(login.family)")
                _ = try tx.run("DELETE FROM oidc_access_tokens WHERE code_hash = \(login.family)")
                _ = try tx.run("DELETE FROM oidc_refresh_tokens WHERE family = \(login.family)")
                guard byId[login.clientId]?.backchannelLogoutURI != nil else { continue }
                _ = try tx.run(
                    """
                    INSERT INTO logout_deliveries(id, client_id, user_id, sid, created, expires, next_attempt, attempts)
                    VALUES (\(Tokens.fresh(bytes: 16)), \(login.clientId), \(login.userId), \(login.sid), \(now), \(now + window), \(now), 0)
                    """)
            }
            return logins.map { EndedLogin(login: $0, client: byId[$0.clientId]) }
        }
    }

    /// Takes up to `limit` due logouts for `lease` seconds (a send cut short by a crash is
    /// tried again when the lease ends; instances never take the same one).
    public func claimLogoutDeliveries(now: Int, lease: Int, limit: Int) async throws -> [LogoutDelivery] {
        let skip = dialect.skipTaken
        return try await driver.write(
            """
            UPDATE logout_deliveries SET next_attempt = \(now + lease), attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM logout_deliveries WHERE next_attempt <= \(now) ORDER BY next_attempt LIMIT \(limit) \(raw: skip))
            RETURNING *
            """
        ).map(LogoutDelivery.init(row:))
    }

    /// A logout the site took, or one to drop: gone from the queue.
    public func finishLogoutDelivery(id: String) async throws {
        try await driver.write("DELETE FROM logout_deliveries WHERE id = \(id)")
    }

    public func retryLogoutDelivery(id: String, at: Int) async throws {
        try await driver.write("UPDATE logout_deliveries SET next_attempt = \(at) WHERE id = \(id)")
    }

    /// How many logouts wait (for /metrics).
    public func logoutQueueLength() async throws -> Int {
        try await driver.readOne("SELECT COUNT(*) AS n FROM logout_deliveries")?.int("n") ?? 0
    }

    /// Deletes the logouts still undelivered at their expiry; answers how many.
    public func dropExpiredLogoutDeliveries(now: Int) async throws -> Int {
        try await driver.write("DELETE FROM logout_deliveries WHERE expires <= \(now) RETURNING 1").count
    }
}

extension LogoutDelivery {
    init(row r: SQLRow) throws {
        self.init(
            id: try r.text("id"), clientId: try r.text("client_id"), userId: try r.text("user_id"), sid: try r.optionalText("sid"),
            created: try r.int("created"), expires: try r.int("expires"), nextAttempt: try r.int("next_attempt"),
            attempts: try r.int("attempts"))
    }
}

/// The queue of back-channel logouts.
enum SignOutSchema {
    static let changes: [SchemaChange] = [
        SchemaChange(version: 14, owner: "SignOut", summary: "back-channel logouts waiting for their sites") { d in
            [
                """
                CREATE TABLE logout_deliveries(
                    id TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, sid TEXT, created \(d.integer) NOT NULL,
                    expires \(d.integer) NOT NULL, next_attempt \(d.integer) NOT NULL, attempts \(d.integer) NOT NULL)
                """,
                "CREATE INDEX logout_deliveries_due ON logout_deliveries(next_attempt)"
            ]
        }
    ]
}
