/// Device codes of the device authorization grant (RFC 8628, docs/api.md "Device sign-in"):
/// a device asks, the person types the user code into a browser page, signs in and allows
/// (or denies) it; the device polls with the device code. Both codes are kept only hashed.
extension Store {
    public func insertDeviceCode(_ c: DeviceCode) async throws {
        try await driver.write(
            """
            INSERT INTO device_codes(hash, user_code_hash, client_id, scope, status, created, expires, poll_interval, next_poll)
            VALUES (\(c.hash), \(c.userCodeHash), \(c.clientId), \(c.scope), \(c.status.rawValue), \(c.created), \(c.expires),
                    \(c.interval), \(c.nextPoll))
            """)
    }

    /// The live, unanswered device code with this user code.
    public func pendingDeviceCode(userCodeHash: String, now: Int) async throws -> DeviceCode? {
        try await driver.readOne(
            """
            SELECT * FROM device_codes WHERE user_code_hash = \(userCodeHash) AND status = \(GrantStatus.pending.rawValue)
              AND expires > \(now)
            """
        ).map(DeviceCode.init(row:))
    }

    /// The person's answer, once, while the code lives: allowed (for the signed-in identity) or
    /// denied. nil when it was answered already or expired.
    public func answerDeviceCode(userCodeHash: String, allow: Bool, userId: String, mpinId: String, authTime: Int, now: Int)
        async throws -> DeviceCode?
    {
        let status: GrantStatus = allow ? .approved : .denied
        return try await driver.writeOne(
            """
            UPDATE device_codes SET status = \(status.rawValue), user_id = \(userId), mpin_id = \(mpinId), answered = \(authTime)
            WHERE user_code_hash = \(userCodeHash) AND status = \(GrantStatus.pending.rawValue) AND expires > \(now)
            RETURNING *
            """
        ).map(DeviceCode.init(row:))
    }

    /// One poll by the device (`PollingRules`, shared with CIBA).
    public func pollDeviceCode(hash: String, clientId: String, now: Int) async throws -> (code: DeviceCode, verdict: PollingRules.Verdict)? {
        guard let (row, verdict) = try await pollGrant(table: "device_codes", key: "hash", id: hash, clientId: clientId, now: now)
        else { return nil }
        return (try DeviceCode(row: row), verdict)
    }

    /// Device codes are kept ten minutes past expiry, so that a late poll is told `expired_token`.
    public func purgeExpiredDeviceCodes(now: Int) async throws {
        try await driver.write("DELETE FROM device_codes WHERE expires < \(now - 600)")
    }
}

/// A device's request to sign in (RFC 8628 section 3.2) and the person's answer.
public struct DeviceCode: Sendable, Equatable {
    /// SHA-256 of the device code (the device's secret for polling).
    public var hash: String
    /// SHA-256 of the user code in its canonical form (`UserCode.canonical`).
    public var userCodeHash: String
    public var clientId: String
    public var scope: String
    public var status: GrantStatus
    public var created: Int
    public var expires: Int
    public var interval: Int
    public var nextPoll: Int
    /// Who allowed it (with `approved`), and when they had signed in.
    public var userId: String?
    public var mpinId: String?
    public var answered: Int?

    public init(hash: String, userCodeHash: String, clientId: String, scope: String, created: Int, expires: Int, interval: Int) {
        self.hash = hash; self.userCodeHash = userCodeHash; self.clientId = clientId; self.scope = scope; status = .pending
        self.created = created; self.expires = expires; self.interval = interval; nextPoll = created + interval
    }

    init(row r: SQLRow) throws {
        self.init(
            hash: try r.text("hash"), userCodeHash: try r.text("user_code_hash"), clientId: try r.text("client_id"),
            scope: try r.text("scope"), created: try r.int("created"), expires: try r.int("expires"), interval: try r.int("poll_interval"))
        status = try GrantStatus(row: r)
        nextPoll = try r.int("next_poll")
        userId = try r.optionalText("user_id")
        mpinId = try r.optionalText("mpin_id")
        answered = try r.optionalInt("answered")
    }
}

/// Device codes (RFC 8628) and the clients that may ask for them, shipped in the same version as
/// CIBA's requests, after them.
enum DeviceGrantSchema {
    static let changes: [SchemaChange] = [
        SchemaChange(version: 7, owner: "DeviceGrant", summary: "device codes", expiring: ["device_codes"]) { d in
            [
                "ALTER TABLE oidc_clients ADD COLUMN device_grant BOOLEAN NOT NULL DEFAULT \(d.false)",
                """
                CREATE TABLE device_codes(hash TEXT PRIMARY KEY, user_code_hash TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL, scope TEXT NOT NULL,
                status TEXT NOT NULL, created BIGINT NOT NULL, expires BIGINT NOT NULL, poll_interval BIGINT NOT NULL,
                next_poll BIGINT NOT NULL, user_id TEXT, mpin_id TEXT, answered BIGINT)
                """
            ]
        }
    ]
}
