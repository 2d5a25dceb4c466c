import Foundation
import Hummingbird
import JWTKit

/// `/admin/v1/clients`: list, add, change redirect URIs, rotate a secret, remove; the same
/// `ClientRegistry` operations as `zkpin-server admin clients`, with the same documents.
enum AdminClientRoutes {
    /// `POST /admin/v1/clients`: the fields of `admin clients add`'s options.
    struct NewClient: Decodable {
        var name: String
        var redirectURIs: [String]?
        var postLogoutURIs: [String]?
        var `public`: Bool?
        var idTokenAlg: String?
        var otp: Bool?
        var ciba: String?
        var notificationEndpoint: String?
        var device: Bool?
        var introspect: Bool?
        var backchannelLogoutURI: String?
        var backchannelLogoutSessionRequired: Bool?
        var frontchannelLogoutURI: String?
        var frontchannelLogoutSessionRequired: Bool?
        var adminScopes: String?
        /// The client's public keys (a JWK Set object): private_key_jwt instead of a secret.
        var jwks: JWKS?
    }

    /// `PUT /admin/v1/clients/{id}/redirect-uris`.
    struct RedirectURIs: Decodable {
        var redirectURIs: [String]
        var postLogoutURIs: [String]?
    }

    static func add(to routes: RouteCollection<AppContext>, api: AdminCaller) {
        let provider = api.provider
        routes.get("/admin/v1/clients") { request, context in
            _ = try await api.authorize(request, context, AdminScopes.read)
            let clients = try await provider.storage("read clients") { try await $0.oidcClients() }
            return try api.document(clients.map { AdminRows.ClientRow($0) })
        }
        routes.post("/admin/v1/clients") { request, context in
            _ = try await api.authorize(request, context, AdminScopes.write)
            let body = try await request.decode(as: NewClient.self, context: context)
            let ciba = try body.ciba.map { mode in
                guard let parsed = OIDCClient.CIBAMode(rawValue: mode) else { throw APIError.bad("ciba is poll or ping, not \(mode)") }
                return parsed
            }
            let scopes = try body.adminScopes.map { access in
                guard let granted = AdminScopes.granted(access) else { throw APIError.bad("adminScopes is read or write, not \(access)") }
                return granted
            }
            let jwks = try body.jwks.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            let now = api.now
            let (client, secret) = try await registry(provider, "add a client") { store in
                try await ClientRegistry.add(
                    to: store, name: body.name, redirectURIs: body.redirectURIs ?? [], postLogoutURIs: body.postLogoutURIs ?? [],
                    isPublic: body.public ?? false, idTokenAlg: body.idTokenAlg ?? "ES256", otp: body.otp ?? false, ciba: ciba,
                    notificationEndpoint: body.notificationEndpoint, deviceGrant: body.device ?? false,
                    introspect: body.introspect ?? false,
                    logout: ClientRegistry.LogoutURIs(
                        backchannel: body.backchannelLogoutURI,
                        backchannelSessionRequired: body.backchannelLogoutSessionRequired ?? false,
                        frontchannel: body.frontchannelLogoutURI,
                        frontchannelSessionRequired: body.frontchannelLogoutSessionRequired ?? false),
                    adminScopes: scopes ?? [], jwks: jwks, now: now)
            }
            return try api.document(AdminRows.ClientWithSecret(client, secret: secret), status: .created)
        }
        routes.put("/admin/v1/clients/:id/redirect-uris") { request, context in
            _ = try await api.authorize(request, context, AdminScopes.write)
            let id = api.pathParameter(context, "id")
            let body = try await request.decode(as: RedirectURIs.self, context: context)
            let now = api.now
            let client = try await registry(provider, "change a client") { store in
                try await ClientRegistry.setRedirectURIs(
                    in: store, id: id, redirectURIs: body.redirectURIs, postLogoutURIs: body.postLogoutURIs, now: now)
            }
            guard let client else { throw unknown(id) }
            provider.clients.forget(id)
            return try api.document(AdminRows.ClientRow(client))
        }
        routes.post("/admin/v1/clients/:id/secret") { request, context in
            _ = try await api.authorize(request, context, AdminScopes.write)
            let id = api.pathParameter(context, "id")
            let now = api.now
            let rotated = try await registry(provider, "rotate a client secret") { try await ClientRegistry.rotateSecret(in: $0, id: id, now: now) }
            guard let rotated else { throw unknown(id) }
            provider.clients.forget(id)
            return try api.document(AdminRows.ClientWithSecret(rotated.client, secret: rotated.secret))
        }
        routes.delete("/admin/v1/clients/:id") { request, context in
            _ = try await api.authorize(request, context, AdminScopes.write)
            let id = api.pathParameter(context, "id")
            let now = api.now
            guard try await provider.storage("remove a client", { try await ClientRegistry.removeClient(from: $0, id: id, now: now) }) else {
                throw unknown(id)
            }
            provider.clients.forget(id)
            return AdminAPIRoutes.Count(changed: 1)
        }
    }

    /// A registry operation on the store: its refusals (a bad URI, a public client with a role
    /// that needs a secret) are 400, a failing database 503.
    static func registry<T>(_ provider: OIDCProvider, _ what: StaticString, _ body: (Store) async throws -> T) async throws -> T {
        let outcome: Result<T, ClientRegistry.Invalid> = try await provider.storage(what) { store in
            do { return .success(try await body(store)) } catch let invalid as ClientRegistry.Invalid { return .failure(invalid) }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let invalid): throw APIError.bad(invalid.description)
        }
    }

    static func unknown(_ id: String) -> APIError { APIError(.notFound, "no client \(id)") }
}
