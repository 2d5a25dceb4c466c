import Foundation

/// HTTP Basic client credentials (RFC 6749 section 2.3.1: both parts form-urlencoded).
struct BasicCredentials: Sendable, Equatable {
    var id: String
    var secret: String

    /// nil when the header is not Basic; throws when it is Basic but malformed.
    static func parse(_ header: String?) throws(OAuthError) -> BasicCredentials? {
        guard let header, header.lowercased().hasPrefix("basic ") else { return nil }
        let encoded = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else { throw .invalidClient("malformed Basic credentials") }
        // RFC 6749 2.3.1: form-encoded id and secret. Issued ones never need it (hex and
        // base64url), so only text with `%` or `+` goes through the (slow) decoding.
        func decode(_ s: Substring) -> String? {
            s.contains(where: { $0 == "%" || $0 == "+" }) ? String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding : String(s)
        }
        guard let id = decode(text[..<colon]), let secret = decode(text[text.index(after: colon)...])
        else { throw .invalidClient("malformed Basic credentials") }
        return BasicCredentials(id: id, secret: secret)
    }
}

extension OIDCProvider {
    /// client_secret_basic, client_secret_post, private_key_jwt, or none (public clients, which
    /// must use PKCE).
    func authenticateClient(_ p: TokenParameters, basic: BasicCredentials?) async throws(OAuthError) -> OIDCClient {
        guard p.client_assertion != nil || p.client_assertion_type != nil else {
            return try await authenticateClient(id: p.client_id, secret: p.client_secret, basic: basic)
        }
        guard p.client_assertion_type == ClientAssertion.type else {
            throw .invalidClient("client_assertion_type must be \(ClientAssertion.type)")
        }
        guard let jwt = p.client_assertion, !jwt.isEmpty, jwt.utf8.count <= 16 * 1024 else {
            throw .invalidClient("client_assertion is missing")
        }
        if basic != nil || p.client_secret != nil { throw .invalidRequest("use one client authentication method, not two") }
        let assertion = ClientAssertion(jwt: jwt)
        guard let id = assertion.unverified()?.issuer ?? p.client_id, !id.isEmpty, id.utf8.count <= 256 else {
            throw .invalidClient("client_assertion must be a JWT whose iss is the client id")
        }
        if let named = p.client_id, named != id { throw .invalidRequest("client_id differs from the assertion's iss") }
        let found: OIDCClient?
        do { found = try await clients.client(id: id) { id in try await client(id: id) } } catch { throw .temporarilyUnavailable }
        guard let client = found else { throw .invalidClient("client authentication failed") }
        let now = self.now
        let (jtiHash, until) = try await assertion.verify(client: client, audiences: [issuer, issuer + "/oauth/token"], now: now)
        let fresh = try await stored { try await $0.rememberClientAssertion(jtiHash: jtiHash, clientId: client.id, expires: until) }
        guard fresh else { throw .invalidClient("this client_assertion was used already (its jti)") }
        return client
    }

    /// The same for the other client-authenticated endpoints (CIBA, the device grant, approvals).
    func authenticateClient(id: String?, secret: String?, basic: BasicCredentials?) async throws(OAuthError) -> OIDCClient {
        try await ClientCredentials.authenticate(id: id, secret: secret, basic: basic) { id in
            try await clients.client(id: id) { id in try await client(id: id) }
        }
    }
}

/// The token endpoint's client authentication, shared with `/otp/verify`.
enum ClientCredentials {
    /// Basic credentials, or an id and secret sent in the body, or (public clients) an id alone;
    /// the secret is compared by its hash in constant time.
    static func authenticate(
        id bodyID: String?, secret bodySecret: String?, basic: BasicCredentials?,
        lookup: (String) async throws -> OIDCClient?
    ) async throws(OAuthError) -> OIDCClient {
        if basic != nil && bodySecret != nil { throw .invalidRequest("use one client authentication method, not two") }
        if let basic, let id = bodyID, id != basic.id { throw .invalidRequest("client_id differs from the Basic credentials") }
        guard let id = basic?.id ?? bodyID, !id.isEmpty, id.utf8.count <= 256 else {
            throw .invalidClient("no client authentication")
        }
        let found: OIDCClient?
        do { found = try await lookup(id) } catch { throw .temporarilyUnavailable }
        guard let client = found else { throw .invalidClient("client authentication failed") }
        if client.jwks != nil {
            throw .invalidClient("this client authenticates with private_key_jwt: send client_assertion at the token endpoint")
        }
        let secret = basic?.secret ?? bodySecret
        if let stored = client.secretHash {
            guard let secret, Tokens.equal(Tokens.hash(secret), stored) else { throw .invalidClient("client authentication failed") }
        } else if secret != nil && secret != "" {
            throw .invalidClient("this client is public: it has no secret")
        }
        return client
    }
}
