/// The client's own check of an e-mail address before it asks a server (which checks again):
/// one `@`, a non-empty local part, a domain with a dot, no spaces or control characters, at
/// most 254 characters.
public enum Email {
    public static func validate(_ text: String) throws(ClientError) -> String {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard text.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty,
            parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            text.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value != 127 })
        else { throw .invalidEmail(text) }
        return text
    }
}
