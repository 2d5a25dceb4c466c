/// `/.well-known/openid-configuration` (OpenID Connect Discovery 1.0, section 3).
struct ProviderMetadata: Codable, Sendable {
    var issuer: String
    var authorization_endpoint: String
    var token_endpoint: String
    var userinfo_endpoint: String
    var jwks_uri: String
    var end_session_endpoint: String
    var revocation_endpoint: String
    var introspection_endpoint: String
    var revocation_endpoint_auth_methods_supported = ["client_secret_basic", "client_secret_post", "none"]
    var introspection_endpoint_auth_methods_supported = ["client_secret_basic", "client_secret_post"]
    // Set by the features that add them (`ExtensionGrant.describe`).
    var backchannel_authentication_endpoint: String?
    var device_authorization_endpoint: String?
    var backchannel_token_delivery_modes_supported: [String]?
    var backchannel_user_code_parameter_supported: Bool?
    var scopes_supported = ["openid", "email", "profile", "offline_access"]
    var response_types_supported = ["code"]
    var response_modes_supported = ["query"]
    var grant_types_supported: [String]
    var subject_types_supported = ["public"]
    var id_token_signing_alg_values_supported = ["ES256", "RS256"]
    var token_endpoint_auth_methods_supported = ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]
    var token_endpoint_auth_signing_alg_values_supported = ClientAssertion.algorithms
    var code_challenge_methods_supported = ["S256"]
    var claims_supported = ["iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "email", "email_verified", "amr", "azp", "approval", "sid"]
    var prompt_values_supported = ["none", "login"]
    var authorization_response_iss_parameter_supported = true
    // OpenID Connect Back-Channel and Front-Channel Logout 1.0 (the SignOut feature).
    var backchannel_logout_supported = true
    var backchannel_logout_session_supported = true
    var frontchannel_logout_supported = true
    var frontchannel_logout_session_supported = true
    var request_parameter_supported = false
    var request_uri_parameter_supported = false

    init(provider: OIDCProvider) {
        let issuer = provider.issuer
        self.issuer = issuer
        grant_types_supported = provider.grantTypes
        authorization_endpoint = issuer + "/oauth/authorize"
        token_endpoint = issuer + "/oauth/token"
        userinfo_endpoint = issuer + "/oauth/userinfo"
        jwks_uri = issuer + "/oauth/jwks"
        end_session_endpoint = issuer + "/oauth/logout"
        revocation_endpoint = issuer + "/oauth/revoke"
        introspection_endpoint = issuer + "/oauth/introspect"
        for grant in provider.extensionGrants { grant.describe(&self) }
    }
}
