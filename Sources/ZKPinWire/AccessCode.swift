// Access codes: six random digits d1..d6 and a check digit
// c = (11 - Σ d_i·w_i mod 11) mod 11 with weights 7,6,5,4,3,2; a draw whose check digit
// would be 10 is drawn again. Clients verify the check digit before any network call.

public enum AccessCode {
    /// Digits of a full access code.
    public static let length = 7
    static let weights = [7, 6, 5, 4, 3, 2]

    /// The check digit of six digits (0...9), or nil when it would be 10 (redraw) or the input
    /// is not six digits.
    package static func checkDigit(_ digits: [Int]) -> Int? {
        guard digits.count == weights.count, digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        let sum = zip(digits, weights).reduce(0) { $0 + $1.0 * $1.1 }
        let c = (11 - sum % 11) % 11
        return c == 10 ? nil : c
    }

    /// True for exactly seven ASCII digits whose last is the check digit of the first six.
    public static func isValid(_ code: String) -> Bool {
        let digits = code.utf8.map { Int($0) - 48 }
        guard digits.count == length, digits.allSatisfy({ (0...9).contains($0) }) else { return false }
        return checkDigit(Array(digits.prefix(6))) == digits[6]
    }

    /// A fresh code; `randomDigit` returns a uniform digit 0...9 (inject a CSPRNG).
    public static func generate(randomDigit: () -> Int) -> String {
        while true {
            let digits = (0..<6).map { _ in randomDigit() }
            if let c = checkDigit(digits) {
                return (digits + [c]).map(String.init).joined()
            }
        }
    }

    /// Splits a QR payload `<url>#<code>` into the service URL and the code; nil without `#`.
    /// The code is not checked here: use `isValid`.
    public static func splitPayload(_ payload: String) -> (url: String, code: String)? {
        guard let hash = payload.lastIndex(of: "#") else { return nil }
        let url = String(payload[..<hash])
        let code = String(payload[payload.index(after: hash)...])
        guard !url.isEmpty, !code.isEmpty else { return nil }
        return (url, code)
    }
}
