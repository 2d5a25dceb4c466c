import ZKPinProtocol
import ZKPinWire

/// One-time tokens: 32 random bytes as hex on the wire, SHA-256 hex at rest.
public enum Tokens {
    public static func fresh(bytes: Int = 32) -> String { Hex.encode(Digest.randomBytes(bytes)) }

    /// What the store keeps for a token.
    public static func hash(_ token: String) -> String { Hex.encode(Digest.sha256(Array(token.utf8))) }

    /// HMAC-SHA256 of `message` as hex.
    public static func hmac(key: [UInt8], _ message: String) -> String {
        Hex.encode(Digest.hmacSHA256(key: key, message: Array(message.utf8)))
    }

    /// Constant-time comparison of two hex strings (or any strings) of equal length.
    public static func equal(_ a: String, _ b: String) -> Bool {
        Digest.constantTimeEquals(Array(a.utf8), Array(b.utf8))
    }

    /// The confirmation code of a regOTT (spec: base32 of SHA-256("zkpin-activation" ‖ regOTT)).
    public static func confirmationCode(regOTT: String) -> String? {
        guard let input = ConfirmationCode.hashInput(regOTT: regOTT) else { return nil }
        return ConfirmationCode.code(fromDigest: Digest.sha256(input))
    }
}
