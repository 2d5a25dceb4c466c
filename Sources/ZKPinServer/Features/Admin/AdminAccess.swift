/// The admin API's scopes (OAuth 2.0 client credentials for clients registered with
/// `admin clients add NAME --admin-scopes read|write`), and its access tokens' rows.
public enum AdminScopes {
    public static let read = "zkpin:admin:read"
    public static let write = "zkpin:admin:write"

    /// What `--admin-scopes` grants: read, or read and write.
    public static func granted(_ access: String) -> [String]? {
        switch access.lowercased() {
        case "read": [read]
        case "write": [read, write]
        default: nil
        }
    }
}

/// An admin API access token: hashed at rest, the client and scopes it was given for.
struct AdminToken: Sendable, Equatable {
    var hash: String
    var clientId: String
    var scopes: [String]
    var expires: Int
}

extension Store {
    func insertAdminToken(_ t: AdminToken) async throws {
        let scope = t.scopes.joined(separator: " ")
        try await driver.write(
            "INSERT INTO admin_tokens(hash, client_id, scope, expires) VALUES (\(t.hash), \(t.clientId), \(scope), \(t.expires))")
    }

    /// A live token whose client is still registered (a removed client's tokens stop at once).
    func adminToken(hash: String, now: Int) async throws -> AdminToken? {
        try await driver.readOne(
            """
            SELECT t.* FROM admin_tokens t JOIN oidc_clients c ON c.id = t.client_id
            WHERE t.hash = \(hash) AND t.expires > \(now)
            """
        ).map { r in
            AdminToken(
                hash: try r.text("hash"), clientId: try r.text("client_id"), scopes: try r.text("scope").split(separator: " ").map(String.init),
                expires: try r.int("expires"))
        }
    }
}

enum AdminSchema {
    static let changes: [SchemaChange] = [
        SchemaChange(version: 16, owner: "Admin", summary: "admin API clients and their access tokens", expiring: ["admin_tokens"]) { d in
            [
                "ALTER TABLE oidc_clients ADD COLUMN admin_scopes TEXT",
                "CREATE TABLE admin_tokens(hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, scope TEXT NOT NULL, expires \(d.integer) NOT NULL)"
            ]
        }
    ]
}
