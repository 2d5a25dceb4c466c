import COpenSSL

/// SHA-256 and HMAC-SHA256 from libcrypto.
public enum Digest {
    public static func sha256(_ data: some Collection<UInt8>) -> [UInt8] {
        let input = Array(data)
        var output = [UInt8](repeating: 0, count: 32)
        input.withUnsafeBufferPointer { buffer in
            _ = SHA256(buffer.baseAddress, buffer.count, &output)
        }
        return output
    }

    public static func hmacSHA256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        let keyBytes = Array(key), messageBytes = Array(message)
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        keyBytes.withUnsafeBufferPointer { k in
            messageBytes.withUnsafeBufferPointer { m in
                _ = HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &output, &length)
            }
        }
        return output
    }

    /// Compares two byte strings in time that depends only on their lengths.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// Cryptographically secure random bytes (RAND_bytes).
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = RAND_bytes(&bytes, Int32(count))
        precondition(status == 1, "RAND_bytes failed")
        return bytes
    }
}
