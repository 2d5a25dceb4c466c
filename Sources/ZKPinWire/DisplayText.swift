import Foundation

/// The one rule for text a person approves or reads (a CIBA request's `binding_message`, the
/// strings of its `authorization_details`): what is shown must be what is signed. The server
/// refuses such text at the request, and the clients check it again before they show it.
/// Refused: C0 and C1 controls (ESC, CR, LF, DEL among them), format characters (the bidi
/// overrides and isolates, zero-width joiners), line and paragraph separators, and anything
/// NFKC would change (look-alike compatibility forms, unnormalised combining sequences).
public enum DisplayText {
    /// Why `text` cannot be shown to a person as what they approve; nil when it can.
    public static func problem(_ text: String) -> String? {
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control: return "it contains a control character (U+\(hex(scalar)))"
            case .format: return "it contains an invisible formatting or direction character (U+\(hex(scalar)))"
            case .lineSeparator, .paragraphSeparator: return "it contains a line or paragraph separator (U+\(hex(scalar)))"
            case .unassigned, .privateUse, .surrogate: return "it contains a character with no meaning here (U+\(hex(scalar)))"
            default: continue
            }
        }
        if text.precomposedStringWithCompatibilityMapping.unicodeScalars.elementsEqual(text.unicodeScalars) == false {
            return "it is not in Unicode normal form NFKC (look-alike or decomposed characters)"
        }
        return nil
    }

    /// Why a JSON array of `authorization_details` cannot be shown: the first of its strings
    /// (keys and values) that breaks the rule; nil when all keep it.
    public static func problem(inJSON value: Any) -> String? {
        switch value {
        case let text as String: return problem(text)
        case let array as [Any]: return array.lazy.compactMap { problem(inJSON: $0) }.first
        case let object as [String: Any]:
            for (key, item) in object {
                if let p = problem(key) ?? problem(inJSON: item) { return p }
            }
            return nil
        default: return nil
        }
    }

    /// `text` safe to write to a terminal: every character the rule refuses is written as
    /// `\u{XXXX}`, so that a hostile server's text can neither move the cursor, change
    /// colours, reorder what follows it nor start a new line.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate:
                out += "\\u{\(hex(scalar))}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
