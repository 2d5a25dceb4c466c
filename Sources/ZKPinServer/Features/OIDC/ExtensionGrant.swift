/// A grant type that a feature adds to `/oauth/token` (CIBA's, the device grant's), with what
/// it adds to the discovery document. The provider is built with the features' grants, so the
/// token endpoint and discovery name exactly the grants this server has.
struct ExtensionGrant: Sendable {
    /// The `grant_type` value.
    var type: String
    /// One redemption by an authenticated client.
    var redeem: @Sendable (OIDCProvider, TokenParameters, OIDCClient, _ address: String) async throws(OAuthError) -> TokenResponse
    /// The feature's endpoints and options in `/.well-known/openid-configuration`.
    var describe: @Sendable (inout ProviderMetadata) -> Void = { _ in }
}
