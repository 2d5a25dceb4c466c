/// Draws one-time codes: `digits` decimal digits (6 to 8), every value of 0 ..< 10^digits
/// equally likely. A 32-bit draw is kept only below the largest multiple of 10^digits that fits
/// (rejection sampling), so the remainder has no modulo bias; Apache Milagro's server drew
/// biased digits.
public struct OTPGenerator<Source: RandomNumberGenerator> {
    public static var allowedDigits: ClosedRange<Int> { 6...8 }
    public let digits: Int
    var source: Source

    /// `source` is the system's CSPRNG in the server; tests give a seeded one.
    public init(digits: Int, source: Source) {
        precondition(Self.allowedDigits.contains(digits), "one-time codes have 6 to 8 digits")
        self.digits = digits
        self.source = source
    }

    /// 10^digits.
    public var range: UInt32 {
        var r: UInt32 = 1
        for _ in 0..<digits { r *= 10 }
        return r
    }

    /// The next value in 0 ..< 10^digits, uniformly.
    public mutating func nextValue() -> UInt32 {
        let range = UInt64(self.range)
        // The largest multiple of `range` that fits in 2^32: draws at or above it are rejected.
        let limit = (UInt64(1) << 32) / range * range
        while true {
            let draw = UInt64(UInt32(truncatingIfNeeded: source.next()))
            if draw < limit { return UInt32(draw % range) }
        }
    }

    /// The next code, zero-padded to `digits` characters.
    public mutating func next() -> String {
        let text = String(nextValue())
        return String(repeating: "0", count: digits - text.count) + text
    }
}

extension OTPGenerator where Source == SystemRandomNumberGenerator {
    /// Codes from the system's CSPRNG (getrandom on Linux).
    public init(digits: Int) { self.init(digits: digits, source: SystemRandomNumberGenerator()) }
}
