/// PINs that a guesser tries first: all digits equal (1111), a run up or down (1234, 9876),
/// a repeated pair (1212), and a few well-known ones (2580 is a keypad's middle column).
/// Registration and change-pin warn about them; the person may keep one on purpose.
public enum TrivialPIN {
    static let wellKnown: Set<String> = ["2580", "0852", "1122", "1004", "2000", "6969"]

    /// Why `pin` is easy to guess; nil when it is not one of the PINs above.
    public static func reason(_ pin: PIN) -> String? {
        let text = pin.digits
        let digits = text.map { Int(String($0))! }
        if Set(digits).count == 1 { return "all its digits are the same" }
        let steps = zip(digits, digits.dropFirst()).map { $1 - $0 }
        if steps.allSatisfy({ $0 == 1 }) { return "its digits count up one by one" }
        if steps.allSatisfy({ $0 == -1 }) { return "its digits count down one by one" }
        if digits[0] == digits[2] && digits[1] == digits[3] { return "it repeats a pair of digits" }
        if wellKnown.contains(text) { return "it is one of the PINs people choose most" }
        return nil
    }
}

extension PIN {
    /// The four digits, with leading zeros.
    var digits: String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
