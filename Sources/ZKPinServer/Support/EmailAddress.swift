/// The syntactic check of a userId (an e-mail address): at most 254 characters, one `@`, no
/// whitespace or control characters (so it can never inject a mail header), a dotted domain.
enum EmailAddress {
    static func isValid(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 254 else { return false }
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f && $0 != "<" && $0 != ">" && $0 != "," && $0 != ";" && $0 != "\"" })
        else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64 else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
        }
    }
}
