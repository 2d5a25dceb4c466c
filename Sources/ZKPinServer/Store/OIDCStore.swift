// The OpenID Connect provider's part of the Store (clients, pending authorizations, codes,
// access tokens); both stores implement it and the conformance suite tests it. As everywhere
// in the stores, every one-time value is consumed by ONE atomic statement.

public protocol OIDCStore: Sendable {
    // MARK: Clients
    /// Inserts; throws when the id exists.
    func insertOIDCClient(_ client: OIDCClient) async throws
    func oidcClient(id: String) async throws -> OIDCClient?
    func oidcClients() async throws -> [OIDCClient]
    /// Deletes a client (its codes and tokens stop working); false when unknown.
    func deleteOIDCClient(id: String) async throws -> Bool

    // MARK: Authorizations waiting for the access-code login
    func insertPendingAuthorization(_ pending: PendingAuthorization) async throws
    /// Takes (deletes and returns) the live pending authorization of a page.
    func consumePendingAuthorization(webOTTHash: String, now: Int) async throws -> PendingAuthorization?

    // MARK: Codes and access tokens
    func insertAuthorizationCode(_ code: AuthorizationCode) async throws
    /// Marks a live, unused code used and returns it; nil when unknown, expired or used.
    func redeemAuthorizationCode(hash: String, now: Int) async throws -> AuthorizationCode?
    /// Whether a code of this hash was redeemed already (a second use).
    func authorizationCodeWasUsed(hash: String) async throws -> Bool
    func insertOIDCAccessToken(_ token: OIDCAccessToken) async throws
    func oidcAccessToken(hash: String, now: Int) async throws -> OIDCAccessToken?
    /// Revokes every access and refresh token issued from the code; returns how many access tokens.
    func revokeOIDCAccessTokens(codeHash: String) async throws -> Int

    // MARK: Refresh tokens
    func insertOIDCRefreshToken(_ token: OIDCRefreshToken) async throws
    /// Marks a live, unused refresh token used and returns it; nil when unknown, expired or used.
    func redeemOIDCRefreshToken(hash: String, now: Int) async throws -> OIDCRefreshToken?
    /// The family of a refresh token that was used already (a second use), nil otherwise.
    func usedOIDCRefreshTokenFamily(hash: String) async throws -> String?

    /// Deletes expired pending authorizations, codes (kept a while after expiry so a late
    /// second use is still recognised) and access tokens.
    func purgeExpiredOIDC(now: Int) async throws
}

/// Redirect URIs are kept as one text column: one URI per line (a URI has no newline).
enum URIList {
    static func join(_ uris: [String]) -> String { uris.joined(separator: "\n") }
    static func split(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }
}
