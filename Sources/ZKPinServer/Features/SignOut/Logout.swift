/// The parameters of `/oauth/logout` (OpenID Connect RP-Initiated Logout 1.0, section 2).
struct LogoutParameters: Decodable, Sendable {
    var id_token_hint: String?
    var client_id: String?
    var post_logout_redirect_uri: String?
    var state: String?
    /// "yes" from the confirmation page's own form.
    var confirm: String?
}

extension OIDCProvider {
    /// Where to send the browser after logout: a post-logout URI registered for the client
    /// named by client_id or by the hint's audience; nil without one. `hintSubject`: the `sub`
    /// of the ID token this provider signed that the request carries (the route signs out
    /// without asking only when it is the session's own person). Throws a page error for an
    /// unregistered URI or a hint this provider did not sign.
    func logoutTarget(_ p: LogoutParameters) async throws -> (target: String?, hintSubject: String?) {
        var clientId = p.client_id
        var hintSubject: String?
        if let hint = p.id_token_hint, !hint.isEmpty {
            guard hint.utf8.count <= 8192, let claims = try? await keys.verify(hint, now: now), claims.iss == issuer else {
                throw AuthorizationPageError(message: "The id_token_hint was not issued by this service.")
            }
            if let id = clientId, id != claims.aud { throw AuthorizationPageError(message: "client_id differs from the id_token_hint's audience.") }
            clientId = claims.aud
            hintSubject = claims.sub
        }
        guard let uri = p.post_logout_redirect_uri, !uri.isEmpty else { return (nil, hintSubject) }
        guard let id = clientId, let client = try await client(id: id) else {
            throw AuthorizationPageError(message: "post_logout_redirect_uri needs client_id or id_token_hint naming a registered client.")
        }
        guard client.postLogoutURIs.contains(uri) else {
            throw AuthorizationPageError(message: "The post_logout_redirect_uri is not registered for \(client.name).")
        }
        return (RedirectURL.with(uri, [("state", p.state)]), hintSubject)
    }

    /// Ends the ZKPin web session of the cookie and the sign-ins at sites that came from it;
    /// answers those (the page loads the front-channel frames of their sites).
    func endSession(cookie: String?, address: String, sites: SiteSignOut) async throws(APIError) -> [EndedLogin] {
        let session = try await self.session(cookie: cookie)
        // Before the session goes: its sign-out event then finds these ended already.
        var ended: [EndedLogin] = []
        if let session { ended = await sites.endSession(sessionHash: session.hash, address: address) }
        try await access.closeSession(cookie: cookie)
        metrics.logouts.increment()
        await audit.record("oidc_logout", userId: session?.userId, mpinId: session?.mpinId, address: address)
        return ended
    }
}
