import Crypto

/// SHA-256 and HMAC-SHA256 from swift-crypto (CryptoKit on Apple platforms, its bundled
/// BoringSSL elsewhere): no system OpenSSL in an app's link.
public enum Digest {
    public static func sha256(_ data: some Collection<UInt8>) -> [UInt8] {
        Array(SHA256.hash(data: Array(data)))
    }

    public static func hmacSHA256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(message), using: SymmetricKey(data: Array(key))))
    }

    /// Compares two byte strings in time that depends only on their lengths.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// Cryptographically secure random bytes (the system's CSPRNG).
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
