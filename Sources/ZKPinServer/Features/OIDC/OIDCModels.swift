// The OpenID Connect provider's rows (see OIDC/). Secrets, codes and access tokens appear
// only as SHA-256 hashes (hex); times are Unix seconds.

/// A relying party registered with `zkpin-server admin clients add`.
public struct OIDCClient: Sendable, Equatable {
    public var id: String
    public var name: String
    /// SHA-256 hex of the client secret; nil for a public client (PKCE, no secret).
    public var secretHash: String?
    public var redirectURIs: [String]
    public var postLogoutURIs: [String]
    public var created: Int
    /// The ID token's signature: "ES256" (default) or "RS256".
    public var idTokenAlg: String
    /// A service that checks one-time codes at `/otp/verify` (`admin clients add --otp`).
    public var otp: Bool
    /// A site that asks people to approve things (CIBA, `admin clients add --ciba poll|ping`).
    public var ciba: CIBAMode?
    /// Ping mode: where the provider posts `{"auth_req_id": ...}` once the person answered.
    public var notificationEndpoint: String?
    /// A device without a browser (a TV, a command-line tool) that signs people in with the
    /// device authorization grant (RFC 8628, `admin clients add --device`).
    public var deviceGrant: Bool
    /// A resource server or gateway that may introspect any client's tokens (RFC 7662,
    /// `admin clients add --introspect`); other clients see only their own as active.
    public var introspect: Bool
    /// Where the provider posts a logout token when the person's session or identity ends
    /// (OpenID Connect Back-Channel Logout 1.0), and whether the site needs `sid` in it.
    public var backchannelLogoutURI: String?
    public var backchannelLogoutSessionRequired: Bool
    /// The page the provider's sign-out page loads in an iframe (Front-Channel Logout 1.0),
    /// and whether the site needs `iss` and `sid` on it.
    public var frontchannelLogoutURI: String?
    public var frontchannelLogoutSessionRequired: Bool
    /// The admin API's scopes this client may ask for with client credentials
    /// (`admin clients add --admin-scopes read|write`); empty for every other client.
    public var adminScopes: [String] = []
    /// The client's public keys (a JWK Set, `admin clients add --jwks-file`): it authenticates
    /// with assertions signed by them (private_key_jwt, RFC 7523) and has no secret.
    public var jwks: String? = nil

    public enum CIBAMode: String, Sendable, CaseIterable { case poll, ping }

    /// No secret and no keys: a public client (PKCE).
    public var isPublic: Bool { secretHash == nil && jwks == nil }

    /// How the client authenticates at the token endpoint (RFC 8414's names).
    public var authMethod: String { jwks != nil ? "private_key_jwt" : secretHash != nil ? "client_secret_basic" : "none" }

    public init(
        id: String, name: String, secretHash: String?, redirectURIs: [String], postLogoutURIs: [String] = [], created: Int,
        idTokenAlg: String = "ES256", otp: Bool = false, ciba: CIBAMode? = nil, notificationEndpoint: String? = nil,
        deviceGrant: Bool = false, introspect: Bool = false, backchannelLogoutURI: String? = nil,
        backchannelLogoutSessionRequired: Bool = false, frontchannelLogoutURI: String? = nil, frontchannelLogoutSessionRequired: Bool = false
    ) {
        self.id = id; self.name = name; self.secretHash = secretHash; self.redirectURIs = redirectURIs
        self.postLogoutURIs = postLogoutURIs; self.created = created; self.idTokenAlg = idTokenAlg; self.otp = otp
        self.ciba = ciba; self.notificationEndpoint = notificationEndpoint; self.deviceGrant = deviceGrant
        self.introspect = introspect
        self.backchannelLogoutURI = backchannelLogoutURI; self.backchannelLogoutSessionRequired = backchannelLogoutSessionRequired
        self.frontchannelLogoutURI = frontchannelLogoutURI; self.frontchannelLogoutSessionRequired = frontchannelLogoutSessionRequired
    }
}

