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
        return isValid(result) && !looksLikeAnother(result) ? result : nil
    }

    /// Addresses that would show as another one, or as a picture, in a mail, a page or
    /// `admin list` (issue 29, finding 9): compatibility characters (full-width letters such as
    /// "ａｎｎ", ligatures, superscripts: anything NFKC would change), symbols (emoji and other
    /// pictographs, non-ASCII modifier symbols), variation selectors; and a local part or a
    /// domain label that mixes Latin, Greek and Cyrillic letters ("аpple.com" with a Cyrillic
    /// "а"). A label wholly in one script ("пример.рф", "bücher.de") is accepted: without
    /// Unicode's confusable tables the server cannot tell a whole-script look-alike from a real
    /// name; docs/limits.md says so.
    static func looksLikeAnother(_ text: String) -> Bool {
        if text.precomposedStringWithCompatibilityMapping != text { return true }
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .otherSymbol: return true
            case .modifierSymbol where scalar.value > 0x7F: return true
            default: break
            }
            if (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value) { return true }
        }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return true }
        return ([parts[0]] + parts[1].split(separator: ".")).contains(where: mixesScripts)
    }

    /// Whether `piece` holds letters of more than one of Latin, Greek and Cyrillic (the scripts
    /// whose letters look alike), by the Unicode blocks of each.
    static func mixesScripts(_ piece: Substring) -> Bool {
        var latin = false, greek = false, cyrillic = false
        for scalar in piece.unicodeScalars where scalar.properties.isAlphabetic {
            switch scalar.value {
            case 0x41...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F: latin = true
            case 0x370...0x3FF, 0x1F00...0x1FFF: greek = true
            case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: cyrillic = true
            default: break
            }
        }
        return [latin, greek, cyrillic].filter { $0 }.count > 1
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
