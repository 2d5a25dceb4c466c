// The activation confirmation code. Both sides derive it from regOTT:
// the first 8 characters of base32 (RFC 4648, upper case, no padding) of
// SHA-256("zkpin-activation" ‖ regOTT bytes), where regOTT bytes are the hex-decoded regOTT,
// shown as XXXX-XXXX. ZKPinWire has no SHA-256, so the caller hashes `hashInput(regOTT:)`
// and passes the digest to `code(fromDigest:)`.

public enum ConfirmationCode {
    /// The domain-separation prefix.
    public static let prefix = Array("zkpin-activation".utf8)

    /// The bytes to hash: prefix ‖ hex-decoded regOTT; nil when regOTT is not valid hex.
    public static func hashInput(regOTT: String) -> [UInt8]? {
        guard let bytes = Hex.decode(regOTT) else { return nil }
        return prefix + bytes
    }

    /// `XXXX-XXXX` from the SHA-256 digest of `hashInput`.
    public static func code(fromDigest digest: [UInt8]) -> String {
        let chars = Array(Base32.encode(digest).prefix(8))
        return String(chars[0..<4]) + "-" + String(chars[4..<8])
    }

    /// Typed input in canonical form: dash and spaces removed, upper case (may still be wrong).
    public static func normalize(_ input: String) -> String {
        String(input.uppercased().filter { $0 != "-" && $0 != " " })
    }

    /// Whether typed input (with or without dash, any case) names `code`. Not constant time;
    /// the server compares digests in constant time itself.
    public static func matches(_ input: String, code: String) -> Bool {
        normalize(input) == normalize(code)
    }
}

/// RFC 4648 base32, upper case, no padding.
package enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    package static func encode(_ bytes: [UInt8]) -> String {
        var out = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }
}
