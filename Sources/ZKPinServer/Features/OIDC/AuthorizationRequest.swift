/// The parameters of `/oauth/authorize` (query or form; duplicates are refused by the decoder).
struct AuthorizationParameters: Decodable, Sendable {
    var client_id: String?
    var redirect_uri: String?
    var response_type: String?
    var response_mode: String?
    var scope: String?
    var state: String?
    var nonce: String?
    var code_challenge: String?
    var code_challenge_method: String?
    var prompt: String?
    var max_age: String?
    var request: String?
    var request_uri: String?
}

/// A request that passed every check: what the code will carry.
struct ValidAuthorization: Sendable {
    var client: OIDCClient
    var redirectURI: String
    var scope: String
    var state: String?
    var nonce: String?
    var codeChallenge: String?
    /// `prompt=login`: sign in again even with a session.
    var forceLogin: Bool
    /// `prompt=none`: never show the page.
    var noPrompt: Bool
    var maxAge: Int?
}

/// OpenID Connect Core 1.0 section 3.1.2.1/3.1.2.2 and RFC 6749 section 4.1.1, in the order
/// RFC 6749 section 4.1.2.1 asks: first the client and its redirect URI (errors there are shown,
/// never redirected), then everything else (errors go back to the client).
enum AuthorizationValidation {
    static let maxLength = 2048

    /// Step 1: the client and the exact redirect URI.
    static func client(_ p: AuthorizationParameters, lookup: (String) async throws -> OIDCClient?) async throws
        -> (OIDCClient, String)
    {
        guard let id = p.client_id, !id.isEmpty else { throw AuthorizationPageError(message: "The request names no client (client_id is missing).") }
        guard id.utf8.count <= 256, let client = try await lookup(id) else {
            throw AuthorizationPageError(message: "The application that sent you here is not registered with this service (unknown client_id).")
        }
        guard let uri = p.redirect_uri, !uri.isEmpty else {
            throw AuthorizationPageError(message: "The request has no redirect_uri.")
        }
        // Exact string comparison (OpenID Connect Core 3.1.2.1): no prefix or pattern matching.
        guard client.redirectURIs.contains(uri) else {
            throw AuthorizationPageError(message: "The redirect_uri is not registered for \(client.name).")
        }
        return (client, uri)
    }

    /// Step 2: everything else; errors here are redirected to the (valid) redirect URI.
    static func rest(_ p: AuthorizationParameters, client: OIDCClient, redirectURI: String) throws(OAuthError) -> ValidAuthorization {
        for value in [p.state, p.nonce, p.scope, p.code_challenge, p.prompt, p.max_age] {
            if let value, value.utf8.count > maxLength { throw .invalidRequest("a parameter is longer than \(maxLength) bytes") }
        }
        if p.request != nil { throw OAuthError(code: "request_not_supported", description: "request objects are not supported") }
        if p.request_uri != nil { throw OAuthError(code: "request_uri_not_supported", description: "request_uri is not supported") }
        guard let responseType = p.response_type, !responseType.isEmpty else { throw .invalidRequest("response_type is missing") }
        guard responseType == "code" else { throw .unsupportedResponseType("only response_type=code is supported") }
        if let mode = p.response_mode, mode != "query" { throw .invalidRequest("only response_mode=query is supported") }
        let scopes = (p.scope ?? "").split(separator: " ").map(String.init)
        guard scopes.contains("openid") else { throw .invalidScope("scope must contain openid") }
        let scope = scopes.filter { ["openid", "email", "profile", "offline_access"].contains($0) }.joined(separator: " ")

        var challenge: String? = nil
        if let c = p.code_challenge {
            guard (p.code_challenge_method ?? "plain") == "S256" else { throw .invalidRequest("code_challenge_method must be S256") }
            guard PKCE.isWellFormed(c) else { throw .invalidRequest("code_challenge is malformed") }
            challenge = c
        } else if p.code_challenge_method != nil {
            throw .invalidRequest("code_challenge_method without code_challenge")
        }
        if client.isPublic && challenge == nil { throw .invalidRequest("PKCE (code_challenge with S256) is required for this client") }

        let prompts = Set((p.prompt ?? "").split(separator: " ").map(String.init))
        if prompts.contains("none") && prompts.count > 1 { throw .invalidRequest("prompt=none cannot be combined") }
        var maxAge: Int? = nil
        if let text = p.max_age {
            guard let v = Int(text), v >= 0 else { throw .invalidRequest("max_age must be a non-negative integer") }
            maxAge = v
        }
        return ValidAuthorization(
            client: client, redirectURI: redirectURI, scope: scope, state: p.state, nonce: p.nonce,
            codeChallenge: challenge, forceLogin: prompts.contains("login"), noPrompt: prompts.contains("none"),
            maxAge: maxAge)
    }
}
