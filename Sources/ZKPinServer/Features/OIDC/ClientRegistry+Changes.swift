/// Changes to a registered client, shared by `zkpin-server admin clients` and `/admin/v1/clients`:
/// its redirect URIs, its secret, its removal. Each is audited; servers see a change within
/// `ClientCache`'s two seconds.
extension ClientRegistry {
    /// Replaces the client's redirect URIs (and its post-logout URIs when given); nil when no
    /// client has that id.
    public static func setRedirectURIs(
        in store: Store, id: String, redirectURIs: [String], postLogoutURIs: [String]?, now: Int
    ) async throws -> OIDCClient? {
        guard var client = try await store.oidcClient(id: id) else { return nil }
        for uri in redirectURIs + (postLogoutURIs ?? []) { try check(uri) }
        let otherRoles = client.otp || client.ciba != nil || client.deviceGrant || client.introspect || !client.adminScopes.isEmpty
        guard otherRoles || !redirectURIs.isEmpty else {
            throw Invalid(description: "\(id) signs people in only through redirects: give it at least one redirect URI")
        }
        client.redirectURIs = redirectURIs
        if let postLogoutURIs { client.postLogoutURIs = postLogoutURIs }
        guard try await store.updateOIDCClientURIs(id: id, redirectURIs: client.redirectURIs, postLogoutURIs: client.postLogoutURIs) else {
            return nil
        }
        try await store.appendAudit(
            AuditEvent(time: now, kind: "oidc_client_change", detail: "\(id) redirect URIs: \(redirectURIs.joined(separator: " "))"))
        return client
    }

    /// A new secret for a confidential client (the old one stops at once; tokens already given
    /// stay good); nil when no client has that id.
    public static func rotateSecret(in store: Store, id: String, now: Int) async throws -> (client: OIDCClient, secret: String)? {
        guard let client = try await store.oidcClient(id: id) else { return nil }
        guard !client.isPublic else { throw Invalid(description: "\(id) is a public client: it has no secret to rotate") }
        let secret = Tokens.fresh()
        guard try await store.updateOIDCClientSecret(id: id, secretHash: Tokens.hash(secret)) else { return nil }
        try await store.appendAudit(AuditEvent(time: now, kind: "oidc_client_secret_rotate", detail: id))
        return (client, secret)
    }

    /// Removes the client with its codes and tokens; false when no client has that id.
    public static func removeClient(from store: Store, id: String, now: Int) async throws -> Bool {
        guard try await store.deleteOIDCClient(id: id) else { return false }
        try await store.appendAudit(AuditEvent(time: now, kind: "oidc_client_remove", detail: id))
        return true
    }
}
