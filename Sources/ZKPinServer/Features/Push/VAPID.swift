import Crypto
import Foundation

/// The server's VAPID key (RFC 8292): a P-256 key pair in `vapid.key` in the data folder (a
/// 0600 file of hex, created on first start like the other keys), which signs a short-lived
/// JWT for each push service it calls. Its public key is the web app's `applicationServerKey`;
/// browsers tie a subscription to it, so a new key means every device subscribes again.
public struct VAPIDKey: Sendable {
    public static let fileName = "vapid.key"
    /// RFC 8292 section 2: `exp` at most 24 hours ahead; 12 leaves room for clock skew.
    public static let tokenLifetime: TimeInterval = 12 * 3600

    private let privateKey: P256.Signing.PrivateKey
    /// The uncompressed public point, 65 bytes.
    public let publicKey: [UInt8]

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notAKey(String)
        case badSubject(String)
        case badEndpoint(String)
        case signingFailed(String)

        public var description: String {
            switch self {
            case .notAKey(let path): return "\(path) does not hold a P-256 private key (64 hex digits)"
            case .badSubject(let subject): return "VAPID subject '\(subject)' is not a mailto: address or an https URL"
            case .badEndpoint(let endpoint): return "push endpoint '\(endpoint.prefix(200))' has no origin to address a VAPID token to"
            case .signingFailed(let why): return "the VAPID token could not be signed: \(why)"
            }
        }
    }

    /// The key in `dataDirectory/vapid.key`, created first when missing.
    public static func loadOrCreate(dataDirectory: String) throws -> VAPIDKey {
        try load(path: (dataDirectory as NSString).appendingPathComponent(fileName), create: true)
    }

    /// The key in `path` (0600, refused when open to others); created first when `create`.
    public static func load(path: String, create: Bool) throws -> VAPIDKey {
        let raw = create ? try SecretFile.loadOrCreate(path) { Array(P256.Signing.PrivateKey().rawRepresentation) } : try SecretFile.load(path)
        do { return try VAPIDKey(rawScalar: raw) } catch { throw Failure.notAKey(path) }
    }

    /// A new key in `dataDirectory/vapid.key`; the one it replaces, if any, is kept beside it
    /// as `vapid.key.retired-<now>` (its path returned), for the record and to go back to.
    /// Servers read the key at start: they use the new one once restarted.
    public static func rotate(dataDirectory: String, now: Int) throws -> (key: VAPIDKey, retired: String?) {
        let path = (dataDirectory as NSString).appendingPathComponent(fileName)
        var retired: String?
        if FileManager.default.fileExists(atPath: path) {
            let moved = path + ".retired-\(now)"
            try FileManager.default.moveItem(atPath: path, toPath: moved)
            retired = moved
        }
        return (try load(path: path, create: true), retired)
    }

    /// From the 32-byte private scalar.
    public init(rawScalar: [UInt8]) throws {
        privateKey = try P256.Signing.PrivateKey(rawRepresentation: rawScalar)
        publicKey = Array(privateKey.publicKey.x963Representation)
    }

    /// The public key as base64url: what `pushManager.subscribe({applicationServerKey})` takes.
    public var applicationServerKey: String { Base64URL.encode(publicKey) }

    /// `vapid t=<JWT>, k=<public key>` for a request to `endpoint` (RFC 8292 section 3): an
    /// ES256 JWT whose `aud` is the endpoint's origin, `exp` 12 hours from `now`, and `sub` the
    /// operator's contact (`mailto:` or an https URL), which push services use to reach them.
    public func authorization(endpoint: String, subject: String, now: Date = Date()) throws(Failure) -> String {
        guard let (origin, _) = PushOrigin.parse(endpoint) else { throw .badEndpoint(endpoint) }
        guard Self.isContact(subject) else { throw .badSubject(subject) }
        let claims = Claims(aud: origin.description, exp: Int(now.timeIntervalSince1970 + Self.tokenLifetime), sub: subject)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding three plain fields cannot fail.
        let payload = (try? encoder.encode(claims)).map { Array($0) } ?? []
        let signingInput =
            Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(payload)
        // JWS (RFC 7518 section 3.4) wants r || s, 32 bytes each: the raw form, not DER.
        let signature: [UInt8]
        do { signature = Array(try privateKey.signature(for: Array(signingInput.utf8)).rawRepresentation) } catch {
            throw .signingFailed("\(error)")
        }
        return "vapid t=\(signingInput).\(Base64URL.encode(signature)), k=\(applicationServerKey)"
    }

    /// `mailto:` with an address, or an https URL with a host.
    public static func isContact(_ subject: String) -> Bool {
        if subject.hasPrefix("mailto:") {
            return subject.count > "mailto:".count && subject.contains("@") && !subject.contains(where: \.isWhitespace)
        }
        guard let url = URL(string: subject), url.scheme?.lowercased() == "https", let host = url.host else { return false }
        return !host.isEmpty
    }

    private struct Claims: Encodable {
        var aud: String
        var exp: Int
        var sub: String
    }
}
