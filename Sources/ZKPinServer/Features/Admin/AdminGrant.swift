/// OAuth 2.0 client credentials (RFC 6749 section 4.4) for admin API clients: the client's own
/// access token, with the scopes it asked for among those it was registered with (all of them
/// when it asks for none). No ID token, no refresh token.
enum AdminGrant {
    static let type = "client_credentials"
    static let tokenTTL = 3600

    static let grant = ExtensionGrant(
        type: type,
        redeem: { provider, p, client, address throws(OAuthError) in
            guard !client.adminScopes.isEmpty, !client.isPublic else {
                throw .unauthorizedClient("client credentials are for admin API clients (admin clients add --admin-scopes)")
            }
            let asked = (p.scope ?? "").split(separator: " ").map(String.init)
            guard asked.allSatisfy(client.adminScopes.contains) else {
                throw .invalidScope("the client may ask for " + client.adminScopes.joined(separator: " "))
            }
            let scopes = asked.isEmpty ? client.adminScopes : client.adminScopes.filter(asked.contains)
            let token = Tokens.fresh()
            let now = provider.now
            let row = AdminToken(hash: Tokens.hash(token), clientId: client.id, scopes: scopes, expires: now + tokenTTL)
            try await provider.stored { try await $0.insertAdminToken(row) }
            await provider.audit.record("admin_token", address: address, "client \(client.id): \(scopes.joined(separator: " "))")
            return TokenResponse(access_token: token, expires_in: tokenTTL, id_token: "", scope: scopes.joined(separator: " "))
        })
}
