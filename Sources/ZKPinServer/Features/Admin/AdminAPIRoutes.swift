import Foundation
import Hummingbird

/// `/admin/v1`: the operator's commands over HTTP for a client holding an admin API token
/// (client credentials, `AdminGrant`). Reads need `zkpin:admin:read`, changes
/// `zkpin:admin:write`; no token or a bad one is 401, a token without the scope 403. Every call
/// is audited with the calling client; the listings are the rows `zkpin-server admin ... --json`
/// prints (`AdminRows`), and revoke and unblock are audited as the commands' are, so hooks hear
/// of them.
enum AdminAPIRoutes {
    struct Count: ResponseEncodable { var changed: Int }

    static func collection(provider: OIDCProvider, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)

        /// The caller's client id, once its token holds `scope` (the call is audited).
        @Sendable func caller(_ request: Request, _ context: AppContext, _ scope: String) async throws -> String {
            guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else { throw BearerChallenge() }
            let from = address.of(request, context)
            let key = "admin-bearer:" + from
            try await provider.checkFailures(key, provider.limits.invalidBearersPerAddress, address: from)
            let hash = Tokens.hash(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
            let now = provider.now
            guard let token = try await provider.stored({ try await $0.adminToken(hash: hash, now: now) }) else {
                try await provider.countFailure(key, provider.limits.invalidBearersPerAddress)
                throw BearerChallenge(error: "invalid_token")
            }
            guard token.scopes.contains(scope) else { throw BearerChallenge(error: "insufficient_scope", missingScope: scope) }
            await provider.audit.record("admin_api", address: from, "client \(token.clientId): \(request.method.rawValue) \(request.uri.path)")
            return token.clientId
        }

        @Sendable func queryNumber(_ request: Request, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
            guard let text = request.uri.queryParameters.get(name) else { return value }
            guard let n = Int(text), range.contains(n) else {
                throw APIError.bad("\(name) must be a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }

        @Sendable func json<Row: Encodable>(_ rows: [Row]) throws -> Response {
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(data: try AdminRows.json(rows))))
        }

        routes.get("/admin/v1/users") { request, context in
            _ = try await caller(request, context, AdminScopes.read)
            let limit = try queryNumber(request, "limit", default: 100, in: 1...1000)
            let offset = try queryNumber(request, "offset", default: 0, in: 0...Int(Int32.max))
            let email = request.uri.queryParameters.get("email").map { String($0) }
            let identities = try await provider.storage("read identities") { store in
                if let email { return try await store.identities(userId: email) }
                return try await store.identities()
            }
            return try json(identities.dropFirst(offset).prefix(limit).map { AdminRows.IdentityRow($0) })
        }
        routes.get("/admin/v1/audit") { request, context in
            _ = try await caller(request, context, AdminScopes.read)
            let limit = try queryNumber(request, "limit", default: 100, in: 1...10_000)
            // Up to 2100: a Unix time in seconds.
            let since = request.uri.queryParameters.get("since") == nil ? nil : try queryNumber(request, "since", default: 0, in: 0...4_102_444_800)
            let query = AuditQuery(userId: request.uri.queryParameters.get("email").map { String($0) }, since: since, limit: limit)
            let rows = try await provider.storage("read audit") { try await $0.auditLog(query) }
            return try json(rows.map { AdminRows.AuditRow($0) })
        }
        routes.get("/admin/v1/clients") { request, context in
            _ = try await caller(request, context, AdminScopes.read)
            let clients = try await provider.storage("read clients") { try await $0.oidcClients() }
            return try json(clients.map { AdminRows.ClientRow($0) })
        }
        for (action, kind) in [("revoke", "revoke"), ("unblock", "unblock")] {
            routes.post("/admin/v1/users/:email/\(action)") { request, context in
                let client = try await caller(request, context, AdminScopes.write)
                guard let raw = context.parameters.get("email"), let email = EmailAddress.normalized(raw.removingPercentEncoding ?? raw) else {
                    throw APIError.bad("the path must name an e-mail address")
                }
                let selection = IdentitySelection(userId: email)
                let changed = try await provider.storage("change identities") { store in
                    action == "revoke" ? try await store.revoke(selection) : try await store.unblock(selection)
                }
                await provider.audit.record(
                    kind, userId: email, address: address.of(request, context), "admin API client \(client), \(changed) identities")
                return Count(changed: changed)
            }
        }
        return routes
    }
}