/// What a relying party asked for, kept while the person signs in on the access-code page
/// (keyed by that page's webOTT hash).
public struct PendingAuthorization: Sendable, Equatable {
    public var webOTTHash: String
    public var clientId: String
    public var redirectURI: String
    public var scope: String
    public var state: String?
    public var nonce: String?
    /// PKCE S256 challenge (base64url of SHA-256 of the verifier).
    public var codeChallenge: String?
    public var created: Int
    public var expires: Int

    public init(
        webOTTHash: String, clientId: String, redirectURI: String, scope: String, state: String?, nonce: String?,
        codeChallenge: String?, created: Int, expires: Int
    ) {
        self.webOTTHash = webOTTHash; self.clientId = clientId; self.redirectURI = redirectURI; self.scope = scope
        self.state = state; self.nonce = nonce; self.codeChallenge = codeChallenge; self.created = created; self.expires = expires
    }
}

/// An authorization code (single use; `used` stays set after redemption so that a second
/// use is recognised and what the first one issued is revoked).
public struct AuthorizationCode: Sendable, Equatable {
    public var hash: String
    public var clientId: String
    public var redirectURI: String
    public var userId: String
    public var mpinId: String
    public var scope: String
    public var nonce: String?
    public var codeChallenge: String?
    public var authTime: Int
    public var created: Int
    public var expires: Int
    /// The ZKPin web session the login came from (`OIDCLogin.sid`).
    public var sid: String?

    public init(
        hash: String, clientId: String, redirectURI: String, userId: String, mpinId: String, scope: String,
        nonce: String?, codeChallenge: String?, authTime: Int, created: Int, expires: Int, sid: String? = nil
    ) {
        self.hash = hash; self.clientId = clientId; self.redirectURI = redirectURI; self.userId = userId; self.mpinId = mpinId
        self.scope = scope; self.nonce = nonce; self.codeChallenge = codeChallenge; self.authTime = authTime
        self.created = created; self.expires = expires; self.sid = sid
    }
}

/// A refresh token (`offline_access`), single use: each use gives a new one of the same family
/// (the code it descends from); a second use revokes the whole family.
public struct OIDCRefreshToken: Sendable, Equatable {
    public var hash: String
    public var clientId: String
    public var userId: String
    public var mpinId: String
    public var scope: String
    public var authTime: Int
    /// The hash of the authorization code the family started with.
    public var family: String
    public var expires: Int
    /// The web session of the login, carried into each refreshed ID token.
    public var sid: String?

    public init(
        hash: String, clientId: String, userId: String, mpinId: String, scope: String, authTime: Int, family: String, expires: Int,
        sid: String? = nil
    ) {
        self.hash = hash; self.clientId = clientId; self.userId = userId; self.mpinId = mpinId; self.scope = scope
        self.authTime = authTime; self.family = family; self.expires = expires; self.sid = sid
    }
}

/// An opaque access token for `/oauth/userinfo` (hash at rest), tied to the code it came from.
public struct OIDCAccessToken: Sendable, Equatable {
    public var hash: String
    public var clientId: String
    public var userId: String
    public var mpinId: String
    public var scope: String
    public var codeHash: String
    public var expires: Int

    public init(hash: String, clientId: String, userId: String, mpinId: String, scope: String, codeHash: String, expires: Int) {
        self.hash = hash; self.clientId = clientId; self.userId = userId; self.mpinId = mpinId; self.scope = scope
        self.codeHash = codeHash; self.expires = expires
    }
}

/// A person's sign-in at a site: one per login family (an authorization code, a CIBA request
/// or a device code, with the tokens refreshed from it). Sign-out and the end of an identity
/// end these, and tell the sites that asked to hear of it.
public struct OIDCLogin: Sendable, Equatable {
    public var family: String
    public var clientId: String
    public var userId: String
    public var mpinId: String
    /// The ZKPin web session it came from (the `sid` claim), nil for CIBA and device grants.
    public var sid: String?
    public var created: Int
    public var expires: Int

    public init(family: String, clientId: String, userId: String, mpinId: String, sid: String?, created: Int, expires: Int) {
        self.family = family; self.clientId = clientId; self.userId = userId; self.mpinId = mpinId; self.sid = sid
        self.created = created; self.expires = expires
    }
}
