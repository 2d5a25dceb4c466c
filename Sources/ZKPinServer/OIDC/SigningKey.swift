import Foundation
import JWTKit
import ZKPinProtocol
import ZKPinWire

/// The provider's ES256 signing key: a P-256 private scalar in a 0600 file of the data folder
/// (`oidc-es256.key`, hex, created on first start like the other keys), the JWT signer and
/// the public JWKS. Instances sharing a database share the data folder's keys.
struct SigningKey: Sendable {
    static let fileName = "oidc-es256.key"
    let kid: String
    let key: ES256PrivateKey
    let jwk: PublicJWK

    static func loadOrCreate(dataDirectory: String) throws -> SigningKey {
        try load(path: (dataDirectory as NSString).appendingPathComponent(fileName), create: true)
    }

    /// The key in `path` (0600, refused when open to others); created first when `create`.
    static func load(path: String, create: Bool) throws -> SigningKey {
        let raw = create ? try SecretFile.loadOrCreate(path) { freshScalar() } : try SecretFile.load(path)
        let key = try ES256PrivateKey(key: Base64URL.encode(raw))
        guard let p = key.parameters else { throw SetupError("\(path) does not hold a P-256 key") }
        // The key id names the public key, so every instance with the same file agrees.
        let kid = String(Hex.encode(Digest.sha256(Array("\(p.x).\(p.y)".utf8))).prefix(16))
        return SigningKey(kid: kid, key: key, jwk: PublicJWK(kid: kid, x: p.x, y: p.y))
    }

    /// 32 random bytes that are a valid P-256 private scalar (nonzero and below the order).
    static func freshScalar() -> [UInt8] {
        while true {
            let bytes = Digest.randomBytes(32)
            if (try? ES256PrivateKey(key: Base64URL.encode(bytes))) != nil { return bytes }
        }
    }

    /// The key collection (an actor, so it is filled when first used).
    func keys() async -> JWTKeyCollection {
        await JWTKeyCollection().add(ecdsa: key, kid: JWKIdentifier(string: kid))
    }

    func sign(_ claims: IDTokenClaims) async throws -> String {
        try await keys().sign(claims, kid: JWKIdentifier(string: kid))
    }

}

/// One public key of `/oauth/jwks` (RFC 7517, RFC 7518 section 6.2).
struct PublicJWK: Codable, Sendable {
    var kty = "EC"
    var crv = "P-256"
    var use = "sig"
    var alg = "ES256"
    var kid: String
    var x: String
    var y: String
}

struct JWKSet: Codable, Sendable { var keys: [PublicJWK] }

/// base64url without padding (RFC 4648 section 5), as JOSE and PKCE use it.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
