import Foundation
import Hummingbird

/// `/admin/v1/keys`: the ID-token signing keys, and their rotation (as `zkpin-server admin keys
/// list|rotate`: the data folder's key files, which every server on the folder reads at once).
enum AdminKeyRoutes {
    static func add(to routes: RouteCollection<AppContext>, api: AdminCaller) {
        let provider = api.provider
        routes.get("/admin/v1/keys") { request, context in
            _ = try await api.authorize(request, context, AdminScopes.read)
            return try api.document(try listed(provider))
        }
        routes.post("/admin/v1/keys/rotate") { request, context in
            let client = try await api.authorize(request, context, AdminScopes.write)
            let now = api.now
            do {
                let before = try listed(provider).filter { $0.status.hasPrefix("current") }.map(\.kid)
                _ = try SigningKeys.rotate(dataDirectory: provider.keys.dir, now: now)
                let after = try listed(provider)
                let fresh = after.filter { $0.status.hasPrefix("current") }
                await provider.audit.record(
                    "keys_rotate", address: api.address.of(request, context),
                    fresh.map { "\($0.algorithm) \($0.kid)" }.joined(separator: ", ")
                        + " (admin API client \(client); retired \(before.joined(separator: ", ")))")
                return try api.document(after)
            } catch let error as SetupError {
                throw APIError(status: .internalServerError, code: .internalError, "the keys could not be rotated: \(error.description)")
            }
        }
    }

    static func listed(_ provider: OIDCProvider) throws -> [AdminRows.KeyRow] {
        try SigningKeys.list(dataDirectory: provider.keys.dir, now: provider.now).map(AdminRows.KeyRow.init)
    }
}
