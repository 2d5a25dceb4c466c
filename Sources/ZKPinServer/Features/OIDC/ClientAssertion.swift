import Crypto
import Foundation
import JWTKit

/// private_key_jwt client authentication (RFC 7523 section 2.2, OpenID Connect Core 1.0
/// section 9): the client signs a short-lived JWT with a key whose public half it registered
/// (`admin clients add --jwks-file`), instead of sending a secret. The assertion names the
/// client (`iss` = `sub` = client id), this provider (`aud`: the issuer or the token
/// endpoint), expires within the hour, and its `jti` is taken once.
struct ClientAssertion: Sendable {
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    static let algorithms = ["ES256", "RS256"]
    /// An assertion may live at most this long ahead (seconds): its jti is remembered that long.
    static let maxLifetime = 3600
    /// Clock difference allowed between the client and the provider (seconds).
    static let leeway = 60

    struct Claims: JWTPayload {
        var iss: String
        var sub: String
        var aud: AudienceClaim
        var exp: Int
        var nbf: Int?
        var jti: String?
        /// Checked by `verify(client:...)` against the provider's clock, not jwt-kit's.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    struct Header: Decodable {
        var alg: String?
        var kid: String?
    }

    var jwt: String

    /// What the header and payload say before any signature check: only to find the client.
    func unverified() -> (header: Header, issuer: String?)? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let head = Base64URL.decode(String(parts[0])), let body = Base64URL.decode(String(parts[1])),
            let header = try? JSONDecoder().decode(Header.self, from: Data(head))
        else { return nil }
        let issuer = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["iss"] as? String
        return (header, issuer)
    }

    /// Verifies the assertion for `client`: signature by one of its keys, claims, lifetime.
    /// Returns the jti's hash and the time until which it must be remembered.
    func verify(client: OIDCClient, audiences: Set<String>, now: Int) async throws(OAuthError) -> (jtiHash: String, until: Int) {
        guard let jwks = client.jwks else { throw .invalidClient("this client has no registered keys for client_assertion") }
        guard let (header, _) = unverified(), let alg = header.alg, Self.algorithms.contains(alg) else {
            throw .invalidClient("client_assertion must be a JWT signed with " + Self.algorithms.joined(separator: " or "))
        }
        let claims: Claims
        do {
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: jwks)
            claims = try await keys.verify(jwt, as: Claims.self)
        } catch {
            throw .invalidClient("client_assertion is not signed by a key registered for this client")
        }
        guard claims.iss == client.id, claims.sub == client.id else {
            throw .invalidClient("client_assertion's iss and sub must both be the client id")
        }
        guard claims.aud.value.contains(where: audiences.contains) else {
            throw .invalidClient("client_assertion's aud must be the issuer or the token endpoint")
        }
        guard claims.exp + Self.leeway > now else { throw .invalidClient("client_assertion has expired") }
        guard claims.exp <= now + Self.maxLifetime + Self.leeway else {
            throw .invalidClient("client_assertion may live at most \(Self.maxLifetime) seconds")
        }
        if let nbf = claims.nbf, nbf > now + Self.leeway { throw .invalidClient("client_assertion is not valid yet (nbf)") }
        guard let jti = claims.jti, !jti.isEmpty, jti.utf8.count <= 256 else { throw .invalidClient("client_assertion needs a jti") }
        return (Tokens.hash(client.id + " " + jti), claims.exp + Self.leeway)
    }

    /// A client's JWK Set as registered: JSON with one to ten public keys, each with a kid and
    /// usable for ES256 (P-256) or RS256 (2048 bits or more). Returns it compact.
    static func checkJWKS(_ text: String) async throws(ClientRegistry.Invalid) -> String {
        guard text.utf8.count <= 64 * 1024, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let keys = object["keys"] as? [[String: Any]], (1...10).contains(keys.count)
        else { throw ClientRegistry.Invalid(description: "the JWK Set must be JSON {\"keys\": [...]} with one to ten keys") }
        for key in keys {
            let kid = key["kid"] as? String ?? ""
            guard !kid.isEmpty else { throw ClientRegistry.Invalid(description: "each key of the JWK Set needs a kid") }
            guard key["d"] == nil, key["p"] == nil else {
                throw ClientRegistry.Invalid(description: "key \(kid) holds a private part: register only the public keys")
            }
            switch (key["kty"] as? String, key["crv"] as? String) {
            case ("EC", "P-256"):
                // A point on the curve (jwt-kit would take any coordinates until a signature check).
                let x = (key["x"] as? String).flatMap(Base64URL.decode) ?? []
                let y = (key["y"] as? String).flatMap(Base64URL.decode) ?? []
                guard x.count == 32, y.count == 32, (try? P256.Signing.PublicKey(rawRepresentation: x + y)) != nil else {
                    throw ClientRegistry.Invalid(description: "key \(kid) is not a point of P-256")
                }
            case ("RSA", _):
                let modulus = (key["n"] as? String).flatMap(Base64URL.decode) ?? []
                guard modulus.drop(while: { $0 == 0 }).count >= 256 else {
                    throw ClientRegistry.Invalid(description: "RSA key \(kid) must have at least 2048 bits")
                }
            default: throw ClientRegistry.Invalid(description: "key \(kid) must be EC P-256 (ES256) or RSA (RS256)")
            }
        }
        guard let compact = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
            (try? await JWTKeyCollection().add(jwksJSON: String(decoding: compact, as: UTF8.self))) != nil
        else { throw ClientRegistry.Invalid(description: "the JWK Set's keys are not usable (a coordinate or modulus is wrong)") }
        return String(decoding: compact, as: UTF8.self)
    }
}
