import Foundation
import ZKPinWire

/// What a login page shows as a QR code and as text: `<url>#<access-code>`. Parsing checks the
/// URL and the access code's check digit, so a mistyped code is refused before any network call.
public struct Payload: Sendable, Equatable {
    /// The service URL, normalized (`ServerURL.normalize`).
    public let server: String
    /// Seven digits, the last a check digit.
    public let accessCode: String

    public init(parsing text: String) throws(ClientError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let (url, code) = AccessCode.splitPayload(trimmed) else {
            throw .missingAccessCode(payload: trimmed)
        }
        guard code.count == AccessCode.length, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .invalidAccessCode(code: code, reason: "an access code is \(AccessCode.length) digits")
        }
        guard AccessCode.isValid(code) else {
            throw .invalidAccessCode(code: code, reason: "its check digit does not match, so a digit is mistyped")
        }
        server = try ServerURL.normalize(url)
        accessCode = code
    }

    /// The payload as a page would show it.
    public var text: String { "\(server)#\(accessCode)" }
}
