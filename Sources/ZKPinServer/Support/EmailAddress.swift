import Foundation

/// E-mail addresses (userIds), normalised once where they come in: NFC, lower-cased, and
/// refused when they hold control, format (Cf: zero-width and bidi controls), separator (line
/// and paragraph separators, any space) or private-use characters, so that two spellings that
/// look alike are one address and none can reorder or hide text in a mail or a page.
public enum EmailAddress {
    /// The one stored form of `text`, or nil when it is not an acceptable address.
    public static func normalized(_ text: String) -> String? {
        guard text.utf8.count <= 1024 else { return nil }
        guard text.unicodeScalars.allSatisfy(isAllowed) else { return nil }
        let result = folded(text)
        return isValid(result) ? result : nil
    }

    /// NFC and lower case, whatever else the text holds: the stored form of addresses kept from
    /// before normalisation (migrations) and of what an administrator types.
    public static func folded(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
    }

    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse, .surrogate, .unassigned:
            return false
        default:
            return true
        }
    }

    /// The syntactic check of a userId: at most 254 bytes, one `@`, no whitespace or control
    /// characters (so it can never inject a mail header), a dotted domain.
    static func isValid(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 254 else { return false }
        guard
            text.unicodeScalars.allSatisfy({
                $0.value > 0x20 && $0.value != 0x7f && isAllowed($0) && $0 != "<" && $0 != ">" && $0 != "," && $0 != ";" && $0 != "\""
            })
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
