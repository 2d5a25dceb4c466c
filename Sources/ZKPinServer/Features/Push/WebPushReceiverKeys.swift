import Crypto
import Foundation

/// A subscriber's keys (the `keys` of the browser's `PushSubscription.toJSON()`): its P-256
/// public key `p256dh` and its 16-byte `auth` secret, validated when decoded so that a bad key
/// is refused when a subscription is stored, not at each delivery.
public struct WebPushReceiverKeys: Sendable {
    /// The uncompressed point, 65 bytes (0x04 || x || y).
    public let p256dh: [UInt8]
    public let auth: [UInt8]
    let publicKey: P256.KeyAgreement.PublicKey

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notBase64URL(field: String)
        case p256dhLength(Int)
        case p256dhNotUncompressed(prefix: UInt8)
        case p256dhNotOnCurve
        case authLength(Int)

        public var description: String {
            switch self {
            case .notBase64URL(let field): return "\(field) is not base64url"
            case .p256dhLength(let n): return "p256dh is \(n) bytes; a P-256 public key (uncompressed point) is 65"
            case .p256dhNotUncompressed(let prefix):
                return "p256dh starts with 0x\(String(prefix, radix: 16)); an uncompressed point starts with 0x04"
            case .p256dhNotOnCurve: return "p256dh is not a point on P-256"
            case .authLength(let n): return "auth is \(n) bytes; the Web Push auth secret is 16"
            }
        }
    }

    public init(p256dh: [UInt8], auth: [UInt8]) throws(Failure) {
        guard p256dh.count == 65 else { throw .p256dhLength(p256dh.count) }
        guard p256dh[0] == 0x04 else { throw .p256dhNotUncompressed(prefix: p256dh[0]) }
        guard auth.count == 16 else { throw .authLength(auth.count) }
        // The decoder checks that the point is on the curve (and not the point at infinity).
        guard let key = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh) else { throw .p256dhNotOnCurve }
        self.p256dh = p256dh
        self.auth = auth
        self.publicKey = key
    }

    /// From the base64url strings a browser gives.
    public init(p256dh: String, auth: String) throws(Failure) {
        guard let point = Base64URL.decode(p256dh) else { throw .notBase64URL(field: "p256dh") }
        guard let secret = Base64URL.decode(auth) else { throw .notBase64URL(field: "auth") }
        try self.init(p256dh: point, auth: secret)
    }
}
