import CryptoExtras
import Foundation
import JWTKit
import ZKPinProtocol
import ZKPinWire

/// One ID-token signing key of the provider, in a 0600 file of the data folder (hex, created on
/// first start like the other keys): ES256 (a P-256 private scalar, `oidc-es256.key`, the
/// default) or RS256 (an RSA-2048 private key in DER, `oidc-rs256.key`, for relying parties that
/// cannot verify ES256). Instances sharing a database share the data folder's keys.
struct SigningKey: Sendable {
    enum Algorithm: String, Sendable, CaseIterable {
        case es256 = "ES256"
        case rs256 = "RS256"
        var fileName: String { "oidc-\(rawValue.lowercased()).key" }
        /// `oidc-es256-retired-<unix time>.key` after `admin keys rotate`.
        var retiredPrefix: String { "oidc-\(rawValue.lowercased())-retired-" }
    }

    static let fileName = Algorithm.es256.fileName
    let algorithm: Algorithm
    let kid: String
    let jwk: PublicJWK
    private let ecdsa: ES256PrivateKey?
    private let rsa: JWTKit.Insecure.RSA.PrivateKey?

    static func loadOrCreate(dataDirectory: String, algorithm: Algorithm = .es256) throws -> SigningKey {
        try load(path: (dataDirectory as NSString).appendingPathComponent(algorithm.fileName), algorithm: algorithm, create: true)
    }

    /// The key in `path` (0600, refused when open to others); created first when `create`.
    static func load(path: String, algorithm: Algorithm = .es256, create: Bool) throws -> SigningKey {
        switch algorithm {
        case .es256:
            let raw = create ? try SecretFile.loadOrCreate(path) { freshScalar() } : try SecretFile.load(path)
            let key = try ES256PrivateKey(key: Base64URL.encode(raw))
            guard let p = key.parameters else { throw SetupError("\(path) does not hold a P-256 key") }
            // The key id names the public key, so every instance with the same file agrees.
            let kid = String(Hex.encode(Digest.sha256(Array("\(p.x).\(p.y)".utf8))).prefix(16))
            return SigningKey(
                algorithm: .es256, kid: kid, jwk: PublicJWK(kty: "EC", alg: "ES256", kid: kid, crv: "P-256", x: p.x, y: p.y),
                ecdsa: key, rsa: nil)
        case .rs256:
            var failure: (any Error)?
            let der =
                create
                ? try SecretFile.loadOrCreate(path) {
                    do { return Array(try _RSA.Signing.PrivateKey(keySize: .bits2048).derRepresentation) } catch { failure = error; return [] }
                } : try SecretFile.load(path)
            if let failure { throw failure }
            let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(derRepresentation: der))
            let (n, e) = try key.publicKey.getKeyPrimitives()
            let kid = String(Hex.encode(Digest.sha256(Array(n))).prefix(16))
            return SigningKey(
                algorithm: .rs256, kid: kid,
                jwk: PublicJWK(
                    kty: "RSA", alg: "RS256", kid: kid, n: Base64URL.encode(Array(n)),
                    e: Base64URL.encode(Array(e))),
                ecdsa: nil, rsa: key)
        }
    }

    /// 32 random bytes that are a valid P-256 private scalar (nonzero and below the order).
    static func freshScalar() -> [UInt8] {
        while true {
            let bytes = Digest.randomBytes(32)
            if (try? ES256PrivateKey(key: Base64URL.encode(bytes))) != nil { return bytes }
        }
    }

    func add(to keys: JWTKeyCollection) async {
        if let ecdsa { await keys.add(ecdsa: ecdsa, kid: JWKIdentifier(string: kid)) }
        if let rsa { await keys.add(rsa: rsa, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid)) }
    }

    /// Signs an ID token, or (with its `typ`) another token of the provider's, such as a logout token.
    func sign(_ claims: some JWTPayload, type: String? = nil) async throws -> String {
        let keys = JWTKeyCollection()
        await add(to: keys)
        var header = JWTHeader()
        header.typ = type
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid), header: header)
    }
}

/// One public key of `/oauth/jwks` (RFC 7517; RFC 7518 sections 6.2 and 6.3).
struct PublicJWK: Codable, Sendable, Equatable {
    var kty: String
    var use = "sig"
    var alg: String
    var kid: String
    var crv: String? = nil
    var x: String? = nil
    var y: String? = nil
    var n: String? = nil
    var e: String? = nil
}

struct JWKSet: Codable, Sendable { var keys: [PublicJWK] }
