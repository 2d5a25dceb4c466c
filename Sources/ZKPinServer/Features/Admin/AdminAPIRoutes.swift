import Foundation
import Hummingbird

/// `/admin/v1`: the operator's commands over HTTP for a client holding an admin API token
/// (client credentials, `AdminGrant`). Reads need `zkpin:admin:read`, changes
/// `zkpin:admin:write`; no token or a bad one is 401, a token without the scope 403. Every call
/// is audited with the calling client; the answers are the documents `zkpin-server admin ...
/// --json` prints (`AdminRows`), and changes are audited as the commands' are, so hooks hear
/// of them. People and the audit log here; clients in `AdminClientRoutes`, keys in
/// `AdminKeyRoutes`.
enum AdminAPIRoutes {
    struct Count: ResponseEncodable { var changed: Int }

    static func collection(provider: OIDCProvider, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let api = AdminCaller(provider: provider, address: address)

        routes.get("/admin/v1/users") { request, context in
            _ = try await api.authorize(request, context, AdminScopes.read)
            let limit = try api.queryNumber(request, "limit", default: 100, in: 1...1000) ?? 100
            let offset = try api.queryNumber(request, "offset", default: 0, in: 0...Int(Int32.max)) ?? 0
            let email = request.uri.queryParameters.get("email").map { String($0) }
            let identities = try await provider.storage("read identities") { try await $0.identities(userId: email, limit: limit, offset: offset) }
            return try api.document(identities.map { AdminRows.IdentityRow($0) })
        }
        routes.get("/admin/v1/users/:email") { request, context in
            _ = try await api.authorize(request, context, AdminScopes.read)
            let email = try personInPath(api, context)
            let (identities, audit) = try await provider.storage("read a person") { store in
                (try await store.identities(userId: email), try await store.numberedAuditLog(AuditQuery(userId: email, limit: 20)))
            }
            guard !identities.isEmpty || !audit.isEmpty else { throw APIError(.notFound, "nobody with the address \(email)") }
            return try api.document(AdminRows.PersonRow(userId: email, identities: identities, audit: audit))
        }
        for action in ["revoke", "unblock"] {
            routes.post("/admin/v1/users/:email/\(action)") { request, context in
                let client = try await api.authorize(request, context, AdminScopes.write)
                let email = try personInPath(api, context)
                let selection = IdentitySelection(userId: email)
                let changed = try await provider.storage("change identities") { store in
                    action == "revoke" ? try await store.revoke(selection) : try await store.unblock(selection)
                }
                await provider.audit.record(
                    action, userId: email, address: address.of(request, context), "admin API client \(client), \(changed) identities")
                return Count(changed: changed)
            }
        }
        routes.get("/admin/v1/audit") { request, context in
            _ = try await api.authorize(request, context, AdminScopes.read)
            let lines = try wantsJSONLines(request)
            let query = try auditQuery(api, request, maxLimit: lines ? 100_000 : 10_000)
            let rows = try await provider.storage("read audit") { try await $0.numberedAuditLog(query) }.map(AdminRows.AuditRow.init)
            guard lines else { return try api.document(rows) }
            return Response(
                status: .ok, headers: [.contentType: "application/x-ndjson", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(data: try AdminRows.jsonLines(rows))))
        }
        AdminClientRoutes.add(to: routes, api: api)
        AdminKeyRoutes.add(to: routes, api: api)
        return routes
    }

    /// The e-mail address in the path, normalised.
    static func personInPath(_ api: AdminCaller, _ context: AppContext) throws -> String {
        guard let email = EmailAddress.normalized(api.pathParameter(context, "email")) else {
            throw APIError.bad("the path must name an e-mail address")
        }
        return email
    }

    /// `format=jsonl`, or an Accept header asking for JSON lines: the export.
    static func wantsJSONLines(_ request: Request) throws -> Bool {
        if let format = request.uri.queryParameters.get("format") {
            guard format == "jsonl" else { throw APIError.bad("format is jsonl (JSON lines), or left out for one JSON document") }
            return true
        }
        let accept = request.headers[.accept]?.lowercased() ?? ""
        return accept.contains("application/x-ndjson") || accept.contains("application/jsonl")
    }

    /// The most text of `kind` (its names go into one IN list).
    static let maxKindText = 3300

    /// The audit filters: email, kind (comma-separated), since and until (Unix seconds, up to
    /// 2100), before (a row id: the next page back), limit.
    static func auditQuery(_ api: AdminCaller, _ request: Request, maxLimit: Int) throws -> AuditQuery {
        let kindText = request.uri.queryParameters.get("kind") ?? ""
        guard kindText.count <= maxKindText else { throw APIError.bad("kind is at most \(maxKindText) characters") }
        let kinds = kindText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let time = 0...4_102_444_800
        let query = AuditQuery(
            userId: request.uri.queryParameters.get("email").map { String($0) }, kinds: kinds,
            since: try api.queryNumber(request, "since", default: nil, in: time),
            until: try api.queryNumber(request, "until", default: nil, in: time),
            before: try api.queryNumber(request, "before", default: nil, in: 1...Int(Int64.max)),
            limit: try api.queryNumber(request, "limit", default: 100, in: 1...maxLimit) ?? 100)
        if let since = query.since, let until = query.until, until <= since { throw APIError.bad("until must be after since") }
        return query
    }
}
