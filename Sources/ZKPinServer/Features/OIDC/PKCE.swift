import ZKPinProtocol

/// Proof Key for Code Exchange (RFC 7636), S256 only.
enum PKCE {
    /// RFC 7636 section 4.1/4.2: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~].
    static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count)
            && value.utf8.allSatisfy { c in
                (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c == 0x2d || c == 0x2e || c == 0x5f || c == 0x7e
            }
    }

    /// `BASE64URL(SHA256(ASCII(code_verifier)))`.
    static func challenge(verifier: String) -> String { Base64URL.encode(Digest.sha256(Array(verifier.utf8))) }

    /// Whether the verifier matches the challenge (compared in constant time).
    static func matches(verifier: String, challenge: String) -> Bool {
        isWellFormed(verifier) && Tokens.equal(Self.challenge(verifier: verifier), challenge)
    }
}
