import Foundation

/// The rows of the operator's listings, as `zkpin-server admin ... --json` prints them and
/// `/admin/v1` answers them: one shape, one code path behind both.
public enum AdminRows {
    /// ISO 8601 in UTC, as the listings give times.
    public static func time(_ unix: Int) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }

    /// One identity (`admin users --json`, `GET /admin/v1/users`).
    public struct IdentityRow: Codable, Sendable, Equatable {
        public var userId: String, device: String, state: String, failedAttempts: Int, created: String, lastLogin: String?, mpinId: String

        public init(_ i: Identity) {
            userId = i.userId; device = i.device; state = i.state.rawValue; failedAttempts = i.failedAttempts
            created = AdminRows.time(i.created); lastLogin = i.lastLogin.map(AdminRows.time); mpinId = i.mpinId
        }

        enum CodingKeys: String, CodingKey { case userId, device, state, failedAttempts, created, lastLogin, mpinId }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(userId, forKey: .userId); try c.encode(device, forKey: .device); try c.encode(state, forKey: .state)
            try c.encode(failedAttempts, forKey: .failedAttempts); try c.encode(created, forKey: .created)
            try c.encode(lastLogin, forKey: .lastLogin)  // null rather than absent: every row has every key
            try c.encode(mpinId, forKey: .mpinId)
        }
    }

    /// One audit row (`admin audit --json`, `GET /admin/v1/audit`); `id` is the log's order
    /// (`before=` pages back from it).
    public struct AuditRow: Codable, Sendable, Equatable {
        public var id: Int, time: String, kind: String, userId: String?, mpinId: String?, address: String?, detail: String

        public init(_ row: NumberedAuditEvent) {
            let e = row.event
            id = row.id; time = AdminRows.time(e.time); kind = e.kind; userId = e.userId; mpinId = e.mpinId; address = e.address
            detail = e.detail
        }

        enum CodingKeys: String, CodingKey { case id, time, kind, userId, mpinId, address, detail }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id); try c.encode(time, forKey: .time); try c.encode(kind, forKey: .kind)
            // null rather than absent: every row has every key.
            try c.encode(userId, forKey: .userId); try c.encode(mpinId, forKey: .mpinId); try c.encode(address, forKey: .address)
            try c.encode(detail, forKey: .detail)
        }
    }

    /// One signing key (`admin keys list --json`, `GET /admin/v1/keys`).
    public struct KeyRow: Codable, Sendable, Equatable {
        public var kid: String, algorithm: String, status: String
        public init(_ e: SigningKeys.Entry) { kid = e.kid; algorithm = e.algorithm; status = e.status }
    }

    /// A client's secret, shown once (`admin clients add|rotate-secret --json`, and the API's
    /// answers to both): the client and its new secret (null for a public client).
    public struct ClientWithSecret: Codable, Sendable, Equatable {
        public var client: ClientRow, clientSecret: String?
        public init(_ client: OIDCClient, secret: String?) { self.client = ClientRow(client); clientSecret = secret }

        enum CodingKeys: String, CodingKey { case client, clientSecret }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(client, forKey: .client); try c.encode(clientSecret, forKey: .clientSecret)
        }
    }

    /// One person (`GET /admin/v1/users/{email}`): every identity (one per device) and the
    /// newest audit rows about them.
    public struct PersonRow: Codable, Sendable, Equatable {
        public var userId: String, identities: [IdentityRow], audit: [AuditRow]
        public init(userId: String, identities: [Identity], audit: [NumberedAuditEvent]) {
            self.userId = userId; self.identities = identities.map(IdentityRow.init); self.audit = audit.map(AuditRow.init)
        }
    }

    /// One client (`admin clients list --json`, `GET /admin/v1/clients`): no secret, not even its hash.
    public struct ClientRow: Codable, Sendable, Equatable {
        public var id: String, name: String, `public`: Bool, created: String, idTokenAlg: String, roles: [String]
        public var redirectURIs: [String], postLogoutURIs: [String], backchannelLogoutURI: String?, frontchannelLogoutURI: String?
        public var adminScopes: [String]
        /// client_secret_basic, private_key_jwt or none.
        public var authMethod: String

        public init(_ c: OIDCClient) {
            id = c.id; name = c.name; `public` = c.isPublic; created = AdminRows.time(c.created); idTokenAlg = c.idTokenAlg
            roles =
                (c.otp ? ["otp"] : []) + (c.ciba.map { ["ciba-\($0.rawValue)"] } ?? []) + (c.deviceGrant ? ["device"] : [])
                + (c.introspect ? ["introspect"] : [])
            redirectURIs = c.redirectURIs; postLogoutURIs = c.postLogoutURIs
            backchannelLogoutURI = c.backchannelLogoutURI; frontchannelLogoutURI = c.frontchannelLogoutURI; adminScopes = c.adminScopes
            authMethod = c.authMethod
        }

        enum CodingKeys: String, CodingKey {
            case id, name, `public`, created, idTokenAlg, roles, redirectURIs, postLogoutURIs, backchannelLogoutURI, frontchannelLogoutURI,
                adminScopes, authMethod
        }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id); try c.encode(name, forKey: .name); try c.encode(`public`, forKey: .public)
            try c.encode(created, forKey: .created); try c.encode(idTokenAlg, forKey: .idTokenAlg); try c.encode(roles, forKey: .roles)
            try c.encode(redirectURIs, forKey: .redirectURIs); try c.encode(postLogoutURIs, forKey: .postLogoutURIs)
            // null rather than absent: every row has every key.
            try c.encode(backchannelLogoutURI, forKey: .backchannelLogoutURI); try c.encode(frontchannelLogoutURI, forKey: .frontchannelLogoutURI)
            try c.encode(adminScopes, forKey: .adminScopes); try c.encode(authMethod, forKey: .authMethod)
        }
    }

    /// The listings' JSON: sorted keys, so the CLI's and the API's documents compare byte for byte.
    public static func json<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// JSON lines (one compact object per line, each ending in a newline): the audit export.
    public static func jsonLines<Row: Encodable>(_ rows: [Row]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = Data()
        for row in rows {
            out += try encoder.encode(row)
            out.append(0x0A)
        }
        return out
    }
}
