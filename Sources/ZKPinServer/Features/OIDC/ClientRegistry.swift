import Foundation

/// Registering relying parties (`zkpin-server admin clients ...`).
public enum ClientRegistry {
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// A new client: id and (for a confidential client) a secret, shown once; only its hash is stored.
    /// `otp`: a service that checks one-time codes at `/otp/verify` (always confidential; it
    /// needs no redirect URI unless it also signs people in through OpenID Connect).
    public static func add(
        to store: Store, name: String, redirectURIs: [String], postLogoutURIs: [String],
        isPublic: Bool, idTokenAlg: String = "ES256", otp: Bool = false, ciba: OIDCClient.CIBAMode? = nil,
        notificationEndpoint: String? = nil, deviceGrant: Bool = false, introspect: Bool = false, logout: LogoutURIs = LogoutURIs(),
        adminScopes: [String] = [], jwks: String? = nil, now: Int
    ) async throws -> (client: OIDCClient, secret: String?) {
        // A client with keys signs assertions (private_key_jwt) instead of holding a secret.
        if jwks != nil && isPublic { throw Invalid(description: "a client with keys (--jwks-file) is not public: leave out --public") }
        var keys: String? = nil
        if let jwks { keys = try await ClientAssertion.checkJWKS(jwks) }
        guard let algorithm = SigningKey.Algorithm(rawValue: idTokenAlg.uppercased()) else {
            throw Invalid(description: "the ID token algorithm is ES256 or RS256, not \(idTokenAlg)")
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 100, !trimmed.contains(where: \.isNewline) else {
            throw Invalid(description: "the client name must be 1 to 100 characters on one line")
        }
        if otp && isPublic { throw Invalid(description: "a one-time code service (--otp) needs a secret: leave out --public") }
        if ciba != nil && isPublic { throw Invalid(description: "a site that asks for approvals (--ciba) needs a secret: leave out --public") }
        switch (ciba, notificationEndpoint) {
        case (.ping?, nil): throw Invalid(description: "--ciba ping needs --notification-endpoint URI (where ZKPin posts when the person answered)")
        case (.poll?, _?), (nil, _?): throw Invalid(description: "--notification-endpoint is only for --ciba ping")
        default: break
        }
        if introspect && isPublic {
            throw Invalid(description: "a resource server that introspects tokens (--introspect) needs a secret: leave out --public")
        }
        if !adminScopes.isEmpty && isPublic {
            throw Invalid(description: "an admin API client (--admin-scopes) needs a secret: leave out --public")
        }
        guard otp || ciba != nil || deviceGrant || introspect || !adminScopes.isEmpty || !redirectURIs.isEmpty else {
            throw Invalid(description: "give at least one --redirect-uri (or --otp, --ciba, --device, --introspect or --admin-scopes)")
        }
        for uri in redirectURIs + postLogoutURIs + (notificationEndpoint.map { [$0] } ?? []) { try check(uri) }
        try logout.check()
        let secret: String? = isPublic || keys != nil ? nil : Tokens.fresh()  // keys: private_key_jwt
        var client = OIDCClient(
            id: "zk-" + Tokens.fresh(bytes: 12), name: trimmed, secretHash: secret.map(Tokens.hash),
            redirectURIs: redirectURIs, postLogoutURIs: postLogoutURIs, created: now, idTokenAlg: algorithm.rawValue, otp: otp,
            ciba: ciba, notificationEndpoint: notificationEndpoint, deviceGrant: deviceGrant, introspect: introspect,
            backchannelLogoutURI: logout.backchannel, backchannelLogoutSessionRequired: logout.backchannelSessionRequired,
            frontchannelLogoutURI: logout.frontchannel, frontchannelLogoutSessionRequired: logout.frontchannelSessionRequired)
        client.adminScopes = adminScopes
        client.jwks = keys
        try await store.insertOIDCClient(client)
        var named: [String] = []
        if otp { named.append("otp") }
        if let ciba { named.append("ciba-\(ciba.rawValue)") }
        if deviceGrant { named.append("device") }
        if introspect { named.append("introspect") }
        if logout.backchannel != nil { named.append("backchannel-logout") }
        if logout.frontchannel != nil { named.append("frontchannel-logout") }
        named += adminScopes
        if keys != nil { named.append("private_key_jwt") }
        let roles = named.map { " " + $0 }.joined()
        try await store.appendAudit(AuditEvent(time: now, kind: "oidc_client_add", detail: "\(client.id) \(trimmed)\(roles)"))
        return (client, secret)
    }

    /// Where a site hears that a person signed out (OpenID Connect Back-Channel and
    /// Front-Channel Logout 1.0): https, or http on loopback for a site in development.
    public struct LogoutURIs: Sendable {
        public var backchannel: String?
        public var backchannelSessionRequired = false
        public var frontchannel: String?
        public var frontchannelSessionRequired = false

        public init(
            backchannel: String? = nil, backchannelSessionRequired: Bool = false, frontchannel: String? = nil,
            frontchannelSessionRequired: Bool = false
        ) {
            self.backchannel = backchannel; self.backchannelSessionRequired = backchannelSessionRequired
            self.frontchannel = frontchannel; self.frontchannelSessionRequired = frontchannelSessionRequired
        }

        func check() throws {
            if backchannelSessionRequired && backchannel == nil {
                throw Invalid(description: "--backchannel-logout-session-required needs --backchannel-logout-uri")
            }
            if frontchannelSessionRequired && frontchannel == nil {
                throw Invalid(description: "--frontchannel-logout-session-required needs --frontchannel-logout-uri")
            }
            for (flag, uri) in [("--backchannel-logout-uri", backchannel), ("--frontchannel-logout-uri", frontchannel)] {
                guard let uri else { continue }
                try ClientRegistry.check(uri)
                guard OutboundURL.isAllowed(uri) else {
                    throw Invalid(description: "\(flag) must be https (or http on a loopback address for a site in development): \(uri)")
                }
            }
        }

    }

    /// An absolute http or https URI without fragment (RFC 6749 section 3.1.2).
    static func check(_ uri: String) throws {
        guard uri.utf8.count <= 2000, !uri.contains(where: { $0.isWhitespace || $0.isNewline }),
            let url = URLComponents(string: uri), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.fragment == nil
        else { throw Invalid(description: "\(uri) is not an absolute http(s) URI without fragment") }
    }
}
