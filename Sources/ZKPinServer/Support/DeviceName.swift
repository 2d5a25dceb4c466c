import Foundation
import ZKPinWire

/// The device name of a registration: it goes into the activation mail to the address owner,
/// so a stranger must not be able to write a message there. At most 40 characters of letters,
/// digits, spaces and `-_.'()`: no links (no `:` or `/`), no line breaks, no invisible text.
enum DeviceName {
    static let maxLength = 40

    static func checked(_ name: String?) throws(APIError) -> String {
        let text = (name ?? "").trimmingCharacters(in: .whitespaces)
        guard text.count <= maxLength else { throw APIError.bad("deviceName is at most \(maxLength) characters") }
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal || scalar == " "
                || "-_.'()".unicodeScalars.contains(scalar)
        }
        guard allowed else { throw APIError.bad("deviceName may hold letters, digits, spaces and - _ . ' ( ) only") }
        // One space between words: no layout tricks in the mail.
        return text.split(separator: " ").joined(separator: " ")
    }
}
