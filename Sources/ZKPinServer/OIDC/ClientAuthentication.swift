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
        func decode(_ s: Substring) -> String? { String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
        guard let id = decode(text[..<colon]), let secret = decode(text[text.index(after: colon)...])
        else { throw .invalidClient("malformed Basic credentials") }
        return BasicCredentials(id: id, secret: secret)
    }
}

extension OIDCProvider {
    /// client_secret_basic, client_secret_post, or none (public clients, which must use PKCE).
    func authenticateClient(_ p: TokenParameters, basic: BasicCredentials?) async throws(OAuthError) -> OIDCClient {
        if basic != nil && p.client_secret != nil { throw .invalidRequest("use one client authentication method, not two") }
        if let basic, let id = p.client_id, id != basic.id { throw .invalidRequest("client_id differs from the Basic credentials") }
        guard let id = basic?.id ?? p.client_id, !id.isEmpty, id.utf8.count <= 256 else {
            throw .invalidClient("no client authentication")
        }
        let found: OIDCClient?
        do { found = try await client(id: id) } catch { throw .temporarilyUnavailable }
        guard let client = found else { throw .invalidClient("client authentication failed") }
        let secret = basic?.secret ?? p.client_secret
        if let stored = client.secretHash {
            guard let secret, Tokens.equal(Tokens.hash(secret), stored) else { throw .invalidClient("client authentication failed") }
        } else if secret != nil && secret != "" {
            throw .invalidClient("this client is public: it has no secret")
        }
        return client
    }
}
