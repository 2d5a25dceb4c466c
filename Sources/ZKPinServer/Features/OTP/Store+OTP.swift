/// One-time codes for password-only systems (docs/api.md, "One-time codes"): issued by pass 2
/// with `OTP`, checked at `/otp/verify` by a service registered with `--otp`. A code is kept
/// only as an HMAC bound to the person and the service; consuming one is ONE atomic
/// statement, so two concurrent checks of one code give exactly one success.
extension Store {
    /// Stores a fresh code; the person's earlier live codes for the same service stop working
    /// (only the newest one counts), in the same transaction.
    public func insertOTP(_ code: OneTimeCode) async throws {
        try await transaction { tx in
            _ = try tx.run("DELETE FROM otp_codes WHERE user_id = \(code.userId) AND client_id = \(code.clientId)")
            _ = try tx.run(
                """
                INSERT INTO otp_codes(id, user_id, client_id, mpin_id, hash, created, expires)
                VALUES (\(code.id), \(code.userId), \(code.clientId), \(code.mpinId), \(code.hash), \(code.created), \(code.expires))
                """)
        }
    }

    /// The live codes of a person for a service (the caller compares hashes in constant time).
    public func liveOTPs(userId: String, clientId: String, now: Int) async throws -> [OneTimeCode] {
        try await driver.read(
            "SELECT * FROM otp_codes WHERE user_id = \(userId) AND client_id = \(clientId) AND expires > \(now) ORDER BY created, id"
        ).map(OneTimeCode.init(row:))
    }

    /// Consumes one live code by id; false when another check took it first, or it expired.
    public func consumeOTP(id: String, now: Int) async throws -> Bool {
        try await driver.writeOne("DELETE FROM otp_codes WHERE id = \(id) AND expires > \(now) RETURNING 1") != nil
    }

    /// Deletes expired one-time codes.
    public func purgeExpiredOTPs(now: Int) async throws {
        try await purge(now: now, tables: ["otp_codes"])
    }

    /// The services that may check one-time codes (clients registered with `--otp`).
    public func otpServices() async throws -> [OIDCClient] {
        try await driver.read("SELECT * FROM oidc_clients WHERE otp = \(true) ORDER BY created, id").map(OIDCClient.init(row:))
    }
}

/// A one-time code at rest: no code, only `hash` = HMAC(server key, service, person, code).
public struct OneTimeCode: Sendable, Equatable {
    public var id: String
    public var userId: String
    /// The service (client id) it is for.
    public var clientId: String
    /// The identity whose proof earned it (audit only).
    public var mpinId: String
    public var hash: String
    public var created: Int
    public var expires: Int

    public init(id: String, userId: String, clientId: String, mpinId: String, hash: String, created: Int, expires: Int) {
        self.id = id; self.userId = userId; self.clientId = clientId; self.mpinId = mpinId; self.hash = hash
        self.created = created; self.expires = expires
    }

    init(row r: SQLRow) throws {
        self.init(
            id: try r.text("id"), userId: try r.text("user_id"), clientId: try r.text("client_id"), mpinId: try r.text("mpin_id"),
            hash: try r.text("hash"), created: try r.int("created"), expires: try r.int("expires"))
    }
}

/// The one-time code tables, for both stores (SQLite migration v6, PostgreSQL version 5).
enum OTPSchema {
    static let changes: [SchemaChange] = [
        SchemaChange(version: 6, owner: "OTP", summary: "one-time codes and the services that check them", expiring: ["otp_codes"]) { d in
            [
                "ALTER TABLE oidc_clients ADD COLUMN otp \(d.boolean) NOT NULL DEFAULT \(d.false)",
                """
                CREATE TABLE otp_codes(
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, client_id TEXT NOT NULL, mpin_id TEXT NOT NULL,
                    hash TEXT NOT NULL, created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL)
                """,
                "CREATE INDEX otp_codes_user ON otp_codes(user_id, client_id)"
            ]
        }
    ]
}
